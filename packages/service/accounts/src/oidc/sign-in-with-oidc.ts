import { SessError } from '@sess/core';
import { type Db, userIdentities, users } from '@sess/db';
import { and, eq, sql } from 'drizzle-orm';
import type { SignupPolicy } from '../signup/signup-policy.ts';
import { insertUserWithWorkspace } from '../users/create-user.ts';
import { normalizeEmail } from '../users/normalize-email.ts';
import type { OidcIdentity } from './oidc-client.ts';

/**
 * The Sess user behind a verified upstream identity: the one already linked to
 * `(issuer, subject)`; else the account with the same e-mail, when the provider says that
 * address is verified (then linked); else a new account (with its personal workspace) when
 * `policy` is `open`. Otherwise `SIGNUP_NOT_ALLOWED`, or `FORBIDDEN` for an address the
 * provider has not verified (linking on an unverified address would hand over accounts).
 */
export async function signInWithOidcIdentity(
  db: Db,
  input: { identity: OidcIdentity; policy: SignupPolicy; now: Date },
): Promise<{ userId: string; email: string; created: boolean; linked: boolean }> {
  const { identity, now } = input;
  return db.transaction(async (tx) => {
    const [known] = await tx
      .select({ userId: users.id, email: users.email })
      .from(userIdentities)
      .innerJoin(users, eq(users.id, userIdentities.userId))
      .where(and(eq(userIdentities.issuer, identity.issuer), eq(userIdentities.subject, identity.subject)))
      .limit(1);
    if (known) {
      await tx
        .update(userIdentities)
        .set({ lastUsedAt: now })
        .where(and(eq(userIdentities.issuer, identity.issuer), eq(userIdentities.subject, identity.subject)));
      return { ...known, created: false, linked: false };
    }
    const email = normalizeEmail(identity.email);
    if (!email || !identity.emailVerified) {
      throw new SessError('FORBIDDEN', 'The provider did not share a verified email address.');
    }
    const [existing] = await tx
      .select({ userId: users.id, email: users.email })
      .from(users)
      .where(sql`lower(${users.email}) = ${email}`)
      .limit(1);
    let user: { userId: string; email: string };
    let created = false;
    if (existing) {
      user = existing;
    } else {
      if (input.policy !== 'open') throw new SessError('SIGNUP_NOT_ALLOWED', 'No account uses this email address.');
      const made = await insertUserWithWorkspace(tx, { email, passwordHash: null, now });
      user = { userId: made.userId, email: made.email };
      created = true;
    }
    await tx
      .insert(userIdentities)
      .values({ issuer: identity.issuer, subject: identity.subject, userId: user.userId, createdAt: now, lastUsedAt: now })
      .onConflictDoNothing();
    return { ...user, created, linked: true };
  });
}
