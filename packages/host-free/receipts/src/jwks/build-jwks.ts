import { isReceiptPublicJwk, type ReceiptPublicJwk, toPublicJwk } from '../keys/receipt-jwk.ts';
import { RECEIPT_ALG } from '../receipt/receipt-claims.ts';

/** One published verification key. */
export interface PublishedJwk extends ReceiptPublicJwk {
  kid: string;
  alg: typeof RECEIPT_ALG;
  use: 'sig';
}

/** The document served at `GET /.well-known/jwks.json`. */
export interface Jwks {
  keys: PublishedJwk[];
}

/**
 * `Cache-Control` for the JWKS response.
 *
 * - `max-age=60`: the set changes only on rotation, but until a cache refreshes, a verifier
 *   that reads through it cannot see the new active key. One minute bounds that window and
 *   costs one tiny request per cache per minute. No `stale-while-revalidate`: it would serve the
 *   old set after a rotation for longer still.
 * - `stale-if-error=3600`: if the server is down, caches may keep serving the last set, so
 *   receipts that were already issued stay verifiable; public keys are safe to serve stale.
 *
 * Our own remote key set ignores HTTP caching (it keeps its own cache and sends `no-cache`).
 * @see https://www.rfc-editor.org/rfc/rfc9111#section-5.2.2.1
 * @see https://www.rfc-editor.org/rfc/rfc5861#section-4
 */
export const JWKS_CACHE_CONTROL = 'public, max-age=60, stale-if-error=3600';

/** Media type of a JWK Set. @see https://www.rfc-editor.org/rfc/rfc7517#section-8.5.1 */
export const JWKS_CONTENT_TYPE = 'application/jwk-set+json';

/**
 * Builds the JWKS document from the keys to publish, in order (active first, then previous).
 * Only the public members are copied, so a private JWK passed by mistake never leaks.
 * @throws TypeError on a key that is not P-256 or on a duplicate kid.
 * @see https://www.rfc-editor.org/rfc/rfc7517#section-5
 */
export function buildJwks(keys: ReadonlyArray<{ kid: string; publicJwk: ReceiptPublicJwk }>): Jwks {
  const seen = new Set<string>();
  const published: PublishedJwk[] = [];
  for (const key of keys) {
    if (typeof key.kid !== 'string' || key.kid.length === 0) throw new TypeError('every published key needs a kid');
    if (seen.has(key.kid)) throw new TypeError(`duplicate kid ${key.kid}`);
    if (!isReceiptPublicJwk(key.publicJwk)) throw new TypeError(`key ${key.kid} is not a P-256 EC JWK`);
    seen.add(key.kid);
    published.push({ ...toPublicJwk(key.publicJwk), kid: key.kid, alg: RECEIPT_ALG, use: 'sig' });
  }
  return { keys: published };
}
