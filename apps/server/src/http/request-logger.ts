import type { Logger } from '@sess/core';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { AppEnv } from './app-env.ts';

/**
 * One log line per request. It names the matched route pattern (`/s/:token`), never the raw
 * path or query, because links and OAuth codes travel in URLs.
 */
export function requestLogger(root: Logger): MiddlewareHandler<AppEnv> {
  return async function logRequest(c, next) {
    const started = performance.now();
    const logger = root.child({ requestId: c.get('requestId') });
    c.set('logger', logger);
    await next();
    const status = c.res.status;
    const line = {
      event: 'http.request',
      method: c.req.method,
      route: routePath(c),
      status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    };
    if (status >= 500) logger.error(line);
    else logger.info(line);
  };
}
