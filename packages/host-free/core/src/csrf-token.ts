import { createHmac } from 'node:crypto';
import { safeEqual } from './secrets.ts';

/**
 * A keyed tag: HMAC-SHA256 under the server secret of `label` and `parts`, NUL-separated,
 * base64url. The label names what the tag is for (`sess.csrf.v1`, `sess.oidc-state.v1`), so a
 * tag made for one use never verifies for another.
 */
export function hmacTag(secret: string, label: string, parts: readonly string[]): string {
  return createHmac('sha256', secret)
    .update([label, ...parts].join('\u0000'), 'utf8')
    .digest('base64url');
}

/**
 * The CSRF token of a form Sess renders: a tag of what the form is bound to (a browser session
 * id, a pre-sign-in browser id `anon:<id>`, or a link and its revision) and the form's purpose
 * (`signout`, `api-keys:create`, `oauth:consent:…`, `answer`). Stateless, so any replica checks
 * it; bound, so a token works only for that binding and that form.
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Cross-Site_Request_Forgery_Prevention_Cheat_Sheet.html
 */
export function csrfToken(secret: string, binding: string, purpose: string): string {
  return hmacTag(secret, 'sess.csrf.v1', [binding, purpose]);
}

/** True when `presented` is the CSRF token of `binding` and `purpose` (constant-time compare). */
export function checkCsrfToken(secret: string, binding: string, purpose: string, presented: unknown): boolean {
  if (typeof presented !== 'string' || presented.length === 0 || presented.length > 128) return false;
  return safeEqual(csrfToken(secret, binding, purpose), presented);
}
