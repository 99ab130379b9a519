import { createHmac } from 'node:crypto';
import { safeEqual } from '@sess/core';

/**
 * The CSRF token of a form posted by a signed-in page: HMAC-SHA256 under the server secret of
 * the browser session id and the form's purpose (e.g. `signout`, `api-keys:create`,
 * `oauth:consent`). A token therefore works only for that session and that form; it needs no
 * storage, and a sign-in (which rotates the session) retires every old token.
 */
export function csrfToken(secret: string, sessionId: string, purpose: string): string {
  return createHmac('sha256', secret).update(`sess.csrf.v1\u0000${sessionId}\u0000${purpose}`, 'utf8').digest('base64url');
}

/** True when `token` is the CSRF token of `sessionId` and `purpose` (constant-time compare). */
export function checkCsrfToken(secret: string, sessionId: string, purpose: string, token: string | null | undefined): boolean {
  if (typeof token !== 'string' || token.length === 0 || token.length > 128) return false;
  return safeEqual(csrfToken(secret, sessionId, purpose), token);
}
