/**
 * The authorization server's fixed choices, in one place so the docs, the metadata and the
 * code cannot drift apart. Lifetimes are in seconds.
 */

/** The one scope a normal grant gives: use Sess's tools (create, read, publish, complete, ask). */
export const SCOPE_INTERACT = 'sess:interact';

/**
 * What `scopes_supported` publishes (AS and resource metadata alike). Kept to exactly what a
 * normal grant gives, because Claude asks for the whole list when a challenge names no scope.
 */
export const SCOPES_SUPPORTED: readonly string[] = [SCOPE_INTERACT];

/** Access tokens are short-lived JWTs; revocation works through the grant generation, not expiry. */
export const ACCESS_TOKEN_TTL_S = 3600;

/** Authorization codes: single use, and redeemed by the client right after the redirect. */
export const CODE_TTL_S = 60;

/** A refresh token unused for this long is dead; every rotation starts a new 30 days. */
export const REFRESH_TOKEN_TTL_S = 30 * 24 * 3600;

/**
 * After a rotation, presenting the just-rotated refresh token again within this window returns
 * the same new pair (a client whose response was lost in transit is not signed out). Later, or
 * once the new token has itself been used, it is reuse: the whole family is revoked.
 */
export const REFRESH_GRACE_S = 30;

/**
 * A failed Client ID Metadata Document fetch is remembered this long per URL: authorization
 * requests for it get the same error page without another fetch (a pinned vendor copy is still
 * used). Short, so a vendor's outage heals quickly.
 */
export const CIMD_FAILURE_CACHE_S = 60;

/** At most this many failed URLs are remembered (oldest forgotten first), so a flood of made-up URLs cannot grow memory. */
export const CIMD_FAILURE_CACHE_MAX_URLS = 10_000;

/**
 * Fetches of metadata documents not in the cache, per client address per window (fixed
 * window, per process). Cached documents, requests that join a fetch already running for the
 * same URL, and remembered failures never count. Over it, the authorization endpoint answers 429.
 */
export const CIMD_FETCHES_PER_ADDRESS = 10;

/** The window of `CIMD_FETCHES_PER_ADDRESS`. */
export const CIMD_FETCH_WINDOW_S = 60;

/** The MCP endpoint's path: the one protected resource is `PUBLIC_URL` + this. */
export const MCP_PATH = '/mcp';

/** The NOTIFY channel on which a changed grant's id is published (revoke, re-issue, delete). */
export const GRANT_CHANNEL = 'oauth_grants';

/** Every URL the server publishes, derived from the public origin (the issuer; no path). */
export interface OAuthUrls {
  issuer: string;
  resource: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  registrationEndpoint: string;
  revocationEndpoint: string;
  jwksUri: string;
  protectedResourceMetadata: string;
  connectedApps: string;
}

/** Builds the URLs from `PUBLIC_URL` (already without a trailing slash). */
export function buildOAuthUrls(publicUrl: string): OAuthUrls {
  const issuer = publicUrl.replace(/\/+$/, '');
  return {
    issuer,
    resource: `${issuer}${MCP_PATH}`,
    authorizationEndpoint: `${issuer}/oauth/authorize`,
    tokenEndpoint: `${issuer}/oauth/token`,
    registrationEndpoint: `${issuer}/oauth/register`,
    revocationEndpoint: `${issuer}/oauth/revoke`,
    jwksUri: `${issuer}/oauth/jwks.json`,
    protectedResourceMetadata: `${issuer}/.well-known/oauth-protected-resource${MCP_PATH}`,
    connectedApps: `${issuer}/account/apps`,
  };
}
