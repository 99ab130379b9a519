/**
 * Why a passkey ceremony was refused: one typed reason each, with the sentence a person reads.
 * Nothing here names a credential, a challenge or an assertion.
 */
export const PASSKEY_REFUSALS = {
  malformed: 'Your browser sent a passkey response Sess could not read. Try again.',
  challenge_expired_or_used: 'This passkey request has expired or was already used. Start again.',
  wrong_binding: 'This passkey request was made for something else. Start again.',
  unknown_credential:
    'Sess does not know this passkey. Use a passkey you added on your account page, or sign in with your password.',
  other_user_credential: 'This passkey belongs to another account.',
  no_user_verification:
    'Your device did not verify you (with a fingerprint, face, PIN or screen lock). Sess needs that for every passkey; set one up on the device and try again.',
  bad_signature: 'The passkey’s signature did not check out. Try again.',
  replayed: 'This passkey response was already used (or the passkey’s counter went backwards). Start again.',
  credential_exists: 'This passkey is already on an account.',
  rate_limited: 'Too many passkey attempts. Wait a few minutes and try again.',
} as const;

export type PasskeyRefusalReason = keyof typeof PASSKEY_REFUSALS;

export interface PasskeyRefusal {
  ok: false;
  reason: PasskeyRefusalReason;
  /** For `rate_limited`: seconds until the window resets. */
  retryAfterSeconds?: number;
}

export function refuse(reason: PasskeyRefusalReason, retryAfterSeconds?: number): PasskeyRefusal {
  return retryAfterSeconds === undefined ? { ok: false, reason } : { ok: false, reason, retryAfterSeconds };
}
