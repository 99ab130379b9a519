import { type DbOrTx, oauthClients } from '@sess/db';
import { findClient, type OAuthClient, toOAuthClient } from '../clients/client-record.ts';
import type { ValidatedClientMetadata } from '../clients/validate-client-metadata.ts';

/** The stored CIMD client for `clientId` while its document is fresh, else null. */
export async function findFreshCimdClient(db: DbOrTx, clientId: string, now: Date): Promise<OAuthClient | null> {
  const cached = await findClient(db, clientId);
  if (cached?.kind !== 'cimd' || !cached.metadataExpiresAt || cached.metadataExpiresAt <= now) return null;
  return cached;
}

export interface StoreCimdClientInput {
  clientId: string;
  /** The client_id parsed, for the fallback name (its host). */
  url: URL;
  metadata: ValidatedClientMetadata;
  document: Readonly<Record<string, unknown>>;
  source: 'fetched' | 'pinned';
  /** How long the document may be reused before it is fetched again. */
  ttlSeconds: number;
  now: Date;
}

/** Inserts or refreshes the row of a CIMD client from its document (the cache the authorization and token endpoints read). */
export async function storeCimdClient(db: DbOrTx, input: StoreCimdClientInput): Promise<OAuthClient> {
  const { metadata, now } = input;
  const values = {
    kind: 'cimd' as const,
    clientName: metadata.clientName ?? input.url.host,
    redirectUris: metadata.redirectUris,
    tokenEndpointAuthMethod: metadata.tokenEndpointAuthMethod,
    clientSecretHash: null,
    grantTypes: metadata.grantTypes,
    applicationType: metadata.applicationType,
    metadata: input.document as Record<string, unknown>,
    metadataSource: input.source,
    metadataExpiresAt: new Date(now.getTime() + input.ttlSeconds * 1000),
    updatedAt: now,
  };
  const [row] = await db
    .insert(oauthClients)
    .values({ id: input.clientId, ...values, createdAt: now })
    .onConflictDoUpdate({ target: oauthClients.id, set: values })
    .returning();
  return toOAuthClient(row!);
}
