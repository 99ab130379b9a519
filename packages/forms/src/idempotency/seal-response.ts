import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/*
 * A create's stored response carries the link, a bearer secret. It is kept for the replay
 * window only, sealed with a key derived from the server secret (AES-256-GCM, HKDF info below),
 * bound to its idempotency key so it cannot be moved to another row.
 */
const INFO = 'sess/forms/idempotent-response/v1';
const cache = new Map<string, Buffer>();

function keyFor(secret: string): Buffer {
  let key = cache.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), INFO, 32));
    cache.set(secret, key);
  }
  return key;
}

/** Seals a JSON value: `v1.<iv>.<ciphertext>.<tag>` (base64url). */
export function sealResponse(secret: string, aad: string, value: unknown): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(secret), iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

/** Opens a sealed response. @throws Error when the secret or the binding differ (never expected). */
export function openResponse(secret: string, aad: string, sealed: string): unknown {
  const [version, iv, body, tag] = sealed.split('.');
  if (version !== 'v1' || !iv || body === undefined || !tag) throw new Error('not a sealed response');
  const decipher = createDecipheriv('aes-256-gcm', keyFor(secret), Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  const text = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  return JSON.parse(text);
}
