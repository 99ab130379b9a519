import { clearCookie, readCookieValues, serializeCookie } from '@sess/web';

/** The browser-session cookie's name (fixed: the OAuth pages read the same cookie). */
export const SESSION_COOKIE = 'sess_session';

/** How long a browser session may go unused before it ends. */
export const SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000;

/** How long a browser session lives at most, however often it is used. */
export const SESSION_ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000;

// A session token is `newSecret(32)`: 43 base64url characters. Anything else is never looked up.
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** The session tokens a `Cookie` header carries, keeping only well-formed ones. */
export function readSessionTokens(cookieHeader: string | undefined): string[] {
  return readCookieValues(cookieHeader, SESSION_COOKIE).filter((value) => TOKEN_SHAPE.test(value));
}

/** The `Set-Cookie` value that starts a browser session. */
export function sessionCookie(token: string, expiresAt: Date, now: Date, secure: boolean): string {
  return serializeCookie(SESSION_COOKIE, token, { secure, maxAgeSeconds: (expiresAt.getTime() - now.getTime()) / 1000 });
}

/** The `Set-Cookie` value that makes the browser forget its session. */
export function clearSessionCookie(secure: boolean): string {
  return clearCookie(SESSION_COOKIE, { secure });
}
