import { newId, SessError } from '@sess/core';
import { type DbOrTx, memberships, users, workspaces } from '@sess/db';

export interface CreatedUser {
  userId: string;
  email: string;
  /** The personal workspace made with the account (the user owns it). */
  workspaceId: string;
}

/** The personal workspace's name: the address's local part, so a list of several stays readable. */
export function personalWorkspaceName(email: string): string {
  const local = email.split('@')[0] ?? email;
  return `${local.slice(0, 48)}'s workspace`;
}

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/**
 * Inserts a user, their personal workspace and their owner membership. Call it inside a
 * transaction (the callers do), so a failure leaves none of the three. `email` must already be
 * normalised and the password already hashed. A taken e-mail is `EMAIL_TAKEN`.
 */
export async function insertUserWithWorkspace(
  tx: DbOrTx,
  input: { email: string; passwordHash: string | null; now: Date },
): Promise<CreatedUser> {
  const userId = newId('user');
  const workspaceId = newId('workspace');
  try {
    await tx.insert(users).values({ id: userId, email: input.email, passwordHash: input.passwordHash, createdAt: input.now });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new SessError('EMAIL_TAKEN', 'An account with this email already exists.', { field: '/email' });
    throw error;
  }
  await tx.insert(workspaces).values({ id: workspaceId, name: personalWorkspaceName(input.email), createdAt: input.now });
  await tx.insert(memberships).values({ id: newId('membership'), workspaceId, userId, role: 'owner', createdAt: input.now });
  return { userId, email: input.email, workspaceId };
}
