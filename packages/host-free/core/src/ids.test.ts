import { describe, expect, it } from 'vitest';
import { base32, isId, newId } from './ids.ts';
import { childPointer, toPointer } from './json-pointer.ts';
import { hashSecret, newSecret, safeEqual } from './secrets.ts';

describe('ids', () => {
  it('are prefixed, 128-bit random and recognisable', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newId('session')));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(isId('session', id)).toBe(true);
    expect(isId('workspace', newId('session'))).toBe(false);
  });

  it('encode base32 per RFC 4648 (lower-case, unpadded)', () => {
    expect(base32(new TextEncoder().encode('foobar'))).toBe('mzxw6ytboi');
  });
});

describe('json pointers', () => {
  it('escape ~ and / per RFC 6901', () => {
    expect(toPointer(['interaction', 'source', 'components', 0, 'fields', 'a/b~c'])).toBe(
      '/interaction/source/components/0/fields/a~1b~0c',
    );
    expect(childPointer('', 'question')).toBe('/question');
    expect(toPointer([])).toBe('');
  });
});

describe('secrets', () => {
  it('are random, hashed with SHA-256 and compared in constant time', () => {
    const secret = newSecret();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(safeEqual(secret, secret)).toBe(true);
    expect(safeEqual(secret, `${secret}x`)).toBe(false);
    expect(safeEqual('a', 'b')).toBe(false);
  });
});
