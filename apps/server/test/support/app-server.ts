import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { serve } from '@hono/node-server';
import { createLogger } from '@sess/core';
import { createTestClock, createTestDatabase, TEST_SECRET, type TestClock, type TestDatabase } from '@sess/testkit';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';

/** The real app (accounts, OAuth, forms, /mcp) on 127.0.0.1, port 0, with PUBLIC_URL = its address. */
export interface AppServer {
  url: string;
  database: TestDatabase;
  clock: TestClock;
  /** Every log line (pino JSON), for assertions that nothing secret is logged. */
  logs: Array<Record<string, unknown>>;
  rawLogs: string[];
  close(): Promise<void>;
}

export async function startAppServer(env: Record<string, string> = {}): Promise<AppServer> {
  const database = await createTestDatabase();
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
    const s = serve({ fetch: (request, e) => handler(request, e), port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    PUBLIC_URL: url,
    LOG_LEVEL: 'info',
    SESS_SIGNUP: 'open',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...env,
  });
  const app = buildApp({
    config,
    database,
    logger: createLogger({ level: 'info', destination }),
    secret: TEST_SECRET,
    now: clock.now,
  });
  handler = (request, e) => app.fetch(request, e);
  return {
    url,
    database,
    clock,
    logs,
    rawLogs,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) (server as unknown as { closeAllConnections(): void }).closeAllConnections();
      });
      await database.destroy();
    },
  };
}
