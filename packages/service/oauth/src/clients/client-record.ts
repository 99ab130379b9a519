import { type DbOrTx, oauthClients } from '@sess/db';
import { eq } from 'drizzle-orm';
import type { TokenEndpointAuthMethod } from './validate-client-metadata.ts';

/** A registered client as the endpoints use it. */
export interface OAuthClient {
  /** `cli_…` for DCR; the document URL for CIMD. */
  id: string;
  kind: 'dcr' | 'cimd';
  /** The name shown to people. For DCR it is whatever the client sent (shown as unverified). */
  clientName: string;
  /**
   * True when the name is vouched for by a domain (a CIMD document is served from the client's
   * own https origin). DCR names are attacker-chosen, so they are labelled "unverified".
   */
  nameVerified: boolean;
  redirectUris: string[];
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  clientSecretHash: string | null;
  metadataSource: 'registered' | 'fetched' | 'pinned';
  metadataExpiresAt: Date | null;
}

type ClientRow = typeof oauthClients.$inferSelect;

/** Maps a row to the endpoints' view of a client. */
export function toOAuthClient(row: ClientRow): OAuthClient {
  return {
    id: row.id,
    kind: row.kind,
    clientName: row.clientName,
    nameVerified: row.kind === 'cimd',
    redirectUris: row.redirectUris,
    tokenEndpointAuthMethod: row.tokenEndpointAuthMethod,
    clientSecretHash: row.clientSecretHash,
    metadataSource: row.metadataSource,
    metadataExpiresAt: row.metadataExpiresAt,
  };
}

/** The client with this id (DCR or cached CIMD), or null. Freshness of a CIMD row is not checked here. */
export async function findClient(db: DbOrTx, clientId: string): Promise<OAuthClient | null> {
  if (clientId.length === 0 || clientId.length > 2048) return null;
  const [row] = await db.select().from(oauthClients).where(eq(oauthClients.id, clientId)).limit(1);
  return row ? toOAuthClient(row) : null;
}

/** True when `clientId` names a CIMD client (an https URL; http only on loopback in test mode). */
export function looksLikeMetadataUrl(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}
