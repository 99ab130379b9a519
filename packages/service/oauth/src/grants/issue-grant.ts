import { newId } from '@sess/core';
import { type DbOrTx, oauthGrants, oauthRefreshTokens } from '@sess/db';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { publishGrantChange } from './publish-grant-change.ts';

/**
 * Records a consent. There is one grant per user × workspace × client: the first consent creates
 * it at generation 1; a later one (a second computer, a reconnect, a consent after Disconnect)
 * re-issues the same row at generation + 1, which ends every token of the previous generation.
 * Call inside the transaction that also creates the authorization code.
 */
export async function issueGrant(
  tx: DbOrTx,
  input: {
    userId: string;
    workspaceId: string;
    clientId: string;
    scope: string;
    resource: string;
    redirectUri: string;
    now: Date;
  },
): Promise<{ grantId: string; generation: number; reissued: boolean }> {
  const { now } = input;
  const [row] = await tx
    .insert(oauthGrants)
    .values({
      id: newId('oauthGrant'),
      workspaceId: input.workspaceId,
      userId: input.userId,
      clientId: input.clientId,
      generation: 1,
      scope: input.scope,
      resource: input.resource,
      redirectUri: input.redirectUri,
      createdAt: now,
      consentedAt: now,
    })
    .onConflictDoUpdate({
      target: [oauthGrants.userId, oauthGrants.workspaceId, oauthGrants.clientId],
      set: {
        generation: sql`${oauthGrants.generation} + 1`,
        revokedAt: null,
        consentedAt: now,
        scope: input.scope,
        resource: input.resource,
        redirectUri: input.redirectUri,
      },
    })
    .returning({ id: oauthGrants.id, generation: oauthGrants.generation, createdAt: oauthGrants.createdAt });
  const grant = row!;
  const reissued = grant.generation > 1;
  if (reissued) {
    // The previous generation's refresh tokens can no longer be used (their generation is
    // stale anyway); mark them so the record says so, and tell the verifiers.
    await tx
      .update(oauthRefreshTokens)
      .set({ revokedAt: now, graceResponse: null })
      .where(and(eq(oauthRefreshTokens.grantId, grant.id), isNull(oauthRefreshTokens.revokedAt)));
    await publishGrantChange(tx, grant.id);
  }
  return { grantId: grant.id, generation: grant.generation, reissued };
}
