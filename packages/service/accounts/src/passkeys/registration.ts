import type { DbOrTx } from '@sess/db';
import { webauthnCredentials } from '@sess/db';
import {
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { decodeAttestationObject, isoBase64URL, parseAuthenticatorData } from '@simplewebauthn/server/helpers';
import { countPasskeyCeremony } from './ceremony-limit.ts';
import { issueChallenge, takeChallenge } from './challenges.ts';
import { checkPasskeyName, credentialDescriptors, type PasskeySummary } from './credentials.ts';
import { type PasskeyRefusal, refuse } from './refusals.ts';
import type { RelyingParty } from './relying-party.ts';
import { challengeOf, parseAttestation } from './response-json.ts';

/** How long the browser offers the ceremony (the challenge itself lives 5 minutes). */
export const CEREMONY_TIMEOUT_MS = 120_000;

/**
 * The options for `navigator.credentials.create` to add a passkey to `userId`: a discoverable
 * credential (so it can sign in without an e-mail), user verification required, no attestation
 * (Sess trusts the person's device choice, not a vendor list), the person's existing passkeys
 * excluded. The WebAuthn user handle is the account id's bytes, never the e-mail.
 */
export async function startPasskeyRegistration(
  db: DbOrTx,
  rp: RelyingParty,
  input: { userId: string; email: string; now: Date },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const challenge = await issueChallenge(db, { purpose: 'register', userId: input.userId, boundTo: null }, input.now);
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: input.email,
    userDisplayName: input.email,
    userID: new TextEncoder().encode(input.userId),
    challenge: isoBase64URL.toBuffer(challenge),
    timeout: CEREMONY_TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: await credentialDescriptors(db, input.userId),
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
  });
}

/**
 * Verifies a posted attestation for `userId` and stores the passkey under `name`. The name is
 * checked before the challenge is taken (bad input changes nothing).
 * @throws SessError `INVALID_ARGUMENTS` for the name.
 */
export async function finishPasskeyRegistration(
  db: DbOrTx,
  rp: RelyingParty,
  input: { userId: string; name: unknown; response: unknown; now: Date; accountLimit?: number },
): Promise<({ ok: true } & PasskeySummary) | PasskeyRefusal> {
  const name = checkPasskeyName(input.name);
  const response = parseAttestation(input.response);
  const challenge = response ? challengeOf(response.response.clientDataJSON) : null;
  if (!response || !challenge || response.id !== response.rawId) return refuse('malformed');
  const taken = await takeChallenge(db, challenge, input.now);
  if (!taken.ok) return refuse('challenge_expired_or_used');
  if (taken.binding.purpose !== 'register' || taken.binding.userId !== input.userId) return refuse('wrong_binding');
  const counted = await countPasskeyCeremony(db, input.userId, input.now, input.accountLimit);
  if (!counted.ok) return refuse('rate_limited', counted.retryAfterSeconds);

  try {
    const authData = decodeAttestationObject(isoBase64URL.toBuffer(response.response.attestationObject)).get('authData');
    if (!parseAuthenticatorData(authData).flags.uv) return refuse('no_user_verification');
  } catch {
    return refuse('malformed');
  }
  let info: NonNullable<Awaited<ReturnType<typeof verifyRegistrationResponse>>['registrationInfo']>;
  try {
    const verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
    if (!verified.verified) return refuse('bad_signature');
    info = verified.registrationInfo;
  } catch {
    return refuse('bad_signature');
  }
  const row = {
    id: info.credential.id,
    userId: input.userId,
    publicKey: isoBase64URL.fromBuffer(info.credential.publicKey),
    counter: info.credential.counter,
    transports: response.response.transports ?? [],
    name,
    deviceType: info.credentialDeviceType,
    backedUp: info.credentialBackedUp,
    createdAt: input.now,
  };
  const inserted = await db
    .insert(webauthnCredentials)
    .values(row)
    .onConflictDoNothing({ target: webauthnCredentials.id })
    .returning({ id: webauthnCredentials.id });
  if (inserted.length === 0) return refuse('credential_exists');
  return {
    ok: true,
    id: row.id,
    name,
    createdAt: input.now,
    lastUsedAt: null,
    deviceType: row.deviceType,
    backedUp: row.backedUp,
  };
}
