import { describe, expect, it } from 'vitest';
import { type AnswerContext, classifyErrorAnswer } from './classify-error-answer.ts';

const read: AnswerContext = {
  operation: 'readSession',
  write: false,
  idempotencyKey: undefined,
  status: 404,
  requestId: 'req_1',
  retryAfterSeconds: undefined,
};
const write: AnswerContext = { ...read, operation: 'publishSession', write: true, idempotencyKey: 'key-1' };

const body = (error: Record<string, unknown>) => ({ error, requestId: 'req_1' });

describe('classifyErrorAnswer', () => {
  it("is api with the server's code, message and retryable", () => {
    const error = classifyErrorAnswer(body({ code: 'NOT_FOUND', message: 'No such session.', retryable: false }), read);
    expect(error).toMatchObject({
      kind: 'api',
      code: 'NOT_FOUND',
      message: 'No such session.',
      retryable: false,
      status: 404,
      requestId: 'req_1',
      sent: true,
    });
  });

  it('carries field, limit and length of INVALID_ARGUMENTS', () => {
    const error = classifyErrorAnswer(
      body({
        code: 'INVALID_ARGUMENTS',
        message: '/interaction/title is 90 characters; the limit is 80.',
        retryable: false,
        field: '/interaction/title',
        limit: 80,
        length: 90,
      }),
      { ...write, status: 400 },
    );
    expect(error).toMatchObject({ kind: 'api', code: 'INVALID_ARGUMENTS', field: '/interaction/title', limit: 80, length: 90 });
  });

  it('carries currentRevision of REVISION_MISMATCH and the idempotency key of the write', () => {
    const error = classifyErrorAnswer(
      body({ code: 'REVISION_MISMATCH', message: 'The session is at revision 2.', retryable: false, currentRevision: 2 }),
      { ...write, status: 409 },
    );
    expect(error).toMatchObject({ kind: 'api', code: 'REVISION_MISMATCH', currentRevision: 2, idempotencyKey: 'key-1' });
  });

  it('takes a retryable server error (503 SESS_UNAVAILABLE) with Retry-After in details', () => {
    const error = classifyErrorAnswer(body({ code: 'SESS_UNAVAILABLE', message: 'Try again.', retryable: true }), {
      ...write,
      status: 503,
      retryAfterSeconds: 5,
    });
    expect(error).toMatchObject({ kind: 'api', code: 'SESS_UNAVAILABLE', retryable: true });
    expect(error.details).toMatchObject({ retryAfterSeconds: 5 });
  });

  it('keeps a code this client does not know yet as api (a newer server), not protocol', () => {
    const error = classifyErrorAnswer(body({ code: 'SOMETHING_NEW', message: 'New.', retryable: true, extra: 1 }), {
      ...read,
      status: 422,
    });
    expect(error).toMatchObject({ kind: 'api', code: 'SOMETHING_NEW', retryable: true });
    expect(error.details).toMatchObject({ extra: 1 });
  });

  it.each([401, 403])('is configuration for %i, with or without a Sess body', (status) => {
    const withBody = classifyErrorAnswer(body({ code: 'UNAUTHORIZED', message: 'Bad key.', retryable: false }), {
      ...read,
      status,
    });
    expect(withBody).toMatchObject({ kind: 'configuration', code: 'UNAUTHORIZED', retryable: false, status });
    expect(classifyErrorAnswer(undefined, { ...read, status })).toMatchObject({ kind: 'configuration', status });
  });

  it('a 5xx without a Sess body (a gateway) is unknown_outcome for a write and transport for a read', () => {
    expect(classifyErrorAnswer('<html>Bad Gateway</html>', { ...write, status: 502 })).toMatchObject({
      kind: 'unknown_outcome',
      retryable: true,
      idempotencyKey: 'key-1',
    });
    expect(classifyErrorAnswer(undefined, { ...read, status: 504 })).toMatchObject({ kind: 'transport', retryable: true });
  });

  it.each<[string, unknown]>([
    ['no body', undefined],
    ['an HTML page', '<html>Not Found</html>'],
    ['an error without retryable', { error: { code: 'NOT_FOUND', message: 'x' } }],
    ['an error that is a string', { error: 'NOT_FOUND' }],
    ['null', null],
  ])('a 4xx with %s is protocol', (_name, json) => {
    expect(classifyErrorAnswer(json, read)).toMatchObject({ kind: 'protocol', retryable: false, status: 404 });
  });
});
