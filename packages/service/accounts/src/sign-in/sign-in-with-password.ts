import { SessError } from '@sess/core';
import { type DbOrTx, users } from '@sess/db';
import { eq, sql } from 'drizzle-orm';
import { hashPassword, needsRehash, verifyAgainstDummy, verifyPassword } from '../passwords/password-hash.ts';
import { normalizeEmail } from '../users/normalize-email.ts';
import { countSignInAttempt, resetSignInAttempts } from './count-sign-in-attempt.ts';

/** The one message for every failed password sign-in: it never says which half was wrong. */
export const WRONG_CREDENTIALS = 'Email or password is wrong.';

export interface SignInLimits {
  /** Attempts per account per window (default 10 per 15 minutes). */
  accountLimit?: number;
  accountWindowMs?: number;
}

/**
 * Checks an e-mail and password. Throws `RATE_LIMITED` (with `retryAfterSeconds`) when the
 * account had too many attempts, and `UNAUTHORIZED` with one generic message for a wrong
 * password, an unknown e-mail or an account without a password — all three spending one
 * scrypt verification, so timing does not tell them apart either.
 */
export async function signInWithPassword(
  db: DbOrTx,
  input: { email: unknown; password: unknown; now: Date; limits?: SignInLimits },
): Promise<{ userId: string; email: string }> {
  const password = typeof input.password === 'string' ? input.password : '';
  const email = normalizeEmail(input.email);
  if (!email || password.length === 0 || password.length > 1024) {
    await verifyAgainstDummy(password.slice(0, 1024));
    throw new SessError('UNAUTHORIZED', WRONG_CREDENTIALS);
  }
  const counted = await countSignInAttempt(db, email, input.now, input.limits?.accountLimit, input.limits?.accountWindowMs);
  if (!counted.ok) {
    throw new SessError('RATE_LIMITED', 'Too many sign-in attempts for this account.', {
      retryAfterSeconds: counted.retryAfterSeconds,
    });
  }
  const [user] = await db
    .select({ id: users.id, email: users.email, passwordHash: users.passwordHash })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`)
    .limit(1);
  const stored = user?.passwordHash;
  const matches = stored ? await verifyPassword(password, stored) : await verifyAgainstDummy(password);
  if (!user || !stored || !matches) throw new SessError('UNAUTHORIZED', WRONG_CREDENTIALS);
  await resetSignInAttempts(db, email);
  if (needsRehash(stored)) {
    await db
      .update(users)
      .set({ passwordHash: await hashPassword(password) })
      .where(eq(users.id, user.id));
  }
  return { userId: user.id, email: user.email };
}
