import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { serve } from '@hono/node-server';
import { createLogger } from '@sess/core';
import { buildApp, loadConfig } from '@sess/server';
import { createTestClock, createTestDatabase, TEST_SECRET, type TestClock, type TestDatabase } from '@sess/testkit';

/** One running Sess server for an OAuth test file: the real app, on 127.0.0.1, port 0. */
export interface OAuthTestServer {
  /** The public URL, which is also the issuer (PUBLIC_URL is set to the bound address). */
  url: string;
  database: TestDatabase;
  clock: TestClock;
  /** Every log line the server wrote (pino JSON), for assertions on events. */
  logs: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

export interface OAuthTestServerOptions {
  /** SESS_TEST_ALLOW_LOOPBACK_CIMD (default on: tests never fetch off the machine). */
  loopbackCimd?: boolean;
  database?: TestDatabase;
}

/**
 * Starts the real app (apps/server buildApp: accounts, OAuth, everything) on a real socket.
 * The listener is bound first so PUBLIC_URL can be its actual address; the clock starts at the
 * real time (JWT `iat`) and only moves when a test advances it.
 */
export async function startOAuthTestServer(options: OAuthTestServerOptions = {}): Promise<OAuthTestServer> {
  const database = options.database ?? (await createTestDatabase());
  const clock = createTestClock(new Date());
  const logs: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  let handler: (request: Request, env: unknown) => Response | Promise<Response> = () => new Response('starting', { status: 503 });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: (request, env) => handler(request, env), port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    PUBLIC_URL: url,
    LOG_LEVEL: 'info',
    SESS_SIGNUP: 'open',
    SESS_TEST_ALLOW_LOOPBACK_CIMD: options.loopbackCimd === false ? '0' : '1',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
  });
  const app = buildApp({
    config,
    database,
    logger: createLogger({ level: 'info', destination }),
    secret: TEST_SECRET,
    now: clock.now,
  });
  handler = (request, env) => app.fetch(request, env);
  return {
    url,
    database,
    clock,
    logs,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) (server as unknown as { closeAllConnections(): void }).closeAllConnections();
      });
      if (!options.database) await database.destroy();
    },
  };
}
