import { type DbOrTx, memberships, workspaces } from '@sess/db';
import { asc, eq } from 'drizzle-orm';

/** A workspace as its member sees it. */
export interface UserWorkspace {
  id: string;
  name: string;
  role: 'owner' | 'member';
}

/**
 * Every workspace `userId` belongs to, with their role, oldest membership first (so the
 * personal workspace made at sign-up comes first).
 */
export async function listWorkspacesForUser(db: DbOrTx, userId: string): Promise<UserWorkspace[]> {
  return db
    .select({ id: workspaces.id, name: workspaces.name, role: memberships.role })
    .from(memberships)
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.createdAt), asc(workspaces.id));
}
