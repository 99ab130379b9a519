import type { Logger } from '@sess/core';
import type { Db } from '@sess/db';
import type { ServedPackageUrls } from '@sess/web';
import type { Context } from 'hono';
import type { BrowserSession } from '../browser-sessions/read-browser-session.ts';
import type { SignupPolicy } from '../signup/signup-policy.ts';

/** Upstream OpenID Provider settings (`OIDC_ISSUER`, `OIDC_CLIENT_ID`, `OIDC_CLIENT_SECRET`). */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Shown on the button: "Sign in with <name>". */
  name: string;
  /**
   * Lets oauth4webapi talk to an http:// issuer. Only for tests and local development (the
   * composition root sets it from NODE_ENV); never in production.
   */
  allowInsecureRequests?: boolean;
  /** Outbound request timeout to the provider (discovery, token), default 10 s. */
  timeoutMs?: number;
}

/** Per-IP limits (in process: per replica) on the forms that cost a password hash. */
export interface AccountRateLimits {
  /** Password sign-in attempts per IP per window (default 30 per 15 minutes). */
  signInPerIp?: number;
  /** Sign-ups (and OpenID sign-in starts) per IP per window (default 10 per hour). */
  signUpPerIp?: number;
  /** Per-account password attempts (counted in the database; default 10 per 15 minutes). */
  signInPerAccount?: number;
  signInPerAccountWindowMs?: number;
  /** Passkey ceremony posts (options and answers, sign-in and adding) per IP per 15 minutes (default 60). */
  passkeyPerIp?: number;
  /** Passkey ceremonies answered per account per 15 minutes (counted in the database; default 20). */
  passkeyPerAccount?: number;
}

/** What the account routes need from the composition root. */
export interface AccountRoutesDeps {
  db: Db;
  /** The server secret: keys CSRF tokens and the signed OpenID state cookie. */
  secret: string;
  /** The public origin (no trailing slash). Cookies are `Secure` when it is https. */
  publicUrl: string;
  signupPolicy: SignupPolicy;
  now: () => Date;
  logger: Logger;
  oidc?: OidcSettings | null;
  limits?: AccountRateLimits;
  /** The caller's address for per-IP limits (default: the socket's remote address). */
  clientIp?: (c: Context) => string;
  /** The client packages this server serves, for the install lines of the home and account pages. */
  packages?: ServedPackageUrls;
}

/** Context variables the account routes set and read. */
export interface AccountsEnv {
  Variables: {
    logger: Logger;
    session: BrowserSession;
  };
}

/** The socket address @hono/node-server exposes on `c.env.incoming`. */
export function socketAddress(c: Context): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? 'unknown';
}
