import type { CryptoKey } from 'jose';
import { importReceiptPublicKey, isReceiptPublicJwk } from '../keys/receipt-jwk.ts';
import { RECEIPT_ALG } from '../receipt/receipt-claims.ts';

/** The outcome of a key lookup. Lookups never throw: every outcome is a value the verifier maps. */
export type KeyLookup =
  | { found: true; key: CryptoKey }
  | {
      found: false;
      /** `UNKNOWN_KEY_ID`: a current key set lacks the kid. `KEY_SET_UNAVAILABLE`: no current set could be had. */
      reason: 'UNKNOWN_KEY_ID' | 'KEY_SET_UNAVAILABLE';
      message: string;
    };

/**
 * Where the verifier finds public keys. Implementations import each key once, so a
 * verification does no key import.
 */
export interface ReceiptKeySet {
  getKey(kid: string): Promise<KeyLookup>;
}

/**
 * Imports the usable keys of a JWK Set: P-256 EC keys with a kid whose `alg` and `use` (when
 * present) allow ES256 signatures. Other keys are skipped, as RFC 7517 asks; in particular an
 * `oct` key can never be used, which rules out HS256-with-the-public-key confusion here too.
 * A duplicate kid keeps its first key. Returns the keys and the kids that were skipped.
 * @see https://www.rfc-editor.org/rfc/rfc7517#section-5
 */
export async function importJwks(document: unknown): Promise<{ keys: Map<string, CryptoKey>; skipped: string[] }> {
  if (typeof document !== 'object' || document === null || !Array.isArray((document as { keys?: unknown }).keys)) {
    throw new TypeError('not a JWK Set: "keys" must be an array');
  }
  const keys = new Map<string, CryptoKey>();
  const skipped: string[] = [];
  for (const jwk of (document as { keys: unknown[] }).keys) {
    const kid = (jwk as { kid?: unknown } | null)?.kid;
    if (typeof kid !== 'string' || kid.length === 0) {
      skipped.push('(no kid)');
      continue;
    }
    const { alg, use, key_ops: ops } = jwk as { alg?: unknown; use?: unknown; key_ops?: unknown };
    const usable =
      isReceiptPublicJwk(jwk) &&
      (alg === undefined || alg === RECEIPT_ALG) &&
      (use === undefined || use === 'sig') &&
      (ops === undefined || (Array.isArray(ops) && ops.includes('verify')));
    if (!usable || keys.has(kid)) {
      skipped.push(kid);
      continue;
    }
    try {
      keys.set(kid, await importReceiptPublicKey(jwk));
    } catch {
      // A point that is not on the curve: unusable, like any other malformed key.
      skipped.push(kid);
    }
  }
  return { keys, skipped };
}
