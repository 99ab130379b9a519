import { createApiKey } from '@sess/accounts';
import { newId } from '@sess/core';
import { type DbOrTx, memberships, users, workspaces } from '@sess/db';
import { recordSecret } from '../log-audit/capture.ts';

/** A workspace of its own for one test (no shared seed): `plan` is one of @sess/forms' PLANS. */
export async function createWorkspace(
  db: DbOrTx,
  options: { plan?: string; name?: string } = {},
): Promise<{ workspaceId: string }> {
  const workspaceId = newId('workspace');
  await db
    .insert(workspaces)
    .values({ id: workspaceId, name: options.name ?? `Test ${workspaceId}`, plan: options.plan ?? 'free' });
  return { workspaceId };
}

/** A user (no password) who owns `workspaceId` when given. */
export async function createUser(
  db: DbOrTx,
  options: { workspaceId?: string; email?: string } = {},
): Promise<{ userId: string; email: string }> {
  const userId = newId('user');
  const email = options.email ?? `${userId}@test.sess.invalid`;
  await db.insert(users).values({ id: userId, email });
  if (options.workspaceId) {
    await db.insert(memberships).values({ id: newId('membership'), workspaceId: options.workspaceId, userId, role: 'owner' });
  }
  return { userId, email };
}

/** What `createWorkspaceWithKey` made: the key is the real bearer secret, for real HTTP calls. */
export interface TestWorkspace {
  workspaceId: string;
  userId: string;
  apiKeyId: string;
  /** `Authorization: Bearer <apiKey>`. */
  apiKey: string;
}

/** A workspace on `plan`, its owner, and a real API key (made by @sess/accounts' createApiKey). */
export async function createWorkspaceWithKey(
  db: DbOrTx,
  options: { plan?: string; now?: () => Date } = {},
): Promise<TestWorkspace> {
  const { workspaceId } = await createWorkspace(db, { plan: options.plan ?? 'free' });
  const { userId } = await createUser(db, { workspaceId });
  const key = await createApiKey({
    ctx: { db, now: options.now ?? (() => new Date()) },
    input: { workspaceId, name: 'test key', createdBy: userId },
  });
  recordSecret(key.key, 'api-key');
  return { workspaceId, userId, apiKeyId: key.id, apiKey: key.key };
}
