import { hashSecret, safeEqual } from '@sess/core';
import type { DbOrTx } from '@sess/db';
import { findClient, type OAuthClient } from '../clients/client-record.ts';
import { OAuthError } from '../errors/oauth-error.ts';

const invalidClient = () =>
  new OAuthError('invalid_client', 'Client authentication failed (unknown client, or wrong or missing credentials).');

/** The credentials of an `Authorization: Basic` header (RFC 6749 §2.3.1: form-urlencoded, then base64). */
function parseBasic(header: string): { id: string; secret: string } | null {
  const match = /^Basic ([A-Za-z0-9+/]+=*)$/i.exec(header.trim());
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    return {
      id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
      secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
    };
  } catch {
    return null;
  }
}

/**
 * Authenticates the client of a token or revocation request. Public clients (`none`) send only
 * `client_id`; confidential clients send their secret by `client_secret_basic` or
 * `client_secret_post` (either is accepted for a confidential client; one at a time). A client
 * that no longer exists — a deleted DCR registration — is `invalid_client` (401), which is what
 * makes Claude register again.
 * @throws OAuthError `invalid_client` or `invalid_request`
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-2.3.1
 */
export async function authenticateClient(
  db: DbOrTx,
  params: URLSearchParams,
  authorization: string | undefined,
): Promise<OAuthClient> {
  const basicAttempted = usesBasicAuth(authorization);
  const basic = basicAttempted ? parseBasic(authorization!) : null;
  if (basicAttempted && !basic) throw invalidClient();
  const postedSecret = params.get('client_secret');
  if (basic && postedSecret !== null) throw new OAuthError('invalid_request', 'Use one client authentication method, not two.');
  const postedId = params.get('client_id');
  if (basic && postedId !== null && postedId !== basic.id)
    throw new OAuthError('invalid_request', 'client_id differs from the Basic credentials.');
  const clientId = basic?.id ?? postedId;
  if (!clientId) throw invalidClient();
  const client = await findClient(db, clientId);
  if (!client) throw invalidClient();
  const secret = basic?.secret ?? postedSecret;
  if (client.tokenEndpointAuthMethod === 'none') {
    if (secret !== null && secret !== '') throw invalidClient();
    return client;
  }
  if (secret === null || !client.clientSecretHash || !safeEqual(hashSecret(secret), client.clientSecretHash)) {
    throw invalidClient();
  }
  return client;
}

/** True when the request tried HTTP Basic client authentication (its 401 then carries a Basic challenge). */
export function usesBasicAuth(authorization: string | undefined): boolean {
  return Boolean(authorization && /^Basic /i.test(authorization));
}
