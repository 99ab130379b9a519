import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { type AccountRoutesDeps, createAccountRoutes, type OidcSettings, type SignupPolicy } from '@sess/accounts';
import { newSecret } from '@sess/core';
import { createTestDatabase, createTestLogger, type TestDatabase } from '@sess/testkit';
import { Hono } from 'hono';

/** Error log lines of every server a test file started (read them when a status is 500). */
export const errorLog: string[] = [];

/** A clock the test moves by hand (no sleeping). */
export function createClock(start = '2026-06-01T10:00:00.000Z') {
  let at = Date.parse(start);
  return {
    now: () => new Date(at),
    advance(ms: number) {
      at += ms;
    },
  };
}

export interface AccountsServer {
  url: string;
  database: TestDatabase;
  secret: string;
  close(): Promise<void>;
}

export interface StartOptions {
  policy?: SignupPolicy;
  now?: () => Date;
  limits?: AccountRoutesDeps['limits'];
  oidc?: OidcSettings | null;
  /** A database to share (e.g. two "replicas"); a fresh one by default. */
  database?: TestDatabase;
  clientIp?: AccountRoutesDeps['clientIp'];
  /** The public URL to pretend (e.g. https, to see `Secure` cookies); the server's own address by default. */
  publicUrl?: string;
}

/**
 * Starts the account routes alone (a Hono app with this package's routes, nothing else of Sess)
 * on 127.0.0.1:0 over a fresh migrated database, with the public URL set to the real address (so
 * redirect URIs and links point at it). The whole app's account pages are apps/server's tests.
 */
export async function startAccounts(options: StartOptions = {}): Promise<AccountsServer> {
  const database = options.database ?? (await createTestDatabase());
  const secret = newSecret(32);
  // Errors are always kept (in memory) so a failing test can show why a page was a 500.
  const logger = createTestLogger({
    level: (process.env.SESS_TEST_LOG as 'error' | undefined) ?? 'error',
    destination: { write: (line: string) => void errorLog.push(line) },
  });
  const now = options.now ?? (() => new Date());
  let handler: (request: Request, env?: unknown) => Response | Promise<Response> = () =>
    new Response('starting', { status: 503 });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: (request, env) => handler(request, env), port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const app = new Hono();
  app.route(
    '/',
    createAccountRoutes({
      db: database.db,
      secret,
      publicUrl: options.publicUrl ?? url,
      signupPolicy: options.policy ?? 'open',
      now,
      logger,
      oidc: options.oidc ?? null,
      ...(options.limits ? { limits: options.limits } : {}),
      ...(options.clientIp ? { clientIp: options.clientIp } : {}),
    }),
  );
  handler = (request, env?: unknown) => app.fetch(request, env);
  return {
    url,
    database,
    secret,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (!options.database) await database.destroy();
    },
  };
}
