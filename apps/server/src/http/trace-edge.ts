import type { Tracer, TraceSpan } from '@sess/core';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { AppEnv } from './app-env.ts';
import type { Fetch, FrontRoute } from './front-fetch.ts';

/*
 * The edge span of every request (tracing on only; app.ts applies these when a tracer is
 * installed): a server span around the whole fetch, continuing a caller's `traceparent`, named
 * `METHOD /route/pattern` once the request is routed — never the raw path or query, where links
 * and OAuth codes travel. It ends when the response starts (a stream's body is not waited for).
 */

/** Each request's edge span, for whoever learns its route. */
const edgeSpans = new WeakMap<Request, TraceSpan>();

/** Names `request`'s edge span by its route pattern. */
function nameEdgeSpan(request: Request, route: string): void {
  const span = edgeSpans.get(request);
  if (!span) return;
  span.rename(`${request.method} ${route}`);
  span.set('http.route', route);
}

/** `fetch` with each request in its edge span. */
export function traceRequests(fetch: Fetch, tracer: Tracer): Fetch {
  return (request, env) =>
    tracer.span(
      request.method,
      { kind: 'server', attributes: { 'http.request.method': request.method }, remoteParent: request.headers },
      (span) => {
        edgeSpans.set(request, span);
        return Promise.resolve(fetch(request, env)).then((response) => {
          span.set('http.response.status_code', response.status);
          if (response.status >= 500) span.fail(String(response.status));
          return response;
        });
      },
    );
}

/** The app's first middleware: names the edge span by the route Hono matched. */
export function nameRouteSpans(): MiddlewareHandler<AppEnv> {
  return async function nameRouteSpan(c, next) {
    await next();
    nameEdgeSpan(c.req.raw, routePath(c));
  };
}

/** `route` naming the edge span of each request it serves ahead of the app (`frontFetch`). */
export function namedFrontRoute(route: FrontRoute): FrontRoute {
  return {
    path: route.path,
    takes: (request) => route.takes(request),
    fetch(request, env) {
      nameEdgeSpan(request, route.path);
      return route.fetch(request, env);
    },
  };
}
