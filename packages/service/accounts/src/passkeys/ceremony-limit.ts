import { hashSecret } from '@sess/core';
import type { DbOrTx } from '@sess/db';
import { ACCOUNT_ATTEMPT_WINDOW_MS, countAttemptUnder } from '../sign-in/count-sign-in-attempt.ts';

/** Passkey ceremonies answered per account per window, across replicas. */
export const PASSKEY_ACCOUNT_LIMIT = 20;

/**
 * Counts one finished ceremony (a posted assertion or attestation) of `userId` in the database,
 * beside password attempts (same table, its own key), so replicas share the limit.
 */
export function countPasskeyCeremony(
  db: DbOrTx,
  userId: string,
  now: Date,
  limit = PASSKEY_ACCOUNT_LIMIT,
): Promise<{ ok: true } | { ok: false; retryAfterSeconds: number }> {
  return countAttemptUnder(db, hashSecret(`passkey:${userId}`), now, limit, ACCOUNT_ATTEMPT_WINDOW_MS);
}
