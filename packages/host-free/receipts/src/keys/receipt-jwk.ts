import { type CryptoKey, importJWK } from 'jose';
import { RECEIPT_ALG } from '../receipt/receipt-claims.ts';

/** The public half of a receipt key: a P-256 EC JWK holding only key material. */
export interface ReceiptPublicJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
}

/** The private half (`d`) with its public point. Only ever stored sealed. */
export interface ReceiptPrivateJwk extends ReceiptPublicJwk {
  d: string;
}

const B64URL = /^[A-Za-z0-9_-]+$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for a P-256 EC JWK with base64url coordinates (private members are not checked or required). */
export function isReceiptPublicJwk(value: unknown): value is ReceiptPublicJwk {
  return (
    isRecord(value) &&
    value['kty'] === 'EC' &&
    value['crv'] === 'P-256' &&
    typeof value['x'] === 'string' &&
    B64URL.test(value['x']) &&
    typeof value['y'] === 'string' &&
    B64URL.test(value['y'])
  );
}

/** True for a P-256 EC JWK that carries its private scalar `d`. */
export function isReceiptPrivateJwk(value: unknown): value is ReceiptPrivateJwk {
  if (!isReceiptPublicJwk(value)) return false;
  const d: unknown = (value as unknown as { d?: unknown }).d;
  return typeof d === 'string' && B64URL.test(d);
}

/**
 * Copies only the public key material. Picking fields (rather than deleting `d`) means no
 * private or unexpected member can ever reach a published document.
 */
export function toPublicJwk(jwk: ReceiptPublicJwk): ReceiptPublicJwk {
  return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y };
}

/**
 * Imports a public key for ES256 verification. A fresh, minimal JWK is imported so stray
 * `key_ops`, `ext` or `alg` members of a fetched key cannot change how it is used.
 */
export async function importReceiptPublicKey(jwk: ReceiptPublicJwk): Promise<CryptoKey> {
  const key = await importJWK(toPublicJwk(jwk), RECEIPT_ALG, { extractable: true });
  if (key instanceof Uint8Array) throw new TypeError('expected an asymmetric key');
  return key;
}

/** Imports a private key for ES256 signing, not extractable: once imported it can only sign. */
export async function importReceiptPrivateKey(jwk: ReceiptPrivateJwk): Promise<CryptoKey> {
  const key = await importJWK({ kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, d: jwk.d }, RECEIPT_ALG, { extractable: false });
  if (key instanceof Uint8Array) throw new TypeError('expected an asymmetric key');
  return key;
}
