import { hashSecret, newSecret } from '@sess/core';
import { type DbOrTx, webauthnChallenges } from '@sess/db';
import { eq, lte } from 'drizzle-orm';

/** How long a ceremony may take from its options to its answer. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;

export type CeremonyPurpose = 'register' | 'sign_in' | 'answer';

/** What a challenge was issued for; a taken challenge must match all of it. */
export interface ChallengeBinding {
  purpose: CeremonyPurpose;
  /** Whose ceremony it is; null for a password-less sign-in (nobody is known yet). */
  userId: string | null;
  /** The answer ceremony's binding (`"<sessionId> <revision> <answerSha256>"`); null otherwise. */
  boundTo: string | null;
}

/**
 * Issues a random 32-byte challenge (base64url, as WebAuthn's JSON carries it) and stores only
 * its SHA-256, with what it is for and when it expires.
 */
export async function issueChallenge(db: DbOrTx, binding: ChallengeBinding, now: Date): Promise<string> {
  const challenge = newSecret(32);
  await db.insert(webauthnChallenges).values({
    challengeHash: hashSecret(challenge),
    purpose: binding.purpose,
    userId: binding.userId,
    boundTo: binding.boundTo,
    expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
  });
  return challenge;
}

export type TakenChallenge =
  | { ok: true; binding: ChallengeBinding }
  | { ok: false; reason: 'challenge_unknown' | 'challenge_expired' };

/**
 * Takes a challenge: one DELETE … RETURNING, so of two posts of the same challenge only one
 * gets the row (single use, across replicas). An expired one is taken (gone) and refused.
 */
export async function takeChallenge(db: DbOrTx, challenge: string, now: Date): Promise<TakenChallenge> {
  const [row] = await db
    .delete(webauthnChallenges)
    .where(eq(webauthnChallenges.challengeHash, hashSecret(challenge)))
    .returning();
  if (!row) return { ok: false, reason: 'challenge_unknown' };
  if (row.expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'challenge_expired' };
  return { ok: true, binding: { purpose: row.purpose, userId: row.userId, boundTo: row.boundTo } };
}

/** Deletes expired challenges (the accounts sweep); returns how many went. */
export async function deleteExpiredChallenges(db: DbOrTx, now: Date): Promise<number> {
  const gone = await db
    .delete(webauthnChallenges)
    .where(lte(webauthnChallenges.expiresAt, now))
    .returning({ hash: webauthnChallenges.challengeHash });
  return gone.length;
}
