import { hashSecret, newId, newSecret } from '@sess/core';
import { type DbOrTx, oauthClients } from '@sess/db';
import type { ValidatedClientMetadata } from './validate-client-metadata.ts';

/** The RFC 7591 §3.2.1 response body. */
export interface ClientInformationResponse {
  client_id: string;
  client_id_issued_at: number;
  client_secret?: string;
  client_secret_expires_at?: number;
  client_name?: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: string;
  application_type?: string;
  scope?: string;
  client_uri?: string;
  software_id?: string;
  software_version?: string;
}

/** The name shown when a client registered none. */
export const UNNAMED_CLIENT = 'Unnamed app';

/**
 * Registers a client from validated DCR metadata. Confidential clients get a secret, shown in
 * this response only and stored as its SHA-256. The response echoes what was kept, so a client
 * sees the redirect URIs and grant types it actually has.
 * @see https://www.rfc-editor.org/rfc/rfc7591#section-3.2.1
 */
export async function registerClient(
  db: DbOrTx,
  input: { metadata: ValidatedClientMetadata; now: Date },
): Promise<ClientInformationResponse> {
  const { metadata, now } = input;
  const clientId = newId('oauthClient');
  const confidential = metadata.tokenEndpointAuthMethod !== 'none';
  const clientSecret = confidential ? newSecret(32) : undefined;
  const response: ClientInformationResponse = {
    client_id: clientId,
    client_id_issued_at: Math.floor(now.getTime() / 1000),
    ...(clientSecret ? { client_secret: clientSecret, client_secret_expires_at: 0 } : {}),
    ...(metadata.clientName ? { client_name: metadata.clientName } : {}),
    redirect_uris: metadata.redirectUris,
    grant_types: metadata.grantTypes,
    response_types: ['code'],
    token_endpoint_auth_method: metadata.tokenEndpointAuthMethod,
    ...(metadata.applicationType ? { application_type: metadata.applicationType } : {}),
    ...(metadata.scope ? { scope: metadata.scope } : {}),
    ...(metadata.clientUri ? { client_uri: metadata.clientUri } : {}),
    ...(metadata.softwareId ? { software_id: metadata.softwareId } : {}),
    ...(metadata.softwareVersion ? { software_version: metadata.softwareVersion } : {}),
  };
  const { client_secret: _secret, ...stored } = response;
  await db.insert(oauthClients).values({
    id: clientId,
    kind: 'dcr',
    clientName: metadata.clientName ?? UNNAMED_CLIENT,
    redirectUris: metadata.redirectUris,
    tokenEndpointAuthMethod: metadata.tokenEndpointAuthMethod,
    clientSecretHash: clientSecret ? hashSecret(clientSecret) : null,
    grantTypes: metadata.grantTypes,
    applicationType: metadata.applicationType,
    metadata: stored as unknown as Record<string, unknown>,
    metadataSource: 'registered',
    metadataExpiresAt: null,
    createdAt: now,
    updatedAt: now,
  });
  return response;
}
