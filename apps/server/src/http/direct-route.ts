import type { Logger } from '@sess/core';
import type { Hono } from 'hono';
import type { AppEnv } from './app-env.ts';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id.ts';
import { lazyChildLogger, writeRequestLine } from './request-logger.ts';

/** One route served ahead of the app's middleware chain. */
export interface DirectRoute {
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

/**
 * Serves `route` before Hono's middleware, doing what the app-wide middleware does for it as
 * plain calls: the request id (the caller's `X-Request-Id` or a new one, on the response) and the
 * one `http.request` line with route, status and time, written when the response is ready.
 * Why: Hono's chain keeps a suspended async frame per middleware, plus its Context, for the whole
 * life of a request, and a parked /mcp wait lives up to 45 s (issue 17). Here the request holds
 * one promise reaction instead.
 */
export function serveAheadOfMiddleware(app: Hono<AppEnv>, root: Logger, route: DirectRoute): void {
  const throughApp = app.fetch;
  app.fetch = (request, env, executionCtx) => {
    if (app.getPath(request, { env }) !== route.path || !route.takes(request)) return throughApp(request, env, executionCtx);
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
        return withRequestId(response, requestId);
      },
      (error: unknown) => {
        const logger = lazyChildLogger(root, { requestId });
        logger.error({ event: 'http.unhandled', err: error }, 'unhandled error');
        writeRequestLine(root, logger, { method, route: route.path, status: 500, started });
        return internalError(requestId);
      },
    );
  };
}
