import { type ValidatedClientMetadata, validateClientMetadata } from '../clients/validate-client-metadata.ts';
import { isOAuthError } from '../errors/oauth-error.ts';
import { type FetchClientMetadataOptions, fetchClientMetadataDocument } from './fetch-client-metadata-document.ts';

/** A document that loaded and passed every check, or why not (for the page and the log). */
export type LoadedMetadataDocument =
  | { ok: true; metadata: ValidatedClientMetadata; document: Record<string, unknown>; ttlSeconds: number }
  | { ok: false; failure: string };

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

/** One fetch of the document at `clientId` (with the SSRF defences), then its checks. */
export async function loadMetadataDocument(
  clientId: string,
  options: FetchClientMetadataOptions,
): Promise<LoadedMetadataDocument> {
  const fetched = await fetchClientMetadataDocument(clientId, options);
  if (!fetched.ok) return { ok: false, failure: `${fetched.reason}: ${fetched.message}` };
  try {
    const metadata = validateMetadataDocument(clientId, fetched.document);
    return { ok: true, metadata, document: fetched.document as Record<string, unknown>, ttlSeconds: fetched.maxAgeSeconds };
  } catch (error) {
    return { ok: false, failure: `invalid document: ${isOAuthError(error) ? error.description : (error as Error).message}` };
  }
}
