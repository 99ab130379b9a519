import type { RootLogger } from '@sess/core';
import type { Hono } from 'hono';
import type { AppEnv } from './app-env.ts';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id.ts';
import { lazyChildLogger, type RequestObserver, writeRequestLine } from './request-logger.ts';

/** One route served ahead of the app's middleware chain. */
export interface FrontRoute {
  /** The exact path, as Hono reads it from the URL. */
  path: string;
  /** Whether this request may skip the chain; any other request at the path goes through the app as before. */
  takes(request: Request): boolean;
  /** Answers the request (it settles with a response and never rejects in practice). */
  fetch(request: Request, env: unknown): Promise<Response>;
}

/** The body `onError` answers an unexpected failure with. */
function internalError(requestId: string): Response {
  return Response.json(
    {
      error: { code: 'INTERNAL', message: 'Something went wrong on our side. Try again in a moment.', retryable: true },
      requestId,
    },
    { status: 500, headers: { [REQUEST_ID_HEADER]: requestId } },
  );
}

/** `response` with the request id header (copied when its headers are immutable). */
function withRequestId(response: Response, requestId: string): Response {
  try {
    response.headers.set(REQUEST_ID_HEADER, requestId);
    return response;
  } catch {
    const headers = new Headers(response.headers);
    headers.set(REQUEST_ID_HEADER, requestId);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

/** What a listener serves (`@hono/node-server`'s `fetch`): a request and the adapter's env. */
export type Fetch = (request: Request, env?: unknown) => Response | Promise<Response>;

/**
 * The fetch function a listener serves: `route` first, then `app.fetch` for everything else — a
 * plain function in front of the app, which itself stays untouched. For the requests the route
 * takes it does what the app-wide middleware does, as plain calls: the request id (the caller's
 * `X-Request-Id` or a new one, on the response) and the one `http.request` line with route,
 * status and time, written when the response is ready. Why: Hono's chain keeps a suspended async
 * frame per middleware, plus its Context, for the whole life of a request, and a parked /mcp wait
 * lives up to 45 s (issue 17). Here the request holds one promise reaction instead.
 */
export function frontFetch(app: Hono<AppEnv>, root: RootLogger, route: FrontRoute, observe?: RequestObserver): Fetch {
  return (request, env) => {
    // The path as the app itself would read it, so "is this /mcp" has one answer.
    if (app.getPath(request, { env }) !== route.path || !route.takes(request)) return app.fetch(request, env);
    const started = performance.now();
    const requestId = requestIdOf(request.headers);
    const method = request.method;
    let answered: Promise<Response>;
    try {
      answered = route.fetch(request, env);
    } catch (error) {
      answered = Promise.reject(error);
    }
    return answered.then(
      (response) => {
        writeRequestLine(root, lazyChildLogger(root, { requestId }), {
          method,
          route: route.path,
          status: response.status,
          started,
        });
        observe?.(method, route.path, response.status, started);
        return withRequestId(response, requestId);
      },
      (error: unknown) => {
        const logger = lazyChildLogger(root, { requestId });
        logger.error({ event: 'http.unhandled', err: error }, 'unhandled error');
        writeRequestLine(root, logger, { method, route: route.path, status: 500, started });
        observe?.(method, route.path, 500, started);
        return internalError(requestId);
      },
    );
  };
}
