import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { TokenResponse } from './token-response.ts';

/**
 * The refresh grace window keeps the token response a rotation produced, so presenting the
 * rotated token again within the window returns the very same pair. That response holds live
 * tokens, so it is sealed (AES-256-GCM) under a key derived from the rotated refresh token
 * itself: only someone who holds that token can open it, and the database (which stores only the
 * token's SHA-256) cannot. The row id is bound as additional authenticated data.
 *
 * Format: `v1.<iv>.<ciphertext>.<tag>`, base64url parts.
 */
const INFO = 'sess/oauth/refresh-grace/v1';

function keyFor(refreshToken: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(refreshToken, 'utf8'), Buffer.alloc(0), INFO, 32));
}

/** Seals `response` for the row `rowId` under `refreshToken` (the token being rotated). */
export function sealGraceResponse(refreshToken: string, rowId: string, response: TokenResponse): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(refreshToken), iv);
  cipher.setAAD(Buffer.from(rowId, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(response), 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), ciphertext.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

/** Opens a sealed grace response, or null when it cannot be (wrong token, altered, other row). */
export function openGraceResponse(refreshToken: string, rowId: string, sealed: string): TokenResponse | null {
  const [version, iv, ciphertext, tag] = sealed.split('.');
  if (version !== 'v1' || !iv || !ciphertext || !tag) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyFor(refreshToken), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(rowId, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const plaintext = Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]);
    return JSON.parse(plaintext.toString('utf8')) as TokenResponse;
  } catch {
    return null;
  }
}
