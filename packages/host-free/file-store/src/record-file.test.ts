import { newId } from '@sess/core';
import type { HandleRecord } from '@sess/interactions';
import { describe, expect, it } from 'vitest';
import { decodeRecordFile, encodeRecordFile, RECORD_FORMAT_VERSION } from './record-file.ts';

const handle = newId('handle');
const record: HandleRecord = {
  handle,
  origin: 'https://api.sess.test',
  workspaceId: 'ws_1',
  principalId: 'default',
  clientId: 'sess-mcp',
  grantId: 'api-key',
  grantGeneration: 1,
  kind: 'interaction',
  state: 'waiting',
  version: 1,
  revision: 1,
  title: 'Approve?',
  humanUrl: 'https://sess.test/s/secret-token',
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
};
const bytes = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8');
const refusal = (reason: string) => ({ code: 'STATE_STORE_ERROR', retryable: false, details: { reason } });

describe('record files', () => {
  it('round-trip a record with its format version', () => {
    const encoded = encodeRecordFile(record);
    expect(JSON.parse(encoded.toString('utf8')).format).toBe(RECORD_FORMAT_VERSION);
    expect(decodeRecordFile(handle, encoded)).toEqual(record);
  });

  it('refuse JSON that does not parse, or is not an object', () => {
    expect(() => decodeRecordFile(handle, Buffer.from('{"format":1,'))).toThrow(expect.objectContaining(refusal('unreadable')));
    expect(() => decodeRecordFile(handle, bytes([1, 2]))).toThrow(expect.objectContaining(refusal('unreadable')));
  });

  it('refuse another or a missing format version', () => {
    expect(() => decodeRecordFile(handle, bytes({ format: 2, record }))).toThrow(
      expect.objectContaining(refusal('unsupported_version')),
    );
    expect(() => decodeRecordFile(handle, bytes({ record }))).toThrow(expect.objectContaining(refusal('unsupported_version')));
  });

  it.each([
    ['another handle’s record', { ...record, handle: newId('handle') }],
    ['a missing field', { ...record, title: undefined }],
    ['an unknown state', { ...record, state: 'lost' }],
    ['an unknown field', { ...record, extra: true }],
    ['a version that is not a count', { ...record, version: -1 }],
    ['an instant that is not one', { ...record, createdAt: 'yesterday' }],
  ])('refuse %s as inconsistent', (_name, value) => {
    expect(() => decodeRecordFile(handle, bytes({ format: RECORD_FORMAT_VERSION, record: value }))).toThrow(
      expect.objectContaining(refusal('inconsistent')),
    );
  });

  it('name the handle, never the contents', () => {
    try {
      decodeRecordFile(handle, bytes({ format: 9, record }));
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toContain(handle);
      expect((error as Error).message).not.toContain('secret-token');
    }
  });
});
