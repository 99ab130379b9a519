import { describe, expect, it } from 'vitest';
import { isSessClientError, type SessClientError } from '../errors/sess-client-error.ts';
import { createSessClient, type SessClientOptions } from './create-sess-client.ts';

const ORIGIN = 'https://api.sess.si';
const KEY = 'sess_test_key_not_a_real_one';

function configurationError(options: SessClientOptions): SessClientError {
  try {
    createSessClient(options);
  } catch (error) {
    if (isSessClientError(error, 'configuration')) return error;
    throw error;
  }
  throw new Error('createSessClient accepted the options');
}

/** A fetch that fails the test if anything calls it: configuration errors must come before any request. */
const noFetch = (() => {
  throw new Error('fetch was called');
}) as unknown as typeof fetch;

describe('createSessClient', () => {
  it('makes a client without any request, with the origin normalised', () => {
    const client = createSessClient({ origin: `${ORIGIN}/`, apiKey: KEY, fetch: noFetch });
    expect(client.origin).toBe(ORIGIN);
    expect(Object.keys(client.sessions).sort()).toEqual([
      'complete',
      'create',
      'events',
      'list',
      'publish',
      'read',
      'wait',
      'withdraw',
    ]);
    expect(Object.keys(client.asks).sort()).toEqual(['create', 'read', 'withdraw']);
    expect(typeof client.receipts.verifyResponse).toBe('function');
    expect(typeof client.receipts.verifyDecision).toBe('function');
    expect(Object.keys(client.webhooks).sort()).toEqual([
      'create',
      'delete',
      'deliveries',
      'list',
      'rotateSecret',
      'test',
      'verify',
    ]);
  });

  it('takes a credential provider instead of a key', () => {
    expect(createSessClient({ origin: ORIGIN, credential: async () => KEY, fetch: noFetch }).origin).toBe(ORIGIN);
  });

  it.each<[string, Partial<SessClientOptions>, RegExp]>([
    ['no key', {}, /apiKey \(or credential\) is required/],
    ['an empty key', { apiKey: '' }, /apiKey \(or credential\) is required/],
    ['a key that is not a string', { apiKey: 42 as unknown as string }, /apiKey \(or credential\) is required/],
    ['both a key and a credential', { apiKey: KEY, credential: async () => KEY }, /not both/],
    [
      'a credential that is not a function',
      { credential: KEY as unknown as () => Promise<string> },
      /credential must be a function/,
    ],
    ['a zero timeout', { apiKey: KEY, timeoutMs: 0 }, /timeoutMs/],
    ['a negative timeout', { apiKey: KEY, timeoutMs: -1 }, /timeoutMs/],
    ['an infinite timeout', { apiKey: KEY, timeoutMs: Number.POSITIVE_INFINITY }, /timeoutMs/],
    ['a timeout that is not a number', { apiKey: KEY, timeoutMs: Number.NaN }, /timeoutMs/],
    ['a user agent with a line break', { apiKey: KEY, userAgent: 'agent/1\r\nx-evil: 1' }, /userAgent/],
    ['a user agent with non-ASCII', { apiKey: KEY, userAgent: 'agent/1 ☃' }, /userAgent/],
    ['an over-long user agent', { apiKey: KEY, userAgent: 'a'.repeat(201) }, /userAgent/],
    ['a fetch that is not a function', { apiKey: KEY, fetch: 'fetch' as unknown as typeof fetch }, /fetch must be a function/],
    ['an expected workspace that is not a workspace id', { apiKey: KEY, expectedWorkspaceId: 'ses_abc' }, /expectedWorkspaceId/],
  ])('refuses %s with configuration', (_name, options, message) => {
    const error = configurationError({ origin: ORIGIN, fetch: noFetch, ...options } as SessClientOptions);
    expect(error).toMatchObject({ kind: 'configuration', operation: 'createSessClient', retryable: false, sent: false });
    expect(error.message).toMatch(message);
  });

  it('refuses a bad origin before anything else', () => {
    expect(configurationError({ origin: 'http://api.sess.si', apiKey: KEY }).message).toMatch(/https/);
    expect(configurationError({ origin: 'http://192.168.1.23:8787', apiKey: KEY }).message).toMatch(
      /plain http only to this computer/,
    );
    expect(createSessClient({ origin: 'http://localhost:8787', apiKey: KEY }).origin).toBe('http://localhost:8787');
  });

  it('never puts the key in an error', () => {
    const error = configurationError({ origin: ORIGIN, apiKey: KEY, credential: async () => KEY });
    expect(JSON.stringify(error)).not.toContain(KEY);
    expect(error.message).not.toContain(KEY);
  });
});
