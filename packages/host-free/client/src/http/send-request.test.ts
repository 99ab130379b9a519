import { describe, expect, it } from 'vitest';
import { isSessClientError } from '../errors/sess-client-error.ts';
import { resolveIdempotencyKey } from './send-request.ts';

describe('resolveIdempotencyKey', () => {
  it('makes a fresh UUID per write when none is given', () => {
    const first = resolveIdempotencyKey('createSession', undefined);
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(resolveIdempotencyKey('createSession', undefined)).not.toBe(first);
  });

  it.each(['k', 'a'.repeat(255), 'order-42/step:1', '!~'])('takes the caller key %s as it is', (key) => {
    expect(resolveIdempotencyKey('createSession', key)).toBe(key);
  });

  it.each([
    ['an empty key', ''],
    ['a key over 255 characters', 'a'.repeat(256)],
    ['a key with a space', 'two words'],
    ['a key with a line break', 'key\r\nx-evil: 1'],
    ['a key with non-ASCII', 'clé'],
    ['a key with a NUL', 'key\u0000'],
  ])('refuses %s with configuration before sending', (_name, key) => {
    try {
      resolveIdempotencyKey('publishSession', key);
      throw new Error('accepted');
    } catch (error) {
      expect(isSessClientError(error, 'configuration')).toBe(true);
      expect(error).toMatchObject({ operation: 'publishSession', sent: false });
    }
  });
});
