import { type DbOrTx, oauthClients, oauthGrants, oauthRefreshTokens, workspaces } from '@sess/db';
import { and, desc, eq, exists, isNull } from 'drizzle-orm';

/**
 * What makes two clients "the same app" on the connected-apps page: a metadata-document client is
 * its document URL; a self-registered client is the name it gave (each computer, each reconnect
 * of Claude Code or Cursor registers anew, and the person cannot tell those apart anyway).
 */
export function connectedAppKey(client: { kind: 'dcr' | 'cimd'; id: string; clientName: string }): string {
  return client.kind === 'cimd' ? `cimd:${client.id}` : `dcr:${client.clientName}`;
}

/** One app × workspace as the connected-apps page shows it, with every live grant it stands for. */
export interface ConnectedApp {
  /** `connectedAppKey` of the app; with `workspaceId` it names the row (Disconnect's form). */
  appKey: string;
  workspaceId: string;
  workspaceName: string;
  /** The most recently connected client of the app (its name and kind are the app's). */
  clientId: string;
  clientName: string;
  clientKind: 'dcr' | 'cimd';
  /** The redirect URIs of the grants, most recent first, without repeats. */
  redirectUris: string[];
  /** The scopes of all its grants. */
  scopes: string[];
  grantIds: string[];
  connectedAt: Date;
  lastUsedAt: Date | null;
}

/**
 * The person's connected apps: one row per app × workspace, counting only live grants whose
 * current generation was used — its code exchanged for tokens, which stores a refresh token of
 * that generation. A consent whose code never reached the token endpoint (an app that gave up,
 * a connection attempt abandoned) connected nothing, so it is not listed. Most recent first.
 */
export async function listConnectedApps(db: DbOrTx, userId: string): Promise<ConnectedApp[]> {
  const used = db
    .select({ one: oauthRefreshTokens.id })
    .from(oauthRefreshTokens)
    .where(and(eq(oauthRefreshTokens.grantId, oauthGrants.id), eq(oauthRefreshTokens.grantGeneration, oauthGrants.generation)));
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
    .where(and(eq(oauthGrants.userId, userId), isNull(oauthGrants.revokedAt), exists(used)))
    .orderBy(desc(oauthGrants.consentedAt), desc(oauthGrants.id));
  const apps = new Map<string, ConnectedApp>();
  for (const row of rows) {
    const appKey = connectedAppKey({ kind: row.clientKind, id: row.clientId, clientName: row.clientName });
    const rowKey = `${row.workspaceId} ${appKey}`;
    const scopes = row.scope.split(' ').filter(Boolean);
    const app = apps.get(rowKey);
    if (!app) {
      // Rows come most recent first: the first one seen names the app and its connection time.
      apps.set(rowKey, {
        appKey,
        workspaceId: row.workspaceId,
        workspaceName: row.workspaceName,
        clientId: row.clientId,
        clientName: row.clientName,
        clientKind: row.clientKind,
        redirectUris: [row.redirectUri],
        scopes,
        grantIds: [row.grantId],
        connectedAt: row.connectedAt,
        lastUsedAt: row.lastUsedAt,
      });
      continue;
    }
    app.grantIds.push(row.grantId);
    if (!app.redirectUris.includes(row.redirectUri)) app.redirectUris.push(row.redirectUri);
    for (const scope of scopes) if (!app.scopes.includes(scope)) app.scopes.push(scope);
    if (row.lastUsedAt && (!app.lastUsedAt || row.lastUsedAt > app.lastUsedAt)) app.lastUsedAt = row.lastUsedAt;
  }
  return [...apps.values()];
}
