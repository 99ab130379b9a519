import type { Logger } from '@sess/core';
import { type DbOrTx, oauthClients } from '@sess/db';
import { findClient, type OAuthClient, toOAuthClient } from '../clients/client-record.ts';
import { type ValidatedClientMetadata, validateClientMetadata } from '../clients/validate-client-metadata.ts';
import { isOAuthError } from '../errors/oauth-error.ts';
import {
  type CimdFetchPolicy,
  checkMetadataUrl,
  fetchClientMetadataDocument,
  type ResolveHost,
} from './fetch-client-metadata-document.ts';
import { PINNED_CLIENT_METADATA_DOCUMENTS, PINNED_DOCUMENT_TTL_S } from './pinned-documents.ts';

export interface CimdResolverOptions {
  policy: CimdFetchPolicy;
  timeoutMs?: number;
  resolveHost?: ResolveHost;
  logger: Logger;
  now: () => Date;
}

export type CimdResolution = { ok: true; client: OAuthClient } | { ok: false; message: string };

/**
 * Checks a fetched document: a JSON object whose `client_id` is exactly the URL it was fetched
 * from (no normalisation), with valid client metadata.
 * @see https://datatracker.ietf.org/doc/html/draft-ietf-oauth-client-id-metadata-document#section-4.1
 */
export function validateMetadataDocument(clientId: string, document: unknown): ValidatedClientMetadata {
  const clientIdInDocument = (document as { client_id?: unknown } | null)?.client_id;
  if (clientIdInDocument !== clientId) {
    throw new Error("the document's client_id is not exactly the URL it was fetched from");
  }
  return validateClientMetadata(document, 'cimd');
}

/**
 * The CIMD client named by the URL `clientId`: the cached row while it is fresh (per the
 * document's caching headers), else a new fetch; when the fetch or the document fails and a
 * pinned vendor copy exists, that copy (logged as `oauth.cimd.pinned_used`). Used by the
 * authorization endpoint; the token endpoint reads the row as stored, whatever its age.
 */
export async function resolveCimdClient(db: DbOrTx, clientId: string, options: CimdResolverOptions): Promise<CimdResolution> {
  const { logger, now } = options;
  const shape = checkMetadataUrl(clientId, options.policy);
  if (!shape.ok) return { ok: false, message: `The client_id URL ${shape.message}.` };
  const cached = await findClient(db, clientId);
  if (cached && cached.kind === 'cimd' && cached.metadataExpiresAt && cached.metadataExpiresAt > now()) {
    return { ok: true, client: cached };
  }

  let metadata: ValidatedClientMetadata | undefined;
  let document: unknown;
  let ttlSeconds = 0;
  let failure: string | undefined;
  const fetched = await fetchClientMetadataDocument(clientId, {
    policy: options.policy,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.resolveHost ? { resolveHost: options.resolveHost } : {}),
  });
  if (fetched.ok) {
    try {
      metadata = validateMetadataDocument(clientId, fetched.document);
      document = fetched.document;
      ttlSeconds = fetched.maxAgeSeconds;
    } catch (error) {
      failure = `invalid document: ${isOAuthError(error) ? error.description : (error as Error).message}`;
    }
  } else {
    failure = `${fetched.reason}: ${fetched.message}`;
  }

  let source: 'fetched' | 'pinned' = 'fetched';
  if (!metadata) {
    const pinned = PINNED_CLIENT_METADATA_DOCUMENTS.get(clientId);
    if (!pinned) {
      logger.warn({ event: 'oauth.cimd.fetch_failed', clientId, reason: failure }, 'client metadata document unavailable');
      return { ok: false, message: `Sess could not load this app's metadata document (${failure}).` };
    }
    logger.warn(
      { event: 'oauth.cimd.pinned_used', clientId, reason: failure },
      'using the pinned copy of a vendor metadata document',
    );
    metadata = validateClientMetadata(pinned, 'cimd');
    document = pinned;
    ttlSeconds = PINNED_DOCUMENT_TTL_S;
    source = 'pinned';
  }

  const at = now();
  const values = {
    kind: 'cimd' as const,
    clientName: metadata.clientName ?? shape.url.host,
    redirectUris: metadata.redirectUris,
    tokenEndpointAuthMethod: metadata.tokenEndpointAuthMethod,
    clientSecretHash: null,
    grantTypes: metadata.grantTypes,
    applicationType: metadata.applicationType,
    metadata: document as Record<string, unknown>,
    metadataSource: source,
    metadataExpiresAt: new Date(at.getTime() + ttlSeconds * 1000),
    updatedAt: at,
  };
  const [row] = await db
    .insert(oauthClients)
    .values({ id: clientId, ...values, createdAt: at })
    .onConflictDoUpdate({ target: oauthClients.id, set: values })
    .returning();
  if (source === 'fetched') logger.info({ event: 'oauth.cimd.fetched', clientId, ttlSeconds }, 'client metadata document loaded');
  return { ok: true, client: toOAuthClient(row!) };
}
