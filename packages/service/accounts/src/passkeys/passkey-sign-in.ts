import type { DbOrTx } from '@sess/db';
import { generateAuthenticationOptions, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { issueChallenge } from './challenges.ts';
import type { PasskeyRefusal } from './refusals.ts';
import { CEREMONY_TIMEOUT_MS } from './registration.ts';
import type { RelyingParty } from './relying-party.ts';
import { verifyAssertion } from './verify-assertion.ts';

/**
 * The options for a password-less sign-in: no `allowCredentials` (the browser offers the
 * passkeys it holds for this site: discoverable credentials, no e-mail typed), user
 * verification required. The challenge belongs to nobody yet.
 */
export async function startPasskeySignIn(
  db: DbOrTx,
  rp: RelyingParty,
  now: Date,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const challenge = await issueChallenge(db, { purpose: 'sign_in', userId: null, boundTo: null }, now);
  return generateAuthenticationOptions({
    rpID: rp.id,
    challenge: isoBase64URL.toBuffer(challenge),
    timeout: CEREMONY_TIMEOUT_MS,
    userVerification: 'required',
  });
}

/** Verifies a sign-in assertion; on success, the account the passkey belongs to. */
export async function finishPasskeySignIn(
  db: DbOrTx,
  rp: RelyingParty,
  input: { response: unknown; now: Date; accountLimit?: number },
): Promise<{ ok: true; userId: string } | PasskeyRefusal> {
  const verified = await verifyAssertion(db, rp, {
    response: input.response,
    expect: { purpose: 'sign_in' },
    now: input.now,
    accountLimit: input.accountLimit,
  });
  return verified.ok ? { ok: true, userId: verified.userId } : verified;
}
