import { sha256CanonicalJson } from '@sess/core';
import type { DbOrTx } from '@sess/db';
import { verifyAuthenticationResponse } from '@simplewebauthn/server';
import { isoBase64URL, parseAuthenticatorData } from '@simplewebauthn/server/helpers';
import { countPasskeyCeremony } from './ceremony-limit.ts';
import { type CeremonyPurpose, takeChallenge } from './challenges.ts';
import { findCredential, recordCredentialUse } from './credentials.ts';
import { type PasskeyRefusal, refuse } from './refusals.ts';
import type { RelyingParty } from './relying-party.ts';
import { challengeOf, parseAssertion } from './response-json.ts';

export interface AssertionExpectation {
  purpose: Exclude<CeremonyPurpose, 'register'>;
  /** Whose passkey it must be (the answer ceremony); absent for a password-less sign-in. */
  userId?: string;
  /** What the challenge must have been bound to (the answer ceremony). */
  boundTo?: string;
}

export interface VerifiedAssertion {
  ok: true;
  credentialId: string;
  userId: string;
  /** SHA-256 (hex) of the assertion's canonical JSON: id, authenticatorData, clientDataJSON, signature. */
  assertionSha256: string;
}

/**
 * Verifies a posted assertion against its challenge and a stored credential. Order matters:
 * the challenge is taken first (single use: a refused assertion spends it too), then its
 * binding is checked, then the credential, user verification, the counter and the signature;
 * last, the counter is moved in one conditional UPDATE (a racing replay loses there).
 */
export async function verifyAssertion(
  db: DbOrTx,
  rp: RelyingParty,
  input: { response: unknown; expect: AssertionExpectation; now: Date; accountLimit?: number },
): Promise<VerifiedAssertion | PasskeyRefusal> {
  const { expect, now } = input;
  const response = parseAssertion(input.response);
  const challenge = response ? challengeOf(response.response.clientDataJSON) : null;
  if (!response || !challenge || response.id !== response.rawId) return refuse('malformed');

  const taken = await takeChallenge(db, challenge, now);
  if (!taken.ok) return refuse('challenge_expired_or_used');
  const binding = taken.binding;
  if (
    binding.purpose !== expect.purpose ||
    binding.userId !== (expect.userId ?? null) ||
    binding.boundTo !== (expect.boundTo ?? null)
  ) {
    return refuse('wrong_binding');
  }

  const credential = await findCredential(db, response.id);
  if (!credential) return refuse('unknown_credential');
  if (expect.userId !== undefined && credential.userId !== expect.userId) return refuse('other_user_credential');
  // A discoverable credential names its account (the user handle is the account id's bytes): it must be the credential's.
  const handle = response.response.userHandle;
  if (handle && handle !== isoBase64URL.fromUTF8String(credential.userId)) return refuse('other_user_credential');
  const counted = await countPasskeyCeremony(db, credential.userId, now, input.accountLimit);
  if (!counted.ok) return refuse('rate_limited', counted.retryAfterSeconds);

  let flags: { up: boolean; uv: boolean };
  let counter: number;
  try {
    ({ flags, counter } = parseAuthenticatorData(isoBase64URL.toBuffer(response.response.authenticatorData)));
  } catch {
    return refuse('malformed');
  }
  if (!flags.uv) return refuse('no_user_verification');
  if ((counter > 0 || credential.counter > 0) && counter <= credential.counter) return refuse('replayed');

  let newCounter: number;
  try {
    const verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: credential.id,
        publicKey: isoBase64URL.toBuffer(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports as never,
      },
      requireUserVerification: true,
    });
    if (!verified.verified) return refuse('bad_signature');
    newCounter = verified.authenticationInfo.newCounter;
  } catch {
    // Wrong origin, RP ID or type, or a signature that does not verify: the library throws.
    return refuse('bad_signature');
  }
  if (!(await recordCredentialUse(db, credential.id, newCounter, now))) return refuse('replayed');
  const { authenticatorData, clientDataJSON, signature } = response.response;
  return {
    ok: true,
    credentialId: credential.id,
    userId: credential.userId,
    assertionSha256: sha256CanonicalJson({ id: response.id, authenticatorData, clientDataJSON, signature }),
  };
}
