import { describe, expect, it } from 'vitest';
import { canonicalJson, sha256CanonicalJson, sha256Hex } from './canonical-json.ts';

describe('canonicalJson', () => {
  it('sorts members at every depth and drops whitespace', () => {
    expect(canonicalJson({ b: [{ z: 1, a: 2 }], a: 'x' })).toBe('{"a":"x","b":[{"a":2,"z":1}]}');
  });

  it('sorts by UTF-16 code units, not as JavaScript orders integer-like keys', () => {
    expect(canonicalJson({ 9: 'nine', 10: 'ten', a: 1 })).toBe('{"10":"ten","9":"nine","a":1}');
  });

  it('matches the RFC 8785 sorting example', () => {
    // RFC 8785, section 3.2.3: keys chosen to exercise UTF-16 ordering.
    const value = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\u{1f600}': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    // Read the members in text order (JSON.parse would move the integer-like key to the front).
    expect([...canonicalJson(value).matchAll(/:"([^"]*)"/g)].map((match) => match[1])).toEqual([
      'Carriage Return',
      'One',
      'Control',
      'Latin Small Letter O With Diaeresis',
      'Euro Sign',
      'Emoji: Grinning Face',
      'Hebrew Letter Dalet With Dagesh',
    ]);
  });

  it('gives the same text whatever the member order (a jsonb round trip)', () => {
    expect(canonicalJson({ approve: true, note: 'ok', n: 1.5 })).toBe(canonicalJson({ n: 1.5, note: 'ok', approve: true }));
  });

  it('leaves out undefined members and writes undefined array items as null, like JSON.stringify', () => {
    expect(canonicalJson({ a: undefined, b: [undefined, 1] })).toBe('{"b":[null,1]}');
  });

  it('refuses values JSON cannot hold', () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, 1n, () => 1, undefined]) {
      expect(() => canonicalJson(value)).toThrow(TypeError);
    }
  });
});

describe('sha256Hex', () => {
  it('is lower-case hex (FIPS 180-2 "abc" vector)', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex(new TextEncoder().encode('abc'))).toBe(sha256Hex('abc'));
  });

  it('sha256CanonicalJson hashes the canonical text', () => {
    expect(sha256CanonicalJson({ b: 1, a: 2 })).toBe(sha256Hex('{"a":2,"b":1}'));
  });
});
