import { hashSecret } from '@sess/core';
import { type DbOrTx, signInAttempts } from '@sess/db';
import { eq, lte, sql } from 'drizzle-orm';

/** Password attempts allowed per account per window, across all replicas. */
export const ACCOUNT_ATTEMPT_LIMIT = 10;
/** The per-account window. */
export const ACCOUNT_ATTEMPT_WINDOW_MS = 15 * 60 * 1000;

/** The key attempts are counted under: SHA-256 of the normalised e-mail (no address is stored). */
export function attemptKey(email: string): string {
  return hashSecret(`sign-in:${email}`);
}

/**
 * Counts one password attempt for `email` and says whether it may go ahead. The count is one
 * atomic upsert (fixed window), so parallel attempts on several replicas cannot slip past the
 * limit. Unknown addresses are counted like known ones, so the limit reveals nothing.
 */
export async function countSignInAttempt(
  db: DbOrTx,
  email: string,
  now: Date,
  limit = ACCOUNT_ATTEMPT_LIMIT,
  windowMs = ACCOUNT_ATTEMPT_WINDOW_MS,
): Promise<{ ok: true } | { ok: false; retryAfterSeconds: number }> {
  return countAttemptUnder(db, attemptKey(email), now, limit, windowMs);
}

/**
 * Counts one attempt under `keyHash` (a SHA-256 naming what is limited: an e-mail's password
 * attempts, an account's passkey ceremonies) in the same table and window as password attempts.
 */
export async function countAttemptUnder(
  db: DbOrTx,
  keyHash: string,
  now: Date,
  limit: number,
  windowMs: number,
): Promise<{ ok: true } | { ok: false; retryAfterSeconds: number }> {
  // Raw SQL parameters go as ISO strings: postgres.js does not serialise a Date there.
  const windowOpen = new Date(now.getTime() - windowMs).toISOString();
  const [row] = await db
    .insert(signInAttempts)
    .values({ emailHash: keyHash, windowStart: now, attempts: 1 })
    .onConflictDoUpdate({
      target: signInAttempts.emailHash,
      set: {
        attempts: sql`case when ${signInAttempts.windowStart} <= ${windowOpen}::timestamptz then 1 else ${signInAttempts.attempts} + 1 end`,
        windowStart: sql`case when ${signInAttempts.windowStart} <= ${windowOpen}::timestamptz then ${now.toISOString()}::timestamptz else ${signInAttempts.windowStart} end`,
      },
    })
    .returning({ attempts: signInAttempts.attempts, windowStart: signInAttempts.windowStart });
  if (!row || row.attempts <= limit) return { ok: true };
  const retryAfterMs = row.windowStart.getTime() + windowMs - now.getTime();
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
}

/** Forgets the attempts of `email` (after a successful sign-in). */
export async function resetSignInAttempts(db: DbOrTx, email: string): Promise<void> {
  await db.delete(signInAttempts).where(eq(signInAttempts.emailHash, attemptKey(email)));
}

/** Deletes counters whose window is long over; returns how many went. */
export async function deleteStaleSignInAttempts(db: DbOrTx, now: Date, windowMs = ACCOUNT_ATTEMPT_WINDOW_MS): Promise<number> {
  const gone = await db
    .delete(signInAttempts)
    .where(lte(signInAttempts.windowStart, new Date(now.getTime() - windowMs)))
    .returning({ key: signInAttempts.emailHash });
  return gone.length;
}
