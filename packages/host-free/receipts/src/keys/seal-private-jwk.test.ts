import { SessError } from '@sess/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshKeys } from '../test-fixtures.ts';
import type { SigningKey } from './generate-signing-key.ts';
import { openPrivateJwk, sealPrivateJwk } from './seal-private-jwk.ts';

const SECRET = 'k3Yq9v2rX8mN4bT7wZ1cF6hJ0sL5pD3gE8aR2uV9yQ0=';
let key: SigningKey;
let sealed: string;

beforeAll(async () => {
  [key] = (await freshKeys(1)) as [SigningKey];
  sealed = sealPrivateJwk(SECRET, key);
});

/** The `details.reason` of the SessError thrown by `fn`. */
function failureOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SessError);
    expect((error as SessError).code).toBe('NOT_CONFIGURED');
    return (error as SessError).details['reason'];
  }
  throw new Error('expected a throw');
}

/** Replaces one base64url part of a sealed value with the result of `change`. */
function alterPart(value: string, index: number, change: (bytes: Buffer) => void): string {
  const parts = value.split('.');
  const bytes = Buffer.from(parts[index]!, 'base64url');
  change(bytes);
  parts[index] = bytes.toString('base64url');
  return parts.join('.');
}

describe('sealPrivateJwk / openPrivateJwk', () => {
  it('round trips the private JWK', () => {
    expect(openPrivateJwk(SECRET, { kid: key.kid, sealed })).toEqual(key.privateJwk);
  });

  it('writes v1.<iv>.<ciphertext>.<tag> in base64url, with no key material in clear', () => {
    const [version, iv, ciphertext, tag] = sealed.split('.');
    expect(version).toBe('v1');
    expect(Buffer.from(iv!, 'base64url')).toHaveLength(12);
    expect(Buffer.from(tag!, 'base64url')).toHaveLength(16);
    expect(ciphertext!.length).toBeGreaterThan(0);
    expect(sealed).not.toContain(key.privateJwk.d);
  });

  it('uses a fresh IV each time', () => {
    expect(sealPrivateJwk(SECRET, key)).not.toBe(sealPrivateJwk(SECRET, key));
  });

  it('a wrong secret cannot open it', () => {
    expect(failureOf(() => openPrivateJwk(`${SECRET}x`, { kid: key.kid, sealed }))).toBe('SEALED_KEY_UNREADABLE');
  });

  it('a sealed key moved onto another kid cannot be opened (kid is authenticated data)', () => {
    expect(failureOf(() => openPrivateJwk(SECRET, { kid: 'sk_someotherkeyaaaaaaaaaaaaa', sealed }))).toBe(
      'SEALED_KEY_UNREADABLE',
    );
  });

  it.each([
    ['ciphertext', 2],
    ['tag', 3],
    ['IV', 1],
  ])('a tampered %s cannot be opened', (_name, index) => {
    const tampered = alterPart(sealed, index, (bytes) => {
      bytes[0] = bytes[0]! ^ 1;
    });
    expect(failureOf(() => openPrivateJwk(SECRET, { kid: key.kid, sealed: tampered }))).toBe('SEALED_KEY_UNREADABLE');
  });

  it('names the kid and the likely cause in the message', () => {
    expect(() => openPrivateJwk(`${SECRET}x`, { kid: key.kid, sealed })).toThrow(
      new RegExp(`Signing key ${key.kid} cannot be opened: SESS_SECRET differs`),
    );
  });

  it.each<[string, () => string]>([
    ['not sealed at all', () => '{"kty":"EC"}'],
    ['three parts', () => 'v1.AAAA.AAAA'],
    ['short IV', () => 'v1.AAAA.AAAA.AAAAAAAAAAAAAAAAAAAAAA'],
    ['non-canonical base64url', () => sealed.replace(/\.([^.]+)$/, '.$1=')],
  ])('%s is malformed', (_name, value) => {
    expect(failureOf(() => openPrivateJwk(SECRET, { kid: key.kid, sealed: value() }))).toBe('SEALED_KEY_MALFORMED');
  });

  it('another format version is refused as unsupported', () => {
    expect(failureOf(() => openPrivateJwk(SECRET, { kid: key.kid, sealed: sealed.replace(/^v1\./, 'v2.') }))).toBe(
      'SEALED_KEY_UNSUPPORTED_VERSION',
    );
  });

  it('a secret under 32 bytes is refused', () => {
    expect(failureOf(() => sealPrivateJwk('short', key))).toBe('SECRET_TOO_SHORT');
    expect(failureOf(() => openPrivateJwk('short', { kid: key.kid, sealed }))).toBe('SECRET_TOO_SHORT');
  });
});
