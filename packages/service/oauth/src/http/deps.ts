import type { Logger } from '@sess/core';
import type { Egress } from '@sess/core/egress';
import type { Database } from '@sess/db';
import type { Context } from 'hono';

/** What the OAuth routes need from the composition root. */
export interface OAuthRoutesDeps {
  database: Database;
  /** The server secret: seals the signing keys, keys the CSRF tokens (shared with @sess/accounts). */
  secret: string;
  /** PUBLIC_URL, no trailing slash: the issuer; the resource is PUBLIC_URL/mcp. */
  publicUrl: string;
  now: () => Date;
  logger: Logger;
  cimd: {
    /**
     * Where client metadata documents are fetched from: `public` addresses in production,
     * `loopback-only` under the test flag SESS_TEST_LOOPBACK_EGRESS=1.
     */
    egress: Egress;
    timeoutMs?: number;
  };
  limits?: {
    /** Client registrations per client address per hour (default 60; Claude registers per connection). */
    registrationsPerIpPerHour?: number;
  };
  /**
   * The caller's address for the per-address limits: client registrations, and fetches of
   * metadata documents not in the cache (default: the socket's remote address).
   */
  clientIp?: (c: Context) => string;
}

/** Context variables these routes read (apps/server's request logger sets `logger`). */
export interface OAuthEnv {
  Variables: {
    logger: Logger;
  };
}
