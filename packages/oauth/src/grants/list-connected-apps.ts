import { type DbOrTx, oauthClients, oauthGrants, workspaces } from '@sess/db';
import { and, desc, eq, isNull } from 'drizzle-orm';

/** One live grant as the connected-apps page shows it. */
export interface ConnectedApp {
  grantId: string;
  workspaceId: string;
  workspaceName: string;
  clientId: string;
  clientName: string;
  clientKind: 'dcr' | 'cimd';
  redirectUri: string;
  scopes: string[];
  connectedAt: Date;
  lastUsedAt: Date | null;
}

/** The person's live grants in every workspace, most recently connected first. */
export async function listConnectedApps(db: DbOrTx, userId: string): Promise<ConnectedApp[]> {
  const rows = await db
    .select({
      grantId: oauthGrants.id,
      workspaceId: oauthGrants.workspaceId,
      workspaceName: workspaces.name,
      clientId: oauthGrants.clientId,
      clientName: oauthClients.clientName,
      clientKind: oauthClients.kind,
      redirectUri: oauthGrants.redirectUri,
      scope: oauthGrants.scope,
      connectedAt: oauthGrants.consentedAt,
      lastUsedAt: oauthGrants.lastUsedAt,
    })
    .from(oauthGrants)
    .innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
    .innerJoin(workspaces, eq(workspaces.id, oauthGrants.workspaceId))
    .where(and(eq(oauthGrants.userId, userId), isNull(oauthGrants.revokedAt)))
    .orderBy(desc(oauthGrants.consentedAt), desc(oauthGrants.id));
  return rows.map(({ scope, ...row }) => ({ ...row, scopes: scope.split(' ').filter(Boolean) }));
}
