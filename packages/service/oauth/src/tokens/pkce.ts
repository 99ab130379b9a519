import { createHash } from 'node:crypto';
import { safeEqual } from '@sess/core';

// RFC 7636 §4.1: code-verifier = 43*128unreserved.
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** True for a well-formed code verifier. */
export function isCodeVerifier(value: string | null): value is string {
  return value !== null && VERIFIER.test(value);
}

/**
 * The S256 code challenge of a verifier: BASE64URL(SHA256(ASCII(code_verifier))).
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-4.2
 */
export function pkceS256Challenge(codeVerifier: string): string {
  return createHash('sha256').update(codeVerifier, 'ascii').digest('base64url');
}

/**
 * The S256 check: the verifier's challenge equals `code_challenge`, compared in constant time.
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-4.6
 */
export function verifyPkceS256(codeVerifier: string, codeChallenge: string): boolean {
  return safeEqual(pkceS256Challenge(codeVerifier), codeChallenge);
}
