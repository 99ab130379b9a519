import { createHash } from 'node:crypto';

/*
 * Canonical JSON for receipts: object keys sorted by Unicode code point at every level, no
 * insignificant whitespace, arrays in order, strings and numbers as `JSON.stringify` writes
 * them (the ECMAScript number-to-string rules are exact, so every machine writes the same
 * digits; -0 is written 0). Properties whose value is `undefined` are absent, as in JSON.
 * Anything JSON cannot carry (non-finite numbers, bigint, functions, symbols, `undefined` in
 * an array, cycles) is refused with a TypeError rather than silently changed. A `toJSON`
 * method is honoured, as `JSON.stringify` does (a Date becomes its ISO string, not `{}`).
 * One implementation for every hash Sess computes (surfaces, answers, idempotent request
 * bodies), so a value hashed in one package verifies in another.
 */

// JavaScript sorts strings by UTF-16 unit; shifting surrogates above U+E000-U+FFFF turns that
// into code-point order without decoding.
function codePointOrderUnit(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit <= 0xdfff ? unit + 0x2000 : unit - 0x800;
}

/** Compares two strings by Unicode code point (not by UTF-16 unit, as `Array.prototype.sort` does). */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointOrderUnit(x) - codePointOrderUnit(y);
  }
  return a.length - b.length;
}

const ABOVE_SURROGATES = /[\uD800-\uFFFF]/;

function write(input: unknown, ancestors: Set<object>): string {
  const value =
    typeof input === 'object' && input !== null && typeof (input as { toJSON?: unknown }).toJSON === 'function'
      ? (input as { toJSON: () => unknown }).toJSON()
      : input;
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: ${value} is not a finite number`);
      return JSON.stringify(value);
    case 'object': {
      if (ancestors.has(value)) throw new TypeError('canonicalJson: the value contains a cycle');
      ancestors.add(value);
      let out: string;
      if (Array.isArray(value)) {
        out = `[${value.map((item) => (item === undefined ? fail('undefined in an array') : write(item, ancestors))).join(',')}]`;
      } else {
        const record = value as Record<string, unknown>;
        const keys = Object.keys(record).filter((key) => record[key] !== undefined);
        // UTF-16 order is code-point order unless a key holds a unit at or above U+D800; the
        // default sort is several times faster than a comparator, so use it when it agrees.
        keys.sort(keys.some((key) => ABOVE_SURROGATES.test(key)) ? compareCodePoints : undefined);
        out = `{${keys.map((key) => `${JSON.stringify(key)}:${write(record[key], ancestors)}`).join(',')}}`;
      }
      ancestors.delete(value);
      return out;
    }
    default:
      return fail(`a ${typeof value} is not JSON`);
  }
}

function fail(reason: string): never {
  throw new TypeError(`canonicalJson: ${reason}`);
}

/** The canonical JSON text of a JSON value (see the rules above). */
export function canonicalJson(value: unknown): string {
  return write(value, new Set());
}

/** Lower-case hex SHA-256 of a string (as UTF-8) or of bytes. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Lower-case hex SHA-256 of `canonicalJson(value)`. */
export function sha256CanonicalJson(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
