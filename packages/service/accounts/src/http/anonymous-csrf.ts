import { checkCsrfToken, csrfToken, newSecret } from '@sess/core';
import { readCookieValues, serializeCookie } from '@sess/web';
import type { Context } from 'hono';

/**
 * CSRF for the forms a person posts before signing in (sign-in, sign-up, "Sign in with …").
 * Without it another site could sign a victim in to the attacker's account (login CSRF). The
 * browser gets a random `sess_csrf` cookie; the form carries an HMAC of it, which only a page
 * served by us can know.
 */
export const ANON_CSRF_COOKIE = 'sess_csrf';

const SHAPE = /^[A-Za-z0-9_-]{43}$/;
const MAX_AGE_SECONDS = 24 * 60 * 60;

/** This browser's pre-sign-in id from its cookie, if it sent a well-formed one. */
export function readAnonymousId(c: Context): string | undefined {
  return readCookieValues(c.req.header('cookie'), ANON_CSRF_COOKIE).find((value) => SHAPE.test(value));
}

/**
 * The CSRF token for `purpose` on a page about to be shown, and the `Set-Cookie` that (re)sets
 * the browser's pre-sign-in id (refreshed on every page, so an open tab keeps working a day).
 */
export function issueAnonymousCsrf(
  c: Context,
  secret: string,
  secure: boolean,
  purposes: string[],
): { tokens: string[]; cookie: string } {
  const id = readAnonymousId(c) ?? newSecret(32);
  return {
    tokens: purposes.map((purpose) => csrfToken(secret, `anon:${id}`, purpose)),
    cookie: serializeCookie(ANON_CSRF_COOKIE, id, { secure, maxAgeSeconds: MAX_AGE_SECONDS }),
  };
}

/** True when the posted `token` belongs to this browser's pre-sign-in id and `purpose`. */
export function checkAnonymousCsrf(c: Context, secret: string, purpose: string, token: string | undefined): boolean {
  const id = readAnonymousId(c);
  return id !== undefined && checkCsrfToken(secret, `anon:${id}`, purpose, token);
}
