import { describeTextProblem, findTextProblem, SessError } from '@sess/core';
import { type DbOrTx, webauthnCredentials } from '@sess/db';
import { and, asc, eq, lt } from 'drizzle-orm';

/** A passkey as its person sees it listed (never its public key). */
export interface PasskeySummary {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  /** `multiDevice` (synced, e.g. a platform passkey) or `singleDevice` (a security key). */
  deviceType: string;
  backedUp: boolean;
}

/** What verifying an assertion needs of a stored credential. */
export interface StoredCredential {
  id: string;
  userId: string;
  publicKey: string;
  counter: number;
  transports: string[];
}

export const PASSKEY_NAME_MAX = 80;

/**
 * A passkey's name as given: trimmed, 1 to 80 characters, no character Sess refuses.
 * @throws SessError `INVALID_ARGUMENTS` with `field: /name`.
 */
export function checkPasskeyName(raw: unknown): string {
  const name = typeof raw === 'string' ? raw.trim() : '';
  const length = [...name].length;
  if (length === 0 || length > PASSKEY_NAME_MAX) {
    throw new SessError('INVALID_ARGUMENTS', `Give the passkey a name of 1 to ${PASSKEY_NAME_MAX} characters.`, {
      field: '/name',
      limit: PASSKEY_NAME_MAX,
      length,
    });
  }
  const problem = findTextProblem(name);
  if (problem) {
    throw new SessError('INVALID_ARGUMENTS', `The passkey's name ${describeTextProblem(problem)}. Remove it.`, {
      field: '/name',
    });
  }
  return name;
}

/** The passkeys of one person, oldest first. */
export async function listPasskeys(db: DbOrTx, userId: string): Promise<PasskeySummary[]> {
  return db
    .select({
      id: webauthnCredentials.id,
      name: webauthnCredentials.name,
      createdAt: webauthnCredentials.createdAt,
      lastUsedAt: webauthnCredentials.lastUsedAt,
      deviceType: webauthnCredentials.deviceType,
      backedUp: webauthnCredentials.backedUp,
    })
    .from(webauthnCredentials)
    .where(eq(webauthnCredentials.userId, userId))
    .orderBy(asc(webauthnCredentials.createdAt), asc(webauthnCredentials.id));
}

/** One credential by its id (base64url), whoever it belongs to. */
export async function findCredential(db: DbOrTx, credentialId: string): Promise<StoredCredential | null> {
  const [row] = await db
    .select({
      id: webauthnCredentials.id,
      userId: webauthnCredentials.userId,
      publicKey: webauthnCredentials.publicKey,
      counter: webauthnCredentials.counter,
      transports: webauthnCredentials.transports,
    })
    .from(webauthnCredentials)
    .where(eq(webauthnCredentials.id, credentialId));
  if (!row) return null;
  return { ...row, transports: Array.isArray(row.transports) ? (row.transports as string[]) : [] };
}

/** The ids and transports of a person's credentials (for `excludeCredentials` / `allowCredentials`). */
export async function credentialDescriptors(db: DbOrTx, userId: string): Promise<Array<{ id: string; transports: string[] }>> {
  const rows = await db
    .select({ id: webauthnCredentials.id, transports: webauthnCredentials.transports })
    .from(webauthnCredentials)
    .where(eq(webauthnCredentials.userId, userId));
  return rows.map((row) => ({ id: row.id, transports: Array.isArray(row.transports) ? (row.transports as string[]) : [] }));
}

/**
 * Records a verified use: the new signature counter and the time. One conditional UPDATE, so a
 * counter that did not increase (a replayed or cloned authenticator's assertion, or two posts
 * racing) changes nothing and returns false. A counter of 0 is an authenticator that keeps none
 * (many synced passkeys); it is accepted only while the stored one is 0 too.
 */
export async function recordCredentialUse(db: DbOrTx, credentialId: string, newCounter: number, now: Date): Promise<boolean> {
  const moved = await db
    .update(webauthnCredentials)
    .set({ counter: newCounter, lastUsedAt: now })
    .where(
      and(
        eq(webauthnCredentials.id, credentialId),
        newCounter === 0 ? eq(webauthnCredentials.counter, 0) : lt(webauthnCredentials.counter, newCounter),
      ),
    )
    .returning({ id: webauthnCredentials.id });
  return moved.length === 1;
}

/**
 * Renames one of the person's passkeys.
 * @throws SessError `INVALID_ARGUMENTS` (the name), `NOT_FOUND` (no such passkey of theirs).
 */
export async function renamePasskey(db: DbOrTx, input: { userId: string; credentialId: string; name: unknown }): Promise<string> {
  const name = checkPasskeyName(input.name);
  const renamed = await db
    .update(webauthnCredentials)
    .set({ name })
    .where(and(eq(webauthnCredentials.id, input.credentialId), eq(webauthnCredentials.userId, input.userId)))
    .returning({ id: webauthnCredentials.id });
  if (renamed.length === 0) throw new SessError('NOT_FOUND', 'There is no such passkey on your account.');
  return name;
}

/**
 * Removes one of the person's passkeys: it no longer signs in or answers.
 * @throws SessError `NOT_FOUND` (no such passkey of theirs).
 */
export async function removePasskey(db: DbOrTx, input: { userId: string; credentialId: string }): Promise<void> {
  const gone = await db
    .delete(webauthnCredentials)
    .where(and(eq(webauthnCredentials.id, input.credentialId), eq(webauthnCredentials.userId, input.userId)))
    .returning({ id: webauthnCredentials.id });
  if (gone.length === 0) throw new SessError('NOT_FOUND', 'There is no such passkey on your account.');
}
