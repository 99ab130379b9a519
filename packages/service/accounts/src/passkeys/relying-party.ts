/**
 * The WebAuthn relying party is the public origin: its host is the RP ID a passkey is bound to,
 * and the origin is the one every ceremony's client data must name. Answer pages on a separate
 * `SESS_LINK_URL` origin cannot use these passkeys (the browser would refuse the RP ID there).
 */
export interface RelyingParty {
  /** `PUBLIC_URL`'s host name (no port): what a passkey is registered for. */
  id: string;
  /** `PUBLIC_URL`'s origin (scheme, host, port): where a ceremony must have happened. */
  origin: string;
  /** Shown by the browser and the authenticator. */
  name: string;
}

export function relyingPartyOf(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin, name: 'Sess' };
}
