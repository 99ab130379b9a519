import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { SessError } from '@sess/core';
import { isReceiptPrivateJwk, type ReceiptPrivateJwk } from './receipt-jwk.ts';

/**
 * At-rest encryption of receipt private keys with the server secret (`SESS_SECRET`).
 *
 * Format: `v1.<iv>.<ciphertext>.<tag>`, each part base64url. AES-256-GCM with a random 96-bit
 * IV; the AES key is HKDF-SHA256(secret, info = SEAL_INFO), so the raw secret is never used as a
 * key and this key cannot collide with any other key derived from the same secret. The kid is
 * bound as additional authenticated data, so a sealed key copied onto another row fails to open.
 */

const VERSION = 'v1';
/** HKDF `info`: names the purpose and version; a future format gets a new label. */
const SEAL_INFO = 'sess/receipts/signing-key-seal/v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The server secret must carry at least 256 bits; HKDF cannot add entropy that is not there. */
export const MIN_SECRET_BYTES = 32;

/** Why a sealed key could not be opened (in `SessError.details.reason`). */
export type SealedKeyFailure =
  | 'SECRET_TOO_SHORT'
  | 'SEALED_KEY_MALFORMED'
  | 'SEALED_KEY_UNSUPPORTED_VERSION'
  | 'SEALED_KEY_UNREADABLE';

function configurationError(reason: SealedKeyFailure, message: string, kid?: string, cause?: unknown): SessError {
  return new SessError('NOT_CONFIGURED', message, kid === undefined ? { reason } : { reason, kid }, { cause });
}

function deriveKey(secret: string): Buffer {
  const ikm = Buffer.from(secret, 'utf8');
  if (ikm.length < MIN_SECRET_BYTES) {
    throw configurationError('SECRET_TOO_SHORT', `SESS_SECRET must be at least ${MIN_SECRET_BYTES} bytes`);
  }
  return Buffer.from(hkdfSync('sha256', ikm, Buffer.alloc(0), SEAL_INFO, 32));
}

function aad(kid: string): Buffer {
  return Buffer.from(`${VERSION}:${kid}`, 'utf8');
}

/** Strict base64url: canonical spelling only, so one sealed value has exactly one text form. */
function decodePart(part: string | undefined): Buffer | undefined {
  if (part === undefined || !/^[A-Za-z0-9_-]+$/.test(part)) return undefined;
  const bytes = Buffer.from(part, 'base64url');
  return bytes.toString('base64url') === part ? bytes : undefined;
}

/**
 * Encrypts a private JWK for storage in `signing_keys`, bound to its `kid`.
 * @throws SessError `NOT_CONFIGURED` (reason `SECRET_TOO_SHORT`) for a weak secret.
 */
export function sealPrivateJwk(secret: string, key: { kid: string; privateJwk: ReceiptPrivateJwk }): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', deriveKey(secret), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad(key.kid));
  const plaintext = Buffer.from(JSON.stringify(key.privateJwk), 'utf8');
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return [VERSION, iv, ciphertext, cipher.getAuthTag()]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/**
 * Decrypts a sealed private JWK stored under `kid`.
 * @throws SessError `NOT_CONFIGURED` with `details.reason`: `SEALED_KEY_UNREADABLE` when the
 * secret differs from the one that sealed it, the value was altered or it belongs to another
 * kid (GCM cannot tell these apart, by design); `SEALED_KEY_MALFORMED` or
 * `SEALED_KEY_UNSUPPORTED_VERSION` for a value that is not a sealed key of this format.
 */
export function openPrivateJwk(secret: string, key: { kid: string; sealed: string }): ReceiptPrivateJwk {
  const parts = key.sealed.split('.');
  if (parts.length !== 4) throw configurationError('SEALED_KEY_MALFORMED', `Signing key ${key.kid} is not a sealed key`, key.kid);
  if (parts[0] !== VERSION) {
    throw configurationError('SEALED_KEY_UNSUPPORTED_VERSION', `Signing key ${key.kid} uses an unsupported seal format`, key.kid);
  }
  const [iv, ciphertext, tag] = [decodePart(parts[1]), decodePart(parts[2]), decodePart(parts[3])];
  if (iv?.length !== IV_BYTES || ciphertext === undefined || tag?.length !== TAG_BYTES) {
    throw configurationError('SEALED_KEY_MALFORMED', `Signing key ${key.kid} is not a sealed key`, key.kid);
  }
  const derived = deriveKey(secret);
  let plaintext: Buffer;
  try {
    const decipher = createDecipheriv('aes-256-gcm', derived, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(aad(key.kid));
    decipher.setAuthTag(tag);
    plaintext = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  } catch (cause) {
    throw configurationError(
      'SEALED_KEY_UNREADABLE',
      `Signing key ${key.kid} cannot be opened: SESS_SECRET differs from the one that sealed it, or the stored key was altered`,
      key.kid,
      cause,
    );
  }
  let jwk: unknown;
  try {
    jwk = JSON.parse(plaintext.toString('utf8'));
  } catch {
    jwk = undefined;
  }
  if (!isReceiptPrivateJwk(jwk)) {
    throw configurationError('SEALED_KEY_MALFORMED', `Signing key ${key.kid} does not hold a P-256 private key`, key.kid);
  }
  return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, d: jwk.d };
}
