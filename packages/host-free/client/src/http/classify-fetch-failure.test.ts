import { describe, expect, it } from 'vitest';
import { classifyFetchFailure, type FailureContext } from './classify-fetch-failure.ts';

const read: FailureContext = { operation: 'readSession', write: false, idempotencyKey: undefined, answered: false };
const write: FailureContext = { operation: 'createSession', write: true, idempotencyKey: 'key-1', answered: false };

/** What undici throws: a TypeError('fetch failed') with the socket's error as its cause. */
function fetchFailed(code: string): TypeError {
  return new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });
}

describe('classifyFetchFailure', () => {
  it("is aborted when the caller's signal fired, for reads and writes", () => {
    const error = new DOMException('This operation was aborted', 'AbortError');
    expect(classifyFetchFailure(error, 'aborted', read)).toMatchObject({ kind: 'aborted', retryable: false, sent: true });
    const aborted = classifyFetchFailure(error, 'aborted', write);
    expect(aborted).toMatchObject({ kind: 'aborted', idempotencyKey: 'key-1' });
    expect(aborted.message).toContain('same idempotencyKey');
  });

  it('is timeout for a read past its deadline', () => {
    const error = classifyFetchFailure(new DOMException('aborted', 'AbortError'), 'timeout', read);
    expect(error).toMatchObject({ kind: 'timeout', retryable: true, sent: true, operation: 'readSession' });
  });

  it('is unknown_outcome with the idempotency key for a write past its deadline', () => {
    const error = classifyFetchFailure(new DOMException('aborted', 'AbortError'), 'timeout', write);
    expect(error).toMatchObject({ kind: 'unknown_outcome', retryable: true, sent: true, idempotencyKey: 'key-1' });
  });

  it.each(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'CERT_HAS_EXPIRED'])(
    'is transport, not sent, when the connection was never made (%s), even for a write',
    (code) => {
      for (const context of [read, write]) {
        const error = classifyFetchFailure(fetchFailed(code), undefined, context);
        expect(error).toMatchObject({ kind: 'transport', sent: false, retryable: true, reason: code });
      }
    },
  );

  it('finds the code inside an AggregateError (happy eyeballs)', () => {
    const inner = Object.assign(new Error('connect'), { code: 'ECONNREFUSED' });
    const error = new TypeError('fetch failed', { cause: new AggregateError([inner], 'all failed') });
    expect(classifyFetchFailure(error, undefined, write)).toMatchObject({ kind: 'transport', sent: false });
  });

  it.each(['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE', undefined])(
    'is transport for a read and unknown_outcome for a write when the connection broke (%s)',
    (code) => {
      const cause = code ? fetchFailed(code) : new TypeError('terminated');
      expect(classifyFetchFailure(cause, undefined, read)).toMatchObject({ kind: 'transport', sent: true });
      expect(classifyFetchFailure(cause, undefined, write)).toMatchObject({
        kind: 'unknown_outcome',
        sent: true,
        idempotencyKey: 'key-1',
      });
    },
  );

  it('a refused-connection code after the headers arrived cannot mean nothing was sent', () => {
    const error = classifyFetchFailure(fetchFailed('ECONNREFUSED'), undefined, { ...write, answered: true, status: 200 });
    expect(error).toMatchObject({ kind: 'unknown_outcome', sent: true, status: 200 });
  });

  it('keeps the original error as cause, out of toJSON', () => {
    const cause = fetchFailed('ECONNRESET');
    const error = classifyFetchFailure(cause, undefined, read);
    expect(error.cause).toBe(cause);
    expect(error.toJSON()).not.toHaveProperty('cause');
  });
});
