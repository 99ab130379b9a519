import { createHash, timingSafeEqual } from 'node:crypto';
import { randomBytesFast } from './random.ts';

/**
 * Bearer secrets (links, API keys, codes, refresh tokens): random, shown once, stored only
 * as a SHA-256 hash. A 32-byte secret has 256 bits of entropy, so an unsalted fast hash is
 * the right tool: there is nothing to brute-force.
 */
export function newSecret(bytes = 32): string {
  return randomBytesFast(bytes).toString('base64url');
}

/** Hex SHA-256 of a bearer secret, the only form in which it is stored. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time equality of two strings (length leaks; contents do not). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}
