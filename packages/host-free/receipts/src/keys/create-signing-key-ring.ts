import { buildJwks, type Jwks } from '../jwks/build-jwks.ts';
import { createLocalKeySet } from '../key-set/create-local-key-set.ts';
import type { ReceiptKeySet } from '../key-set/receipt-key-set.ts';
import { createReceiptSigner, type ReceiptSigner } from './create-receipt-signer.ts';
import type { ReceiptPrivateJwk, ReceiptPublicJwk } from './receipt-jwk.ts';

/** What a server process needs from its signing keys, built once at start-up (and after a rotation). */
export interface SigningKeyRing {
  /** Signs with the active key. */
  signer: ReceiptSigner;
  /** The document for `GET /.well-known/jwks.json`: the active key, then the previous one. */
  jwks: Jwks;
  /** The same keys for in-process verification, already imported. */
  keySet: ReceiptKeySet;
}

/**
 * Builds the ring from the active key (private half already opened with `openPrivateJwk`)
 * and, when there is one, the previous key, which stays published so receipts signed before
 * a rotation still verify.
 * @throws TypeError when the active private key does not match its public key: signing with a
 * key that is not the one published would make every receipt unverifiable.
 */
export async function createSigningKeyRing(keys: {
  active: { kid: string; publicJwk: ReceiptPublicJwk; privateJwk: ReceiptPrivateJwk };
  previous?: { kid: string; publicJwk: ReceiptPublicJwk } | null;
}): Promise<SigningKeyRing> {
  const { active, previous } = keys;
  if (active.privateJwk.x !== active.publicJwk.x || active.privateJwk.y !== active.publicJwk.y) {
    throw new TypeError(`signing key ${active.kid}: the private key does not match the public key`);
  }
  const jwks = buildJwks(previous ? [active, previous] : [active]);
  const [signer, keySet] = await Promise.all([createReceiptSigner(active), createLocalKeySet(jwks)]);
  return { signer, jwks, keySet };
}
