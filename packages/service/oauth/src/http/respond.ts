import { accountPageLanguage } from '@sess/accounts';
import { classifyDatabaseError, type DbOrTx, UNAVAILABLE_RETRY_AFTER_SECONDS, UNSTORABLE_INPUT_MESSAGE } from '@sess/db';
import { htmlPage, type PageLanguage, pageLanguage, seeOther } from '@sess/web';
import type { Context } from 'hono';
import { OAuthError } from '../errors/oauth-error.ts';

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
  if (error.code === 'temporarily_unavailable') extra['Retry-After'] = String(UNAVAILABLE_RETRY_AFTER_SECONDS);
  return jsonNoStore(error.toJson(), error.status, extra);
}

/**
 * 503 `temporarily_unavailable` with `Retry-After`: the token, registration and revocation
 * endpoints cannot serve the request now (the database is out of reach, or Sess is busy). The
 * client keeps its tokens and tries again (see `internalErrorJson`).
 */
export function temporarilyUnavailableJson(description = 'Sess is briefly unavailable. Try again in a moment.'): Response {
  return oauthErrorJson(new OAuthError('temporarily_unavailable', description));
}

/**
 * The JSON answer of the token, registration and revocation endpoints to an internal failure.
 * A database out of reach is `temporarily_unavailable` (503, `Retry-After`) rather than
 * `server_error`: the MCP SDK answers a `server_error` from a refresh by starting a whole new
 * authorization (the person is sent to sign in again), but passes `temporarily_unavailable` up
 * as an error and keeps its tokens for the next try; oauth4webapi reports either code as it came.
 * RFC 6749 defines `temporarily_unavailable` for the authorization endpoint (§4.1.2.1); §5.2
 * lets the token endpoint's error registry be extended, and OAuth 2.1 clients read the code.
 * Characters the database cannot store are `invalid_request`. Anything else is `server_error`.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2
 */
export function internalErrorJson(error: unknown): Response {
  switch (classifyDatabaseError(error).kind) {
    case 'unavailable':
      return temporarilyUnavailableJson();
    case 'bad_input':
      return oauthErrorJson(new OAuthError('invalid_request', UNSTORABLE_INPUT_MESSAGE));
    case 'other':
      return oauthErrorJson(new OAuthError('server_error', 'Something failed on our side. Try again in a moment.'));
  }
}

/**
 * One server-rendered page with the strict page headers. `formAction` lists where the page's
 * forms may go, including where a post's redirect lands (Chrome checks form-action there too).
 */
export function sendPage(
  status: number,
  render: (nonce: string) => string,
  options: { formAction?: string[]; language?: PageLanguage; headers?: Record<string, string> } = {},
): Response {
  return htmlPage(status, render, options);
}

/**
 * The language of a page answering `c`. A page drawn for a posted consent form passes the
 * authorization request's query, so the picker's links show that same request again (a `GET`
 * of the authorization endpoint with every parameter) rather than the bare form action.
 * `saved` is the signed-in person's saved choice, once accounts keep one.
 */
export function oauthPageLanguage(c: Context, options: { requestPath?: string } = {}): PageLanguage {
  return pageLanguage(pageRequest(c, options.requestPath));
}

/**
 * The language of a page for a signed-in person: their saved choice, and a pick in the picker
 * saved to their account (as the account pages do).
 */
export function signedInPageLanguage(
  c: Context,
  db: DbOrTx,
  person: { userId: string; locale: string | null },
  options: { requestPath?: string } = {},
): Promise<PageLanguage> {
  return accountPageLanguage(db, pageRequest(c, options.requestPath), person);
}

/** The request a page is for: this one, or (after a post) the page the form was on, for the picker's links. */
function pageRequest(c: Context, requestPath: string | undefined): Request {
  return requestPath ? new Request(new URL(requestPath, c.req.url), { headers: c.req.raw.headers }) : c.req.raw;
}

export { seeOther };
