import { describe, expect, it } from 'vitest';
import { classifyFsError, recordError, toStoreError } from './store-error.ts';

const fsError = (code: string) => Object.assign(new Error(`${code}: open '/home/someone/state/x'`), { code });

describe('classifyFsError', () => {
  it.each([
    ['EIO', 'transient'],
    ['EAGAIN', 'transient'],
    ['EBUSY', 'transient'],
    ['EMFILE', 'transient'],
    ['ENOSPC', 'no_space'],
    ['EDQUOT', 'no_space'],
    ['EACCES', 'permission_denied'],
    ['EPERM', 'permission_denied'],
    ['EROFS', 'permission_denied'],
    ['ELOOP', 'inconsistent'],
    ['EISDIR', 'inconsistent'],
    ['ESOMETHINGNEW', 'inconsistent'],
  ])('%s is %s', (code, problem) => {
    expect(classifyFsError(fsError(code))).toBe(problem);
  });

  it('a value without a code fails closed (inconsistent)', () => {
    expect(classifyFsError(new Error('no code'))).toBe('inconsistent');
    expect(classifyFsError(undefined)).toBe('inconsistent');
  });
});

describe('recordError', () => {
  it('is STATE_STORE_ERROR, retryable only for a transient failure', () => {
    expect(recordError('hdl_x', 'transient')).toMatchObject({ code: 'STATE_STORE_ERROR', retryable: true });
    for (const problem of [
      'no_space',
      'permission_denied',
      'insecure_mode',
      'unreadable',
      'inconsistent',
      'unsupported_version',
      'too_large',
      'exists',
    ] as const) {
      expect(recordError('hdl_x', problem)).toMatchObject({
        code: 'STATE_STORE_ERROR',
        retryable: false,
        details: { reason: problem },
      });
    }
  });

  it('names the handle and the error code, never the path', () => {
    const error = toStoreError(fsError('EACCES'), 'hdl_abc');
    expect(error.message).toContain('hdl_abc');
    expect(error.message).toContain('EACCES');
    expect(error.message).not.toContain('/home/someone');
    expect(toStoreError(fsError('EIO')).message).toMatch(/^The local handle store /);
  });

  it('passes a SessError through unchanged', () => {
    const error = recordError('hdl_x', 'unreadable');
    expect(toStoreError(error, 'hdl_y')).toBe(error);
  });
});
