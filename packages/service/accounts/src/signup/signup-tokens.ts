import { hashSecret, newSecret, SessError } from '@sess/core';
import { type DbOrTx, memberships, signupTokens, users } from '@sess/db';
import { and, eq, gt, isNull, lte, sql } from 'drizzle-orm';

/** How long the first-account link printed by `sess serve` stays usable. */
export const FIRST_ACCOUNT_LINK_TTL_MS = 24 * 60 * 60 * 1000;
/** How long an invite link stays usable. */
export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

// Any constant shared by replicas: serialises first-account sign-ups so two links cannot both
// make "the first" account.
const FIRST_ACCOUNT_LOCK_KEY = 7_368_024_501;

/** A sign-up link's token is `newSecret(32)`; anything else is refused before a lookup. */
export function isSignupTokenShape(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);
}

async function hasAnyUser(db: DbOrTx): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).limit(1);
  return Boolean(row);
}

/**
 * On an empty database (no user at all), stores a new single-use first-account token and
 * returns it; otherwise null. Each start of `sess serve` on an empty database gets its own
 * link; whichever is used first makes the first account and the rest stop working.
 */
export async function issueFirstAccountToken(db: DbOrTx, now: Date): Promise<string | null> {
  if (await hasAnyUser(db)) return null;
  const token = newSecret(32);
  await db.insert(signupTokens).values({
    tokenHash: hashSecret(token),
    kind: 'first_account',
    expiresAt: new Date(now.getTime() + FIRST_ACCOUNT_LINK_TTL_MS),
    createdAt: now,
  });
  return token;
}

/**
 * Stores a single-use invite to `workspaceId` made by `userId`, who must own that workspace
 * (otherwise `NOT_FOUND`, as for any other tenant's resource). Returns the token, shown once.
 */
export async function createInvite(db: DbOrTx, input: { userId: string; workspaceId: string; now: Date }): Promise<string> {
  const [owner] = await db
    .select({ id: memberships.id })
    .from(memberships)
    .where(
      and(eq(memberships.workspaceId, input.workspaceId), eq(memberships.userId, input.userId), eq(memberships.role, 'owner')),
    )
    .limit(1);
  if (!owner) throw new SessError('NOT_FOUND', 'There is no such workspace.');
  const token = newSecret(32);
  await db.insert(signupTokens).values({
    tokenHash: hashSecret(token),
    kind: 'invite',
    workspaceId: input.workspaceId,
    createdBy: input.userId,
    expiresAt: new Date(input.now.getTime() + INVITE_TTL_MS),
    createdAt: input.now,
  });
  return token;
}

/** What a valid sign-up link allows. */
export interface SignupLink {
  kind: 'first_account' | 'invite';
  /** The workspace an invitee joins; null for the first-account link. */
  workspaceId: string | null;
}

const CLOSED = () => new SessError('LINK_CLOSED', 'This sign-up link has been used or has expired.');

/**
 * What `token` allows, without using it up (for rendering the sign-up page), or `LINK_CLOSED`
 * when it is unknown, used, expired — or a first-account link once any account exists.
 */
export async function peekSignupLink(db: DbOrTx, token: unknown, now: Date): Promise<SignupLink> {
  if (!isSignupTokenShape(token)) throw CLOSED();
  const [row] = await db
    .select({ kind: signupTokens.kind, workspaceId: signupTokens.workspaceId })
    .from(signupTokens)
    .where(and(eq(signupTokens.tokenHash, hashSecret(token)), isNull(signupTokens.usedAt), gt(signupTokens.expiresAt, now)))
    .limit(1);
  if (!row) throw CLOSED();
  if (row.kind === 'first_account' && (await hasAnyUser(db))) throw CLOSED();
  return row;
}

/**
 * Uses up `token` for `userId` inside the sign-up transaction `tx`. Single use is enforced by
 * the conditional update (`used_at is null`), so two sign-ups racing on one link cannot both
 * win. A first-account link also takes an advisory lock and requires that `userId` is the
 * only account.
 */
export async function consumeSignupLink(tx: DbOrTx, token: unknown, userId: string, now: Date): Promise<SignupLink> {
  if (!isSignupTokenShape(token)) throw CLOSED();
  const [row] = await tx
    .update(signupTokens)
    .set({ usedAt: now, usedBy: userId })
    .where(and(eq(signupTokens.tokenHash, hashSecret(token)), isNull(signupTokens.usedAt), gt(signupTokens.expiresAt, now)))
    .returning({ kind: signupTokens.kind, workspaceId: signupTokens.workspaceId });
  if (!row) throw CLOSED();
  if (row.kind === 'first_account') {
    await tx.execute(sql`select pg_advisory_xact_lock(${FIRST_ACCOUNT_LOCK_KEY})`);
    const others = await tx.select({ id: users.id }).from(users).where(sql`${users.id} <> ${userId}`).limit(1);
    if (others.length > 0) throw CLOSED();
  }
  return row;
}

/** Deletes sign-up links that expired or were used more than a day ago; returns how many went. */
export async function deleteStaleSignupTokens(db: DbOrTx, now: Date): Promise<number> {
  const dayAgo = new Date(now.getTime() - 24 * 60 * 60 * 1000);
  const gone = await db
    .delete(signupTokens)
    .where(sql`${lte(signupTokens.expiresAt, now)} or ${lte(signupTokens.usedAt, dayAgo)}`)
    .returning({ tokenHash: signupTokens.tokenHash });
  return gone.length;
}
