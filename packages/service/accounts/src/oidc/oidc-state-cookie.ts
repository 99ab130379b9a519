import { hmacTag, safeEqual } from '@sess/core';

/** The cookie that carries one upstream sign-in's state across the round trip to the provider. */
export const OIDC_STATE_COOKIE = 'sess_oidc';
/** Scoped to the callback, so it is not sent anywhere else. */
export const OIDC_STATE_COOKIE_PATH = '/signin/oidc';
/** How long a person has to finish signing in at the provider. */
export const OIDC_STATE_TTL_MS = 10 * 60 * 1000;

/** What one upstream sign-in must remember: checked on the way back, then discarded. */
export interface OidcState {
  state: string;
  nonce: string;
  codeVerifier: string;
  returnTo: string;
  /** Milliseconds since the epoch after which the cookie is refused. */
  expiresAt: number;
}

function sign(secret: string, payload: string): string {
  return hmacTag(secret, 'sess.oidc-state.v1', [payload]);
}

/**
 * The cookie value: base64url JSON + `.` + HMAC-SHA256 under the server secret. Signed, not
 * encrypted: it only ever travels between this browser and us, and what it holds (state, nonce,
 * PKCE verifier) protects that same browser's sign-in.
 */
export function sealOidcState(secret: string, value: OidcState): string {
  const payload = Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
  return `${payload}.${sign(secret, payload)}`;
}

/** The state in `cookie` when its signature holds and it has not expired, else null. */
export function openOidcState(secret: string, cookie: string | undefined, now: Date): OidcState | null {
  if (!cookie || cookie.length > 8192) return null;
  const dot = cookie.lastIndexOf('.');
  if (dot < 1) return null;
  const payload = cookie.slice(0, dot);
  if (!safeEqual(sign(secret, payload), cookie.slice(dot + 1))) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const v = value as Partial<OidcState> | null;
  if (
    !v ||
    typeof v.state !== 'string' ||
    typeof v.nonce !== 'string' ||
    typeof v.codeVerifier !== 'string' ||
    typeof v.returnTo !== 'string' ||
    typeof v.expiresAt !== 'number'
  ) {
    return null;
  }
  if (v.expiresAt <= now.getTime()) return null;
  return v as OidcState;
}
