import { KeyObject, verify } from 'node:crypto';
import type { CryptoKey } from 'jose';

/** An ES256 signature in JWS form: r ‖ s, 32 bytes each (RFC 7518 §3.4), never DER. */
const ES256_SIGNATURE_BYTES = 64;

/**
 * The Node key object behind each imported verification key, converted once per key: the
 * conversion is not free, and a key set hands out the same CryptoKey for every receipt of a
 * kid. Keyed by the key object itself (not by kid), so a rotated key — a new CryptoKey, even
 * under the same kid — can never be served an old entry; entries go with their keys.
 */
const keyObjects = new WeakMap<CryptoKey, KeyObject | null>();

/** The P-256 public key object of `key`, or null when it is not one (fail closed). */
function p256KeyObject(key: CryptoKey): KeyObject | null {
  let keyObject = keyObjects.get(key);
  if (keyObject === undefined) {
    try {
      const candidate = KeyObject.from(key);
      const usable =
        candidate.type === 'public' &&
        candidate.asymmetricKeyType === 'ec' &&
        candidate.asymmetricKeyDetails?.namedCurve === 'prime256v1';
      keyObject = usable ? candidate : null;
    } catch {
      keyObject = null;
    }
    keyObjects.set(key, keyObject);
  }
  return keyObject;
}

/**
 * Checks an ES256 signature over a compact JWS's signing input (`header.payload`), synchronously.
 * WebCrypto's verify (what jose uses) is queued to the libuv thread pool and costs a round trip
 * through it on every answer; node:crypto's one-shot verify does the same ECDSA check in place.
 * The caller has already checked the header (alg ES256 only) and the segments' alphabet.
 * @see https://www.rfc-editor.org/rfc/rfc7515#section-5.2
 */
export function verifyEs256(signingInput: string, signature: string, key: CryptoKey): boolean {
  const keyObject = p256KeyObject(key);
  if (!keyObject) return false;
  const raw = Buffer.from(signature, 'base64url');
  if (raw.length !== ES256_SIGNATURE_BYTES) return false;
  try {
    return verify('sha256', Buffer.from(signingInput, 'ascii'), { key: keyObject, dsaEncoding: 'ieee-p1363' }, raw);
  } catch {
    return false;
  }
}
