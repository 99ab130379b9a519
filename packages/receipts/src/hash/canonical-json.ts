import { createHash } from 'node:crypto';

/**
 * JSON with object members sorted by UTF-16 code units and no whitespace (RFC 8785, JCS).
 * Why it exists: a Surface or answer stored in PostgreSQL `jsonb` comes back with its keys
 * reordered, so hashing `JSON.stringify` output would not survive a round trip through the
 * database; hashing the canonical form does. Members whose value is `undefined` are left out
 * and `toJSON` is honoured, as `JSON.stringify` does.
 * @throws TypeError on a value JSON cannot represent (non-finite number, bigint, function, symbol).
 * @see https://www.rfc-editor.org/rfc/rfc8785#section-3.2
 */
export function canonicalJson(value: unknown): string {
  const out = serialize(value);
  if (out === undefined) throw new TypeError('value has no JSON representation');
  return out;
}

function serialize(input: unknown): string | undefined {
  const value =
    typeof input === 'object' && input !== null && typeof (input as { toJSON?: unknown }).toJSON === 'function'
      ? (input as { toJSON: () => unknown }).toJSON()
      : input;
  switch (typeof value) {
    case 'undefined':
      return undefined;
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      // ECMAScript number serialization is exactly what JCS prescribes.
      if (!Number.isFinite(value)) throw new TypeError('non-finite numbers have no JSON representation');
      return JSON.stringify(value);
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) return `[${value.map((item) => serialize(item) ?? 'null').join(',')}]`;
      const members: string[] = [];
      for (const key of Object.keys(value).sort()) {
        const member = serialize((value as Record<string, unknown>)[key]);
        if (member !== undefined) members.push(`${JSON.stringify(key)}:${member}`);
      }
      return `{${members.join(',')}}`;
    }
    default:
      throw new TypeError(`a ${typeof value} has no JSON representation`);
  }
}

/** Lower-case hex SHA-256 of a string (as UTF-8) or bytes: the spelling receipts carry. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Lower-case hex SHA-256 of `canonicalJson(value)`: one hash for a Surface or an answer wherever it is computed. */
export function sha256CanonicalJson(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
