import { type Db, oauthClients, oauthGrants } from '@sess/db';
import { and, eq, isNull } from 'drizzle-orm';
import { connectedAppKey } from './list-connected-apps.ts';
import { revokeGrant } from './revoke-grant.ts';

/**
 * "Disconnect" on the connected-apps page: revokes every live grant the row stands for — the
 * person's own grants, in that workspace, of every client that is that app (used or not, so a
 * consent still waiting for its code exchange cannot connect the app a moment later). The set is
 * worked out at the click, not taken from the page, so a registration made since is included.
 * Another person's app or workspace matches nothing. Every token of the app stops working on
 * every replica within about a second (the NOTIFY reaches each verifier's cache).
 * Returns how many grants were revoked (0: nothing live to disconnect).
 */
export async function disconnectConnectedApp(
  db: Db,
  input: { userId: string; workspaceId: string; appKey: string; now: Date },
): Promise<number> {
  return db.transaction(async (tx) => {
    const grants = await tx
      .select({
        grantId: oauthGrants.id,
        clientId: oauthClients.id,
        kind: oauthClients.kind,
        clientName: oauthClients.clientName,
      })
      .from(oauthGrants)
      .innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
      .where(
        and(eq(oauthGrants.userId, input.userId), eq(oauthGrants.workspaceId, input.workspaceId), isNull(oauthGrants.revokedAt)),
      );
    let revoked = 0;
    for (const grant of grants) {
      if (connectedAppKey({ kind: grant.kind, id: grant.clientId, clientName: grant.clientName }) !== input.appKey) continue;
      if (await revokeGrant(tx, { grantId: grant.grantId, userId: input.userId, now: input.now })) revoked += 1;
    }
    return revoked;
  });
}
