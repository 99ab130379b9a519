import { createSealer, SealOpenError, SessError } from '@sess/core';
import { isReceiptPrivateJwk, type ReceiptPrivateJwk } from './receipt-jwk.ts';

/**
 * At-rest encryption of receipt private keys with the server secret (`SESS_SECRET`), by
 * @sess/core's seal: AES-256-GCM, `v1.<iv>.<ciphertext>.<tag>`, the key HKDF-SHA256(secret,
 * info = SEAL_INFO), so the raw secret is never used as a key and this key cannot collide with
 * any other key derived from the same secret. The kid is bound as additional authenticated data,
 * so a sealed key copied onto another row fails to open.
 */

/** HKDF `info`: names the purpose and version; a future format gets a new label. */
const SEAL_INFO = 'sess/receipts/signing-key-seal/v1';
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

function sealerFor(secret: string) {
  if (Buffer.byteLength(secret, 'utf8') < MIN_SECRET_BYTES) {
    throw configurationError('SECRET_TOO_SHORT', `SESS_SECRET must be at least ${MIN_SECRET_BYTES} bytes`);
  }
  return createSealer(secret, SEAL_INFO);
}

const aad = (kid: string) => `v1:${kid}`;

/**
 * Encrypts a private JWK for storage in `signing_keys`, bound to its `kid`.
 * @throws SessError `NOT_CONFIGURED` (reason `SECRET_TOO_SHORT`) for a weak secret.
 */
export function sealPrivateJwk(secret: string, key: { kid: string; privateJwk: ReceiptPrivateJwk }): string {
  return sealerFor(secret).seal(aad(key.kid), JSON.stringify(key.privateJwk));
}

/**
 * Decrypts a sealed private JWK stored under `kid`.
 * @throws SessError `NOT_CONFIGURED` with `details.reason`: `SEALED_KEY_UNREADABLE` when the
 * secret differs from the one that sealed it, the value was altered or it belongs to another
 * kid (GCM cannot tell these apart, by design); `SEALED_KEY_MALFORMED` or
 * `SEALED_KEY_UNSUPPORTED_VERSION` for a value that is not a sealed key of this format.
 */
export function openPrivateJwk(secret: string, key: { kid: string; sealed: string }): ReceiptPrivateJwk {
  let plaintext: string;
  try {
    plaintext = sealerFor(secret).open(aad(key.kid), key.sealed);
  } catch (cause) {
    if (!(cause instanceof SealOpenError)) throw cause;
    if (cause.reason === 'malformed')
      throw configurationError('SEALED_KEY_MALFORMED', `Signing key ${key.kid} is not a sealed key`, key.kid);
    if (cause.reason === 'unsupported_version') {
      throw configurationError(
        'SEALED_KEY_UNSUPPORTED_VERSION',
        `Signing key ${key.kid} uses an unsupported seal format`,
        key.kid,
      );
    }
    throw configurationError(
      'SEALED_KEY_UNREADABLE',
      `Signing key ${key.kid} cannot be opened: SESS_SECRET differs from the one that sealed it, or the stored key was altered`,
      key.kid,
      cause,
    );
  }
  let jwk: unknown;
  try {
    jwk = JSON.parse(plaintext);
  } catch {
    jwk = undefined;
  }
  if (!isReceiptPrivateJwk(jwk)) {
    throw configurationError('SEALED_KEY_MALFORMED', `Signing key ${key.kid} does not hold a P-256 private key`, key.kid);
  }
  return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, d: jwk.d };
}
