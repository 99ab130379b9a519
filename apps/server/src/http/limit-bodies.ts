import { SessError } from '@sess/core';
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from './app-env.ts';

/** The largest body a page, account or OAuth post may carry: far above any real form. */
export const FORM_BODY_LIMIT_BYTES = 256 * 1024;

/**
 * Bounds every request body the routes below do not bound themselves. A declared
 * Content-Length over the limit is refused before a byte is read; a chunked body is refused the
 * moment it passes the limit, so a client streaming without end cannot fill memory. Routes with
 * limits of their own are left alone: `/mcp` and `/v1` read their bodies straight from the
 * socket, and the answer pages `/s/…` answer with a page a person can read. So are GET and HEAD
 * (no body, and building a web body for them costs every page view).
 */
export function limitBodies(maxBytes = FORM_BODY_LIMIT_BYTES): MiddlewareHandler<AppEnv> {
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new SessError('PAYLOAD_TOO_LARGE', `The request body is over ${maxBytes} bytes.`, { limit: maxBytes });
    },
  });
  return async function limitBody(c, next) {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return next();
    const path = c.req.path;
    if (path === '/mcp' || path.startsWith('/v1/') || path.startsWith('/s/')) return next();
    return limit(c, next);
  };
}
