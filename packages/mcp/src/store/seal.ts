import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/*
 * The link and the answer data in a handle record are sealed at rest: AES-256-GCM with a key
 * derived from the server secret (HKDF-SHA256, its own info string so the key is used for
 * nothing else), a random 96-bit IV, and the handle as additional data, so a sealed value
 * copied onto another row does not open.
 */

const VERSION = 'v1';
const INFO = 'sess mcp handle seal v1';

/** A sealer bound to one secret; derive it once at start-up. */
export interface Sealer {
  seal(handle: string, value: unknown): string;
  /** Throws when the value was not sealed with this secret for this handle. */
  open(handle: string, sealed: string): unknown;
}

export function createSealer(secret: string): Sealer {
  if (secret.length < 32) throw new Error('The server secret must be at least 32 characters to seal handle records.');
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), INFO, 32));
  return {
    seal(handle, value) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(handle, 'utf8'));
      const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${VERSION}.${iv.toString('base64url')}.${body.toString('base64url')}`;
    },
    open(handle, sealed) {
      const [version, ivText, bodyText] = sealed.split('.');
      if (version !== VERSION || !ivText || !bodyText) throw new Error('not a sealed handle value');
      const body = Buffer.from(bodyText, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(ivText, 'base64url'));
      decipher.setAAD(Buffer.from(handle, 'utf8'));
      decipher.setAuthTag(body.subarray(body.length - 16));
      const plain = Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]);
      return JSON.parse(plain.toString('utf8'));
    },
  };
}
