/**
 * The OAuth wire errors (RFC 6749 §5.2 and §4.1.2.1, RFC 7591 §3.2.2, RFC 8707 §2, RFC 7009 §2.2.1).
 * Codes keep the specs' spelling. Internal failures never reach the wire as anything but
 * `server_error`; the reason goes to the log.
 *
 * An OAuthError by itself never redirects: only `redirectWithError` in
 * `authorize/verified-redirect.ts` can send one to a client, and it needs a redirect URI that has
 * been checked against the client's registration.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'login_required'
  | 'consent_required'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'unsupported_token_type'
  | 'slow_down'
  | 'server_error'
  | 'temporarily_unavailable';

/** The HTTP status of each code on a JSON endpoint (token, registration, revocation). */
export const OAUTH_ERROR_STATUS: Record<OAuthErrorCode, number> = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  unsupported_response_type: 400,
  invalid_scope: 400,
  invalid_target: 400,
  access_denied: 403,
  login_required: 400,
  consent_required: 400,
  invalid_redirect_uri: 400,
  invalid_client_metadata: 400,
  unsupported_token_type: 400,
  slow_down: 429,
  server_error: 500,
  temporarily_unavailable: 503,
};

/** One OAuth error: a spec code and a description safe to show (never a secret, never internals). */
export class OAuthError extends Error {
  override readonly name = 'OAuthError';
  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
    /** Extra facts for the log line (never sent). */
    readonly logDetails: Record<string, unknown> = {},
  ) {
    super(`${code}: ${description}`);
  }

  get status(): number {
    return OAUTH_ERROR_STATUS[this.code];
  }

  /** The JSON body of RFC 6749 §5.2. */
  toJson(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.code, error_description: this.description };
  }
}

export function isOAuthError(value: unknown): value is OAuthError {
  return value instanceof OAuthError;
}
