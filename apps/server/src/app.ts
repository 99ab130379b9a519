import type { Logger } from '@sess/core';
import { type Database, isMigrated } from '@sess/db';
import { STYLESHEET, STYLESHEET_ETAG, STYLESHEET_PATH } from '@sess/web';
import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import type { Config } from './config.ts';
import type { AppEnv } from './http/app-env.ts';
import { onError, onNotFound } from './http/errors.ts';
import { requestLogger } from './http/request-logger.ts';

export interface AppDeps {
  config: Config;
  database: Database;
  logger: Logger;
  /** The server secret (SESS_SECRET or the generated one): seals signing keys, keys CSRF tokens. */
  secret: string;
  /** The clock every verb reads; tests inject their own instead of sleeping. */
  now: () => Date;
}

/**
 * Builds the whole HTTP app (no listener): request ids, logging, errors, health. Feature
 * routes are mounted here as their packages arrive.
 */
export function buildApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(requestId({ limitLength: 64 }));
  app.use(requestLogger(deps.logger));
  app.onError(onError);
  app.notFound(onNotFound);

  app.get(STYLESHEET_PATH, (c) => {
    if (c.req.header('if-none-match') === STYLESHEET_ETAG) return c.body(null, 304);
    return c.body(STYLESHEET, 200, {
      'Content-Type': 'text/css; charset=utf-8',
      'Cache-Control': 'public, max-age=3600',
      ETag: STYLESHEET_ETAG,
      'X-Content-Type-Options': 'nosniff',
    });
  });

  let migrated = false;
  app.get('/healthz', (c) => c.json({ status: 'ok' }, 200, { 'Cache-Control': 'no-store' }));
  app.get('/readyz', async (c) => {
    try {
      await deps.database.ping();
      // Once the newest migration is seen it stays applied; only reachability is re-checked.
      migrated ||= await isMigrated(deps.database.db);
      if (!migrated) return c.json({ status: 'migrating' }, 503, { 'Cache-Control': 'no-store' });
      return c.json({ status: 'ready' }, 200, { 'Cache-Control': 'no-store' });
    } catch (error) {
      c.get('logger').warn({ event: 'readyz.database_unreachable', err: error }, 'database unreachable');
      return c.json({ status: 'database unreachable' }, 503, { 'Cache-Control': 'no-store' });
    }
  });
  return app;
}
