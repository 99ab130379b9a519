import { createRateLimiter, type Logger } from '@sess/core';
import type { Egress } from '@sess/core/egress';
import type { DbOrTx } from '@sess/db';
import type { OAuthClient } from '../clients/client-record.ts';
import { validateClientMetadata } from '../clients/validate-client-metadata.ts';
import { CIMD_FAILURE_CACHE_MAX_URLS, CIMD_FAILURE_CACHE_S, CIMD_FETCH_WINDOW_S, CIMD_FETCHES_PER_ADDRESS } from '../settings.ts';
import { createFailureCache } from './failure-cache.ts';
import { checkMetadataUrl } from './fetch-client-metadata-document.ts';
import { CimdFetchLimitError } from './fetch-limit-error.ts';
import { loadMetadataDocument } from './load-metadata-document.ts';
import { PINNED_CLIENT_METADATA_DOCUMENTS, PINNED_DOCUMENT_TTL_S } from './pinned-documents.ts';
import { createSingleFlight } from './single-flight.ts';
import { findFreshCimdClient, storeCimdClient } from './store-cimd-client.ts';

export { validateMetadataDocument } from './load-metadata-document.ts';

export interface CimdResolverOptions {
  /** Where documents are fetched from: the process's egress (its policy decides which addresses). */
  egress: Egress;
  timeoutMs?: number;
  /** The injected clock: document freshness, the failure cache and the per-address window all read it. */
  now: () => Date;
}

export type CimdResolution = { ok: true; client: OAuthClient } | { ok: false; message: string };

/** Who is asking: the per-address limit keys on `clientAddress`; `logger` is the request's. */
export interface CimdRequester {
  clientAddress: string;
  logger: Logger;
}

/** The CIMD clients of one process: its fetches in flight, its remembered failures, its per-address counts. */
export interface CimdResolver {
  /**
   * The CIMD client named by the URL `clientId`, for the authorization endpoint (the token
   * endpoint reads the row as stored, whatever its age).
   * @throws CimdFetchLimitError when the document must be fetched and `clientAddress` is over its limit
   */
  resolve(db: DbOrTx, clientId: string, requester: CimdRequester): Promise<CimdResolution>;
}

const unavailable = (failure: string): CimdResolution => ({
  ok: false,
  message: `Sess could not load this app's metadata document (${failure}).`,
});

/**
 * Resolves CIMD clients without letting authorization requests amplify into outbound fetches:
 * 1. the stored row while it is fresh (per the document's caching headers): no fetch, not counted;
 * 2. a failure remembered for this URL (`CIMD_FAILURE_CACHE_S`): the same answer, no fetch;
 * 3. a fetch of this URL already in flight in this process: joined, not counted;
 * 4. otherwise one fetch, counted against the requester's address (`CIMD_FETCHES_PER_ADDRESS`
 *    per `CIMD_FETCH_WINDOW_S`; over it, `CimdFetchLimitError`).
 * Whenever the document cannot be had (2, or a failed fetch) a pinned vendor copy stands in.
 * Failures are remembered per exact URL, never per origin, so one bad URL cannot shut out
 * another client on the same host; a fresh stored document is never affected by a failure.
 * The failure cache is not an HTTP cache: nothing of the failed response is reused, it only
 * spaces out retries.
 * @see https://datatracker.ietf.org/doc/html/draft-ietf-oauth-client-id-metadata-document-01#section-4.4 (caching)
 * @see https://github.com/oauth-wg/draft-ietf-oauth-client-id-metadata-document/issues/52 (fetch DoS: rate limit per URL and address)
 */
export function createCimdResolver(options: CimdResolverOptions): CimdResolver {
  const { now } = options;
  const nowMs = () => now().getTime();
  const flights = createSingleFlight<CimdResolution>();
  const failures = createFailureCache({
    ttlMs: CIMD_FAILURE_CACHE_S * 1000,
    maxEntries: CIMD_FAILURE_CACHE_MAX_URLS,
    now: nowMs,
  });
  const fetchesPerAddress = createRateLimiter({
    limit: CIMD_FETCHES_PER_ADDRESS,
    windowMs: CIMD_FETCH_WINDOW_S * 1000,
    now: nowMs,
  });
  const fetchOptions = {
    egress: options.egress,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  };

  /** The document could not be had: the pinned vendor copy if there is one, else the failure. */
  async function pinnedOr(db: DbOrTx, clientId: string, url: URL, failure: string, logger: Logger): Promise<CimdResolution> {
    const pinned = PINNED_CLIENT_METADATA_DOCUMENTS.get(clientId);
    if (!pinned) return unavailable(failure);
    logger.warn(
      { event: 'oauth.cimd.pinned_used', clientId, reason: failure },
      'using the pinned copy of a vendor metadata document',
    );
    const metadata = validateClientMetadata(pinned, 'cimd');
    const client = await storeCimdClient(db, {
      clientId,
      url,
      metadata,
      document: pinned,
      source: 'pinned',
      ttlSeconds: PINNED_DOCUMENT_TTL_S,
      now: now(),
    });
    return { ok: true, client };
  }

  /** The one fetch of a flight. */
  async function fetchAndStore(db: DbOrTx, clientId: string, url: URL, logger: Logger): Promise<CimdResolution> {
    // A flight that ended between the caller's read and this start has stored the row already
    // (the caller was counted, but the document is not fetched twice).
    const stored = await findFreshCimdClient(db, clientId, now());
    if (stored) return { ok: true, client: stored };
    const loaded = await loadMetadataDocument(clientId, fetchOptions);
    if (!loaded.ok) {
      failures.remember(clientId, loaded.failure);
      logger.warn({ event: 'oauth.cimd.fetch_failed', clientId, reason: loaded.failure }, 'client metadata document unavailable');
      return pinnedOr(db, clientId, url, loaded.failure, logger);
    }
    const client = await storeCimdClient(db, { clientId, url, ...loaded, source: 'fetched', now: now() });
    logger.info({ event: 'oauth.cimd.fetched', clientId, ttlSeconds: loaded.ttlSeconds }, 'client metadata document loaded');
    return { ok: true, client };
  }

  return {
    async resolve(db, clientId, { clientAddress, logger }) {
      const shape = checkMetadataUrl(clientId, options.egress.policy);
      if (!shape.ok) return { ok: false, message: `The client_id URL ${shape.message}.` };
      const fresh = await findFreshCimdClient(db, clientId, now());
      if (fresh) return { ok: true, client: fresh };
      const failure = failures.get(clientId);
      if (failure !== undefined) return pinnedOr(db, clientId, shape.url, failure, logger);
      const running = flights.pending(clientId);
      if (running) return running;
      const allowed = fetchesPerAddress.hit(clientAddress);
      if (!allowed.ok) {
        logger.warn(
          { event: 'oauth.cimd.fetch_limited', clientId, retryAfterSeconds: allowed.retryAfterSeconds },
          'too many metadata document fetches for this client address',
        );
        throw new CimdFetchLimitError(allowed.retryAfterSeconds);
      }
      return flights.run(clientId, () => fetchAndStore(db, clientId, shape.url, logger));
    },
  };
}
