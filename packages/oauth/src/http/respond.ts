import { htmlPage, seeOther } from '@sess/web';
import type { OAuthError } from '../errors/oauth-error.ts';

/** Headers of every token, registration and revocation response (RFC 6749 §5.1). */
export const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' } as const;

/** A JSON response that is never cached. */
export function jsonNoStore(body: unknown, status = 200, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...NO_STORE, ...extra },
  });
}

/**
 * An OAuth error as RFC 6749 §5.2 JSON. `invalid_client` is 401; when the client tried HTTP
 * Basic it also gets a `WWW-Authenticate: Basic` challenge, as §5.2 requires.
 */
export function oauthErrorJson(error: OAuthError, options: { basicAttempted?: boolean } = {}): Response {
  const extra: Record<string, string> = {};
  if (error.code === 'invalid_client' && options.basicAttempted)
    extra['WWW-Authenticate'] = 'Basic realm="sess", charset="UTF-8"';
  if (error.code === 'slow_down') extra['Retry-After'] = '60';
  return jsonNoStore(error.toJson(), error.status, extra);
}

/**
 * One server-rendered page with the strict page headers. `formAction` lists where the page's
 * forms may go, including where a post's redirect lands (Chrome checks form-action there too).
 */
export function sendPage(status: number, render: (nonce: string) => string, options: { formAction?: string[] } = {}): Response {
  return htmlPage(status, render, options);
}

export { seeOther };
