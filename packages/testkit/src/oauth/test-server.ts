import { type AppServer, startAppServer } from '../app-server.ts';
import type { TestDatabase } from '../database.ts';

/** One running Sess server for an OAuth test file: the real app, on 127.0.0.1, port 0. */
export type OAuthTestServer = AppServer;

export interface OAuthTestServerOptions {
  /** SESS_TEST_LOOPBACK_EGRESS (default on: tests never fetch off the machine). */
  loopbackEgress?: boolean;
  /**
   * SESS_TRUSTED_PROXIES, e.g. `loopback`: then a test's `X-Forwarded-For` is the client
   * address the per-address limits see, so each test can speak from its own address.
   */
  trustedProxies?: string;
  database?: TestDatabase;
}

/** Starts the real app for OAuth tests; client metadata documents on loopback are allowed unless told otherwise. */
export function startOAuthTestServer(options: OAuthTestServerOptions = {}): Promise<OAuthTestServer> {
  return startAppServer({
    env: {
      SESS_TEST_LOOPBACK_EGRESS: options.loopbackEgress === false ? '0' : '1',
      ...(options.trustedProxies ? { SESS_TRUSTED_PROXIES: options.trustedProxies } : {}),
    },
    ...(options.database ? { database: options.database } : {}),
  });
}
