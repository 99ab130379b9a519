import { type DbOrTx, oauthGrants, oauthRefreshTokens } from '@sess/db';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { publishGrantChange } from './publish-grant-change.ts';

/**
 * Revokes a live grant: `revoked_at` is set and the generation bumped (so every access token
 * minted under it stops verifying), its refresh tokens are revoked, and the change is published.
 * `onlyGeneration` revokes only if the grant is still at that generation (a replayed old code
 * must not disconnect a newer connection). `userId` scopes the change to its owner.
 * Returns false when there was nothing live to revoke.
 */
export async function revokeGrant(
  tx: DbOrTx,
  input: { grantId: string; now: Date; userId?: string; onlyGeneration?: number },
): Promise<boolean> {
  const conditions = [eq(oauthGrants.id, input.grantId), isNull(oauthGrants.revokedAt)];
  if (input.userId !== undefined) conditions.push(eq(oauthGrants.userId, input.userId));
  if (input.onlyGeneration !== undefined) conditions.push(eq(oauthGrants.generation, input.onlyGeneration));
  const revoked = await tx
    .update(oauthGrants)
    .set({ revokedAt: input.now, generation: sql`${oauthGrants.generation} + 1` })
    .where(and(...conditions))
    .returning({ id: oauthGrants.id });
  if (revoked.length === 0) return false;
  await tx
    .update(oauthRefreshTokens)
    .set({ revokedAt: input.now, graceResponse: null })
    .where(and(eq(oauthRefreshTokens.grantId, input.grantId), isNull(oauthRefreshTokens.revokedAt)));
  await publishGrantChange(tx, input.grantId);
  return true;
}
