import type { CryptoKey } from 'jose';
import { RECEIPT_ALG } from '../receipt/receipt-claims.ts';
import { importReceiptPrivateKey, isReceiptPrivateJwk, type ReceiptPrivateJwk } from './receipt-jwk.ts';

/** The active key, imported once. Hand it to `signReceipt`; it holds no extractable key material. */
export interface ReceiptSigner {
  readonly kid: string;
  readonly alg: typeof RECEIPT_ALG;
  readonly privateKey: CryptoKey;
}

/**
 * Imports the active private key once, as a non-extractable CryptoKey, so each signature costs
 * one ECDSA operation and no JWK parsing or key import.
 */
export async function createReceiptSigner(key: { kid: string; privateJwk: ReceiptPrivateJwk }): Promise<ReceiptSigner> {
  if (!isReceiptPrivateJwk(key.privateJwk)) throw new TypeError(`signing key ${key.kid} is not a P-256 private JWK`);
  const privateKey = await importReceiptPrivateKey(key.privateJwk);
  return Object.freeze({ kid: key.kid, alg: RECEIPT_ALG, privateKey });
}
