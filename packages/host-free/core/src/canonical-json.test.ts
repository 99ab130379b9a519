import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, compareCodePoints, sha256CanonicalJson, sha256Hex } from './canonical-json.ts';

// Vectors computed independently with Python: json.dumps(v, sort_keys=True, separators=(',', ':'),
// ensure_ascii=False), then hashlib.sha256 over its UTF-8 bytes. Python orders keys by code point.
const VECTORS = {
  answer: {
    value: { actionId: 'approve', values: { message: 'Greet users by first name', stars: 4, ok: true, food: ['City', 'Lake'] } },
    json: '{"actionId":"approve","values":{"food":["City","Lake"],"message":"Greet users by first name","ok":true,"stars":4}}',
    sha256: '9639e13d494fd125456bf89b2b424fdaad507dafda4238d54604c1e6ba76d3c5',
  },
  unicode: {
    value: { '😀': 1, '\ue000': 2, a: [3, 'é\u0301', null, false], B: { z: 0.5, y: -2 } },
    json: '{"B":{"y":-2,"z":0.5},"a":[3,"é\u0301",null,false],"\ue000":2,"😀":1}',
    sha256: '21815aa1338b48782c9119ed0630643fba58fca86b48b844b4dbe29b3eff891f',
  },
};

describe('canonicalJson', () => {
  it('matches the fixed vectors, byte for byte', () => {
    expect(canonicalJson(VECTORS.answer.value)).toBe(VECTORS.answer.json);
    expect(canonicalJson(VECTORS.unicode.value)).toBe(VECTORS.unicode.json);
  });

  it('sorts keys by code point, not by UTF-16 unit', () => {
    // U+E000 is one unit 0xE000; U+1F600 starts with 0xD83D, so a UTF-16 sort would put it first.
    expect(['😀', '\ue000'].sort()).toEqual(['😀', '\ue000']);
    expect(['😀', '\ue000'].sort(compareCodePoints)).toEqual(['\ue000', '😀']);
    expect(canonicalJson({ '😀': 1, '\ue000': 2 })).toBe('{"\ue000":2,"😀":1}');
    expect(compareCodePoints('a', 'ab')).toBeLessThan(0);
    expect(compareCodePoints('𝄞', '😀')).toBeLessThan(0);
  });

  it('writes numbers as ECMAScript does, -0 as 0', () => {
    expect(canonicalJson([0, -0, 1.5, 1e21, 1e-7, -12, 2 ** 53])).toBe('[0,0,1.5,1e+21,1e-7,-12,9007199254740992]');
  });

  it('honours toJSON as JSON.stringify does', () => {
    expect(canonicalJson({ at: new Date(0) })).toBe('{"at":"1970-01-01T00:00:00.000Z"}');
  });

  it('leaves out properties that are undefined, as JSON does', () => {
    expect(canonicalJson({ b: 1, a: undefined })).toBe('{"b":1}');
  });

  it.each<[string, unknown]>([
    ['NaN', { a: Number.NaN }],
    ['Infinity', [Number.POSITIVE_INFINITY]],
    ['undefined in an array', [undefined]],
    ['a bigint', 1n],
    ['a function', { f: () => 1 }],
    ['undefined at the top', undefined],
  ])('refuses %s', (_, value) => {
    expect(() => canonicalJson(value)).toThrow(TypeError);
  });

  it('refuses a cycle but accepts a shared (non-cyclic) object', () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(/cycle/);
  });

  it('is a fixed point of JSON.parse and ignores key order (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(canonicalJson(reverseKeys(value))).toBe(text);
      }),
    );
  });
});

function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, child]) => [key, reverseKeys(child)]),
  );
}

describe('sha256Hex', () => {
  it('is SHA-256 of UTF-8 (or bytes), in lower-case hex', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex(new TextEncoder().encode('abc'))).toBe(sha256Hex('abc'));
  });

  it('matches the fixed vectors through sha256CanonicalJson', () => {
    expect(sha256CanonicalJson(VECTORS.answer.value)).toBe(VECTORS.answer.sha256);
    expect(sha256CanonicalJson(VECTORS.unicode.value)).toBe(VECTORS.unicode.sha256);
  });
});
