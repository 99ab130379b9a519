import { type FormsRuntime, readJwks } from '@sess/forms';
import { JWKS_CACHE_CONTROL, JWKS_CONTENT_TYPE } from '@sess/receipts';
import { Hono } from 'hono';

/** Where receipt verification keys are published. */
export const JWKS_PATH = '/.well-known/jwks.json';

/**
 * `GET /.well-known/jwks.json`: the active and the previous receipt key, from the process's
 * cached ring (no database read per request), with `JWKS_CACHE_CONTROL`. Public and CORS-open:
 * public keys are meant to be fetched by anyone who verifies a receipt.
 */
export function createJwksRoute(runtime: FormsRuntime): Hono {
  const app = new Hono();
  app.get(JWKS_PATH, async (c) => {
    const jwks = await readJwks(runtime);
    return c.body(JSON.stringify(jwks), 200, {
      'Content-Type': JWKS_CONTENT_TYPE,
      'Cache-Control': JWKS_CACHE_CONTROL,
      'Access-Control-Allow-Origin': '*',
      'X-Content-Type-Options': 'nosniff',
    });
  });
  return app;
}
