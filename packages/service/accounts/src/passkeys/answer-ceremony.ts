import type { DbOrTx } from '@sess/db';
import { generateAuthenticationOptions, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { issueChallenge } from './challenges.ts';
import { credentialDescriptors } from './credentials.ts';
import type { PasskeyRefusal } from './refusals.ts';
import { CEREMONY_TIMEOUT_MS } from './registration.ts';
import type { RelyingParty } from './relying-party.ts';
import { verifyAssertion } from './verify-assertion.ts';

/**
 * The answer ceremony, for a form that needs the person's passkey: a challenge for `userId`
 * bound to `boundTo` (by convention `"<sessionId> <revision> <answerSha256>"`), so the
 * signature covers this answer and nothing else. Only this person's passkeys are offered.
 * The answer page starts it on a `passkey` form's post (answer-pages' passkey-step.ts, wired by
 * apps/server's http/page-passkeys.ts).
 */
export async function startAnswerCeremony(
  db: DbOrTx,
  rp: RelyingParty,
  input: { userId: string; boundTo: string; now: Date },
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const challenge = await issueChallenge(db, { purpose: 'answer', userId: input.userId, boundTo: input.boundTo }, input.now);
  const mine = await credentialDescriptors(db, input.userId);
  return generateAuthenticationOptions({
    rpID: rp.id,
    challenge: isoBase64URL.toBuffer(challenge),
    timeout: CEREMONY_TIMEOUT_MS,
    userVerification: 'required',
    allowCredentials: mine.map(({ id, transports }) => ({ id, transports })),
  });
}

/** A verified answer assertion: which passkey, and the digest a receipt can carry. */
export interface AnswerAssertion {
  ok: true;
  credentialId: string;
  assertionSha256: string;
}

/**
 * Verifies an answer assertion of `userId` for `boundTo`. A typed refusal otherwise:
 * `unknown_credential`, `other_user_credential`, `no_user_verification`, `bad_signature`,
 * `replayed` (counter), `challenge_expired_or_used`, `wrong_binding` (another answer, revision,
 * session or person), `malformed`, `rate_limited`.
 */
export async function verifyAnswerAssertion(
  db: DbOrTx,
  rp: RelyingParty,
  input: { userId: string; boundTo: string; response: unknown; now: Date; accountLimit?: number },
): Promise<AnswerAssertion | PasskeyRefusal> {
  const verified = await verifyAssertion(db, rp, {
    response: input.response,
    expect: { purpose: 'answer', userId: input.userId, boundTo: input.boundTo },
    now: input.now,
    accountLimit: input.accountLimit,
  });
  if (!verified.ok) return verified;
  return { ok: true, credentialId: verified.credentialId, assertionSha256: verified.assertionSha256 };
}
