import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { serve } from '@hono/node-server';
import { buildApp, loadConfig } from '@sess/server';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { createTestClock, TEST_SECRET, type TestClock } from './factories/forms.ts';
import { createTestLogger } from './test-logger.ts';

/** The real app (accounts, OAuth, forms, /mcp) on 127.0.0.1, port 0, with PUBLIC_URL = its address. */
export interface AppServer {
  /** The public URL, which is also the OAuth issuer. */
  url: string;
  database: TestDatabase;
  clock: TestClock;
  /** Every log line (pino JSON), for assertions on events and that nothing secret is logged. */
  logs: Array<Record<string, unknown>>;
  rawLogs: string[];
  /**
   * Every method and path pattern the app registers, its middleware included (hono's
   * `app.routes`, `ALL` for `use` and `all`): a test can walk every route there is.
   */
  routes: ReadonlyArray<{ method: string; path: string }>;
  close(): Promise<void>;
}

export interface AppServerOptions {
  /**
   * Environment on top of the test defaults (NODE_ENV=test, open sign-up, info logs); a function
   * gets the bound address first (for a PUBLIC_URL or SESS_LINK_URL on the same port).
   */
  env?: Record<string, string> | ((address: { url: string; port: number }) => Record<string, string>);
  /** A database the caller owns (not destroyed on close); a fresh one otherwise. */
  database?: TestDatabase;
}

/**
 * Starts the real app (apps/server's buildApp) on a real socket. The listener is bound first so
 * PUBLIC_URL can be its actual address; the clock starts at the real time (JWT `iat`) and only
 * moves when a test advances it. `close()` stops the listener, closes what the app opened (the
 * forms runtime's waiters, the token verifier) and, unless it was given, the database.
 */
export async function startAppServer(options: AppServerOptions = {}): Promise<AppServer> {
  const database = options.database ?? (await createTestDatabase());
  const clock = createTestClock(new Date());
  const logs: Array<Record<string, unknown>> = [];
  const rawLogs: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) {
        if (!line.trim()) continue;
        rawLogs.push(line);
        logs.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  let handler: (request: Request, env: unknown) => Response | Promise<Response> = () => new Response('starting', { status: 503 });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: (request, env) => handler(request, env), port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    PUBLIC_URL: url,
    LOG_LEVEL: 'info',
    SESS_SIGNUP: 'open',
    // Push services and metadata documents on loopback only: a test never sends off the machine.
    SESS_TEST_LOOPBACK_EGRESS: '1',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...(typeof options.env === 'function' ? options.env({ url, port }) : options.env),
  });
  const closers: Array<() => Promise<void>> = [];
  const app = buildApp({
    config,
    database,
    logger: createTestLogger({ level: 'info', destination }),
    secret: TEST_SECRET,
    now: clock.now,
    onClose: (close) => closers.push(close),
  });
  handler = (request, env) => app.fetch(request, env);
  return {
    url,
    database,
    clock,
    logs,
    rawLogs,
    routes: app.hono.routes.map(({ method, path }) => ({ method, path })),
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) (server as unknown as { closeAllConnections(): void }).closeAllConnections();
      });
      await Promise.allSettled(closers.map((close) => close()));
      if (!options.database) await database.destroy();
    },
  };
}
