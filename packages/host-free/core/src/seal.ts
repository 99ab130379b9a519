import { createCipheriv, createDecipheriv, hkdfSync } from 'node:crypto';
import { randomBytesFast } from './random.ts';

/*
 * Sealing at rest, one way for every package: AES-256-GCM under a key derived with
 * HKDF-SHA256 from a secret and a purpose label (`info`), so one server secret yields an
 * independent key per purpose and the raw secret is never a key. A random 96-bit IV per value,
 * and additional data that binds the value to its row (a sealed value copied onto another row
 * does not open).
 *
 * Format: `v1.<iv>.<ciphertext>.<tag>`, each part canonical base64url.
 */
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Why a sealed value did not open. `unreadable`: another key or additional data, or altered. */
export type OpenFailure = 'malformed' | 'unsupported_version' | 'unreadable';

export class SealOpenError extends Error {
  constructor(readonly reason: OpenFailure) {
    super(`sealed value did not open (${reason})`);
    this.name = 'SealOpenError';
  }
}

export interface Sealer {
  /** Seals UTF-8 text bound to `aad`. */
  seal(aad: string, plaintext: string): string;
  /** The text sealed under `aad`. @throws SealOpenError */
  open(aad: string, sealed: string): string;
}

/** Strict base64url: only the canonical spelling, so a sealed value has exactly one text form. */
function decodePart(part: string | undefined): Buffer | undefined {
  if (part === undefined || !/^[A-Za-z0-9_-]+$/.test(part)) return undefined;
  const bytes = Buffer.from(part, 'base64url');
  return bytes.toString('base64url') === part ? bytes : undefined;
}

/** A sealer whose key is HKDF-SHA256(`secret`, info = `info`); derive it once and keep it. */
export function createSealer(secret: string, info: string): Sealer {
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), info, 32));
  return {
    seal(aad, plaintext) {
      const iv = randomBytesFast(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(aad, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `${VERSION}.${iv.toString('base64url')}.${ciphertext.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
    },
    open(aad, sealed) {
      const parts = sealed.split('.');
      if (parts.length !== 4) throw new SealOpenError('malformed');
      if (parts[0] !== VERSION) throw new SealOpenError('unsupported_version');
      const iv = decodePart(parts[1]);
      const ciphertext = parts[2] === '' ? Buffer.alloc(0) : decodePart(parts[2]);
      const tag = decodePart(parts[3]);
      if (iv?.length !== IV_BYTES || ciphertext === undefined || tag?.length !== TAG_BYTES) {
        throw new SealOpenError('malformed');
      }
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
        decipher.setAAD(Buffer.from(aad, 'utf8'));
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
      } catch {
        throw new SealOpenError('unreadable');
      }
    },
  };
}
