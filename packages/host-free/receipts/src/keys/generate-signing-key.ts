import { newId } from '@sess/core';
import { exportJWK, generateKeyPair } from 'jose';
import { RECEIPT_ALG } from '../receipt/receipt-claims.ts';
import { isReceiptPrivateJwk, type ReceiptPrivateJwk, type ReceiptPublicJwk, toPublicJwk } from './receipt-jwk.ts';

/** A receipt signing key as it is created: the row `sess keys rotate` stores (with `privateJwk` sealed). */
export interface SigningKey {
  /** `sk_…` from the id registry: random, so a kid says nothing about the key or its age. */
  kid: string;
  alg: typeof RECEIPT_ALG;
  publicJwk: ReceiptPublicJwk;
  privateJwk: ReceiptPrivateJwk;
  createdAt: Date;
}

/** Creates a fresh P-256 key pair for ES256 receipts. Seal `privateJwk` before it is stored. */
export async function generateSigningKey(options: { now?: () => Date } = {}): Promise<SigningKey> {
  // Extractable only so the private key can be exported once, here, to be sealed; the signer
  // later re-imports it as non-extractable.
  const { publicKey, privateKey } = await generateKeyPair(RECEIPT_ALG, { extractable: true });
  const [publicJwk, privateJwk] = await Promise.all([exportJWK(publicKey), exportJWK(privateKey)]);
  if (!isReceiptPrivateJwk(privateJwk)) throw new Error('generateKeyPair returned an unexpected private key');
  return {
    kid: newId('signingKey'),
    alg: RECEIPT_ALG,
    publicJwk: toPublicJwk(publicJwk as ReceiptPublicJwk),
    privateJwk: { kty: 'EC', crv: 'P-256', x: privateJwk.x, y: privateJwk.y, d: privateJwk.d },
    createdAt: options.now?.() ?? new Date(),
  };
}
