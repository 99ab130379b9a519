import { createSessClient, SessClientError, type SessClientErrorInit } from '@sess/client';
import { isSessError, type SessError } from '@sess/core';
import { describe, expect, it } from 'vitest';
import { NotAppliedFailure } from '../ports/sess-backend.ts';
import { classifyBackendError } from '../verbs/handles.ts';
import { createHttpBackend, toBackendError } from './http-backend.ts';

/*
 * The seed's table, row by row: every client failure kind becomes what the port's error
 * contract says, and the tools' own classification then treats it as the seed says.
 */

const clientError = (init: Omit<SessClientErrorInit, 'message'>) => new SessClientError({ message: 'm', ...init });

function asSess(value: unknown): SessError {
  expect(isSessError(value), String(value)).toBe(true);
  return value as SessError;
}

describe('toBackendError', () => {
  it('api keeps the registry code with field, limit, length, reason and currentRevision', () => {
    const error = asSess(
      toBackendError(
        clientError({ kind: 'api', status: 400, code: 'INVALID_ARGUMENTS', field: '/expires_in', limit: 604800, length: 9 }),
        true,
      ),
    );
    expect(error.code).toBe('INVALID_ARGUMENTS');
    expect(error.details).toEqual({ field: '/expires_in', limit: 604800, length: 9 });
    expect(classifyBackendError(error).kind).toBe('rejected');
    const plan = asSess(toBackendError(clientError({ kind: 'api', status: 422, code: 'PLAN_LIMIT_REACHED' }), true));
    expect(plan.code).toBe('PLAN_LIMIT_REACHED');
    const revision = asSess(
      toBackendError(clientError({ kind: 'api', status: 409, code: 'REVISION_MISMATCH', currentRevision: 2 }), true),
    );
    expect(revision).toMatchObject({ code: 'REVISION_MISMATCH', details: { currentRevision: 2 } });
  });

  it('api 5xx is retryable SESS_UNAVAILABLE; a 429 was certainly not applied', () => {
    const down = asSess(
      toBackendError(clientError({ kind: 'api', status: 503, code: 'SESS_UNAVAILABLE', retryable: true }), true),
    );
    expect(down).toMatchObject({ code: 'SESS_UNAVAILABLE', retryable: true });
    expect(down).not.toBeInstanceOf(NotAppliedFailure);
    const internal = asSess(toBackendError(clientError({ kind: 'api', status: 500, code: 'INTERNAL', retryable: true }), false));
    expect(internal).toMatchObject({ code: 'SESS_UNAVAILABLE', retryable: true });
    const limited = toBackendError(clientError({ kind: 'api', status: 429, code: 'RATE_LIMITED', retryable: true }), true);
    expect(limited).toBeInstanceOf(NotAppliedFailure);
  });

  it('transport and timeout are SESS_UNAVAILABLE; a connection never made is NotAppliedFailure', () => {
    expect(toBackendError(clientError({ kind: 'transport', sent: false, reason: 'ECONNREFUSED' }), true)).toBeInstanceOf(
      NotAppliedFailure,
    );
    expect(asSess(toBackendError(clientError({ kind: 'transport', sent: true }), false))).toMatchObject({
      code: 'SESS_UNAVAILABLE',
      retryable: true,
    });
    expect(asSess(toBackendError(clientError({ kind: 'timeout', sent: true }), false))).toMatchObject({
      code: 'SESS_UNAVAILABLE',
      retryable: true,
    });
  });

  it('unknown_outcome is OUTCOME_UNKNOWN; a 2xx write whose answer does not parse is outcome-unknown too', () => {
    expect(asSess(toBackendError(clientError({ kind: 'unknown_outcome', sent: true }), true)).code).toBe('OUTCOME_UNKNOWN');
    expect(asSess(toBackendError(clientError({ kind: 'protocol', status: 201, sent: true }), true)).code).toBe('OUTCOME_UNKNOWN');
    expect(asSess(toBackendError(clientError({ kind: 'protocol', status: 200, sent: true }), false)).code).toBe(
      'SESS_PROTOCOL_ERROR',
    );
  });

  it('aborted ends a wait (an AbortError the tools read as needs_resume)', () => {
    const aborted = toBackendError(clientError({ kind: 'aborted', sent: true }), false);
    expect(classifyBackendError(aborted).kind).toBe('aborted');
  });

  it('configuration is NOT_CONFIGURED and protocol SESS_PROTOCOL_ERROR, neither retryable', () => {
    expect(asSess(toBackendError(clientError({ kind: 'configuration', status: 401 }), false))).toMatchObject({
      code: 'NOT_CONFIGURED',
      retryable: false,
    });
    expect(asSess(toBackendError(clientError({ kind: 'protocol', sent: true }), false))).toMatchObject({
      code: 'SESS_PROTOCOL_ERROR',
      retryable: false,
    });
  });

  it('a code this build does not know is not invented a meaning for', () => {
    expect(
      asSess(toBackendError(clientError({ kind: 'api', status: 409, code: 'NEWER_CODE', retryable: false }), true)).code,
    ).toBe('SESS_PROTOCOL_ERROR');
  });
});

describe('createHttpBackend', () => {
  it('without a key or a principal credential every call is NOT_CONFIGURED, and nothing is sent', async () => {
    let sent = 0;
    const backend = createHttpBackend({
      origin: 'https://api.sess.example',
      fetch: async () => {
        sent++;
        return new Response('{}');
      },
    });
    await expect(
      backend.readSession({ workspaceId: 'ws_x', principalId: 'usr_x' }, { sessionId: 'ses_x', revision: 1, waitMs: 0 }),
    ).rejects.toMatchObject({ code: 'NOT_CONFIGURED' });
    expect(sent).toBe(0);
    expect(backend.createWithHandle).toBeUndefined();
  });

  it('a bad origin is refused at construction, like the client refuses it', () => {
    expect(() => createHttpBackend({ origin: 'http://api.sess.example', apiKey: 'k' })).toThrow();
    expect(() => createSessClient({ origin: 'http://api.sess.example', apiKey: 'k' })).toThrow();
  });
});
