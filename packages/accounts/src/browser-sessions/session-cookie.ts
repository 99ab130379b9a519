/** The browser-session cookie's name (fixed: the OAuth pages read the same cookie). */
export const SESSION_COOKIE = 'sess_session';

/** How long a browser session may go unused before it ends. */
export const SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000;

/** How long a browser session lives at most, however often it is used. */
export const SESSION_ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000;

// A session token is `newSecret(32)`: 43 base64url characters. Anything else is never looked up.
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The values of every cookie named `name` in a `Cookie` header, in order (a sibling sub-domain
 * may have planted a second one; the caller tries each). At most 5, so a huge header costs
 * nothing.
 */
export function readCookieValues(cookieHeader: string | undefined, name: string): string[] {
  if (!cookieHeader) return [];
  const values: string[] = [];
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    values.push(part.slice(eq + 1).trim());
    if (values.length === 5) break;
  }
  return values;
}

/** The session tokens a `Cookie` header carries, keeping only well-formed ones. */
export function readSessionTokens(cookieHeader: string | undefined): string[] {
  return readCookieValues(cookieHeader, SESSION_COOKIE).filter((value) => TOKEN_SHAPE.test(value));
}

export interface CookieOptions {
  /** `Secure` is set when the public URL is https (browsers drop Secure cookies on plain http). */
  secure: boolean;
  /** Seconds until the browser forgets the cookie; 0 clears it. */
  maxAgeSeconds: number;
  /** Defaults to `Lax`. */
  sameSite?: 'Lax' | 'Strict';
  path?: string;
}

/** A `Set-Cookie` value: always HttpOnly, SameSite, host-only (no Domain attribute). */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [
    `${name}=${value}`,
    `Path=${options.path ?? '/'}`,
    `Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`,
    'HttpOnly',
    `SameSite=${options.sameSite ?? 'Lax'}`,
  ];
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}

/** The `Set-Cookie` value that starts a browser session. */
export function sessionCookie(token: string, expiresAt: Date, now: Date, secure: boolean): string {
  return serializeCookie(SESSION_COOKIE, token, { secure, maxAgeSeconds: (expiresAt.getTime() - now.getTime()) / 1000 });
}

/** The `Set-Cookie` value that makes the browser forget its session. */
export function clearSessionCookie(secure: boolean): string {
  return serializeCookie(SESSION_COOKIE, '', { secure, maxAgeSeconds: 0 });
}
