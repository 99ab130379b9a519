import { SessError } from '@sess/core';
import { type DbOrTx, memberships, users, workspaces } from '@sess/db';
import { and, asc, eq } from 'drizzle-orm';

/*
 * The floors of issue 37: the least assurance of a form made for a person by their own agents
 * (`users.assurance_floor`), and of a form made with a workspace's API keys
 * (`workspaces.api_key_assurance_floor`, set by its owners). @sess/forms' `decideAudience` raises
 * every new form to its maker's floor; these verbs only read and set them.
 */

/** A level as the schema stores it (@sess/db's `ASSURANCE_LEVELS`). */
export type AssuranceLevel = (typeof users.$inferSelect)['assuranceFloor'];

/** The levels a floor may be set to. */
export const FLOOR_CHOICES = ['link', 'account', 'passkey'] as const satisfies readonly AssuranceLevel[];
export type FloorChoice = (typeof FLOOR_CHOICES)[number];

export function isFloorChoice(value: unknown): value is FloorChoice {
  return (FLOOR_CHOICES as readonly unknown[]).includes(value);
}

/** A workspace as its member sees its API-key floor. */
export interface WorkspaceFloor {
  id: string;
  name: string;
  role: 'owner' | 'member';
  floor: AssuranceLevel;
}

/** The person's own floor and every workspace of theirs with its API-key floor (oldest membership first). */
export async function readAssuranceFloors(
  db: DbOrTx,
  userId: string,
): Promise<{ personFloor: AssuranceLevel; workspaces: WorkspaceFloor[] }> {
  const [user] = await db.select({ floor: users.assuranceFloor }).from(users).where(eq(users.id, userId));
  if (!user) throw new SessError('NOT_FOUND', 'No such account.');
  const rows = await db
    .select({ id: workspaces.id, name: workspaces.name, role: memberships.role, floor: workspaces.apiKeyAssuranceFloor })
    .from(memberships)
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.createdAt), asc(workspaces.id));
  return { personFloor: user.floor, workspaces: rows };
}

/** Sets the person's own floor. */
export async function setPersonAssuranceFloor(db: DbOrTx, userId: string, floor: FloorChoice): Promise<void> {
  await db.update(users).set({ assuranceFloor: floor }).where(eq(users.id, userId));
}

/**
 * Sets a workspace's API-key floor, for one of its owners only.
 * @throws SessError `NOT_FOUND` when `userId` owns no such workspace (a member's attempt too).
 */
export async function setWorkspaceApiKeyFloor(db: DbOrTx, input: { userId: string; workspaceId: string; floor: FloorChoice }) {
  const [owner] = await db
    .select({ id: memberships.id })
    .from(memberships)
    .where(
      and(eq(memberships.workspaceId, input.workspaceId), eq(memberships.userId, input.userId), eq(memberships.role, 'owner')),
    );
  if (!owner) throw new SessError('NOT_FOUND', 'You can set this only for workspaces you own.');
  await db.update(workspaces).set({ apiKeyAssuranceFloor: input.floor }).where(eq(workspaces.id, input.workspaceId));
}
