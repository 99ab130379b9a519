import { KeyObject, sign, verify } from 'node:crypto';
import type { CryptoKey } from 'jose';

/*
 * ES256 (ECDSA P-256 with SHA-256, the signature as r‖s: RFC 7518 §3.4) with node:crypto, done
 * synchronously. WebCrypto, which jose signs and verifies with, sends every operation to libuv's
 * thread pool and converts its arguments on the way: a hop there and back on each answer (its
 * receipt is signed when the person answers and verified when the agent's wait wakes) that cost
 * as much again as the operation itself (30–60 µs), and several times more at p99. Keys stay
 * CryptoKeys everywhere else; each is made a KeyObject once.
 */

const keyObjects = new WeakMap<CryptoKey, KeyObject>();

/** `key` as a KeyObject when it is a P-256 key of that type; undefined for any other key. */
function p256(key: CryptoKey, type: 'public' | 'private'): KeyObject | undefined {
  let object = keyObjects.get(key);
  if (!object) {
    try {
      object = KeyObject.from(key);
    } catch {
      return undefined;
    }
    keyObjects.set(key, object);
  }
  const isP256 = object.asymmetricKeyType === 'ec' && object.asymmetricKeyDetails?.namedCurve === 'prime256v1';
  return isP256 && object.type === type ? object : undefined;
}

/**
 * The base64url ES256 signature of `signingInput` (`header.payload`).
 * @throws TypeError when `key` is not a P-256 private key
 */
export function signEs256(key: CryptoKey, signingInput: string): string {
  const object = p256(key, 'private');
  if (!object) throw new TypeError('an ES256 signature needs a P-256 private key');
  return sign('sha256', Buffer.from(signingInput), { key: object, dsaEncoding: 'ieee-p1363' }).toString('base64url');
}

/** 64 bytes (r‖s) in base64url without padding. */
const SIGNATURE_LENGTH = 86;

/**
 * Whether `signature` (base64url) is an ES256 signature of `signingInput` by `key`. Any other
 * key (not P-256, or not public) verifies nothing. Only the one encoding of the 64 bytes is
 * accepted, so no second string verifies as the same receipt.
 */
export function verifyEs256(key: CryptoKey, signingInput: string, signature: string): boolean {
  const object = p256(key, 'public');
  if (!object || signature.length !== SIGNATURE_LENGTH) return false;
  const bytes = Buffer.from(signature, 'base64url');
  if (bytes.toString('base64url') !== signature) return false;
  return verify('sha256', Buffer.from(signingInput), { key: object, dsaEncoding: 'ieee-p1363' }, bytes);
}
