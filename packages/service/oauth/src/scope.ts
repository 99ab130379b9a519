import type { Messages } from '@sess/web';
import { OAuthError } from './errors/oauth-error.ts';
import { SCOPE_INTERACT, SCOPES_SUPPORTED } from './settings.ts';

// RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ), tokens separated by spaces.
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;
const MAX_SCOPE_LENGTH = 1000;
const MAX_SCOPE_TOKENS = 50;

/**
 * Splits a `scope` parameter into its tokens. Malformed syntax (control characters, quotes,
 * backslashes, absurd length) is `invalid_scope`; unknown but well-formed tokens are kept here
 * and dropped by `grantableScopes`.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-3.3
 */
export function parseScopeParameter(value: string | null | undefined): string[] {
  if (value === null || value === undefined) return [];
  if (value.length > MAX_SCOPE_LENGTH)
    throw new OAuthError('invalid_scope', `scope is longer than ${MAX_SCOPE_LENGTH} characters.`);
  const tokens = value.split(' ').filter((token) => token.length > 0);
  if (tokens.length > MAX_SCOPE_TOKENS) throw new OAuthError('invalid_scope', `scope has more than ${MAX_SCOPE_TOKENS} values.`);
  for (const token of tokens) {
    if (!SCOPE_TOKEN.test(token)) throw new OAuthError('invalid_scope', 'scope contains characters RFC 6749 does not allow.');
  }
  return tokens;
}

/**
 * The scopes a grant gets for a request: the supported subset of what was asked, or the
 * default set when nothing supported was asked (no scope, or only extras such as `claudeai`,
 * `openid profile`, `offline_access`). An unknown extra is never `invalid_scope`: real clients
 * send them, and failing would lock them out. The token response always states the result.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-3.3 (the AS may ignore requested scopes)
 */
export function grantableScopes(requested: readonly string[]): string[] {
  const supported = SCOPES_SUPPORTED.filter((scope) => requested.includes(scope));
  return supported.length > 0 ? supported : [SCOPE_INTERACT];
}

/** The space-separated form of a scope list (the wire and the database). */
export function formatScope(scopes: readonly string[]): string {
  return [...new Set(scopes)].join(' ');
}

/** What each scope lets the client do, in words for the consent and connected-apps pages (in the page's language). */
export function describeScope(scope: string, messages: Messages): string {
  if (scope === SCOPE_INTERACT) return messages.t('oauth.scope.interact');
  return scope;
}
