import { createBrowserSession, createUserAccount, SESSION_COOKIE } from '@sess/accounts';
import { newId, newSecret } from '@sess/core';
import { type Db, memberships, workspaces } from '@sess/db';
import { recordSecret } from '../log-audit/capture.ts';

/** A person made for one test: their own account, personal workspace and password. */
export interface TestUser {
  userId: string;
  email: string;
  password: string;
  /** Their personal workspace (they own it). */
  workspaceId: string;
}

/**
 * Creates an account through the real verb (scrypt, personal workspace, owner membership).
 * The e-mail is unique per call unless given.
 */
export async function createTestUser(db: Db, options: { email?: string; password?: string; now?: Date } = {}): Promise<TestUser> {
  const email =
    options.email ??
    `person-${newSecret(6)
      .toLowerCase()
      .replace(/[^a-z0-9]/g, 'x')}@example.com`;
  const password = options.password ?? `correct horse ${newSecret(6)}`;
  recordSecret(password, 'password');
  const created = await createUserAccount(db, { email, password, now: options.now ?? new Date() });
  return { userId: created.userId, email: created.email, password, workspaceId: created.workspaceId };
}

/** A shared workspace `userId` belongs to with `role` (e.g. to give a person several). */
export async function createTestWorkspace(
  db: Db,
  options: { userId: string; name?: string; role?: 'owner' | 'member'; now?: Date },
): Promise<{ workspaceId: string; name: string }> {
  const workspaceId = newId('workspace');
  const name = options.name ?? `Team ${newSecret(4)}`;
  const now = options.now ?? new Date();
  await db.insert(workspaces).values({ id: workspaceId, name, createdAt: now });
  await db.insert(memberships).values({
    id: newId('membership'),
    workspaceId,
    userId: options.userId,
    role: options.role ?? 'member',
    createdAt: new Date(now.getTime() + 1000),
  });
  return { workspaceId, name };
}

/**
 * A signed-in browser session for `userId` without going through the sign-in page; returns the
 * `Cookie` header value to send.
 */
export async function signInTestUser(
  db: Db,
  userId: string,
  now: Date = new Date(),
): Promise<{ sessionId: string; cookie: string }> {
  const session = await createBrowserSession(db, { userId, now });
  recordSecret(session.token, 'token');
  return { sessionId: session.sessionId, cookie: `${SESSION_COOKIE}=${session.token}` };
}
