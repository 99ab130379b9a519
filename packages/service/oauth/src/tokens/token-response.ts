/** The successful token response. @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1 */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/** Prefix of refresh tokens, so a leaked one is recognisable (secret scanners, logs). */
export const REFRESH_TOKEN_PREFIX = 'sess_rt_';
