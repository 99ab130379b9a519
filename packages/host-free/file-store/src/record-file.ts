import { HANDLE_STATES, type HandleState } from '@sess/contract';
import type { HandleRecord } from '@sess/interactions';
import { recordError } from './store-error.ts';

/** The format version every record file carries; a reader refuses any other. */
export const RECORD_FORMAT_VERSION = 1;

/**
 * The largest record file a reader takes. The most a record holds is an answer (an answer page
 * takes at most 1 MiB) and two Surfaces (32 KiB each); 4 MiB leaves room for JSON escaping.
 */
export const MAX_RECORD_FILE_BYTES = 4 * 1024 * 1024;

const STATES: ReadonlySet<string> = new Set(HANDLE_STATES);
const KINDS: ReadonlySet<string> = new Set(['interaction', 'ask']);

/** The bytes of a record file: `{ format, record }`, the link and answer data in the clear (mode 0600 protects them). */
export function encodeRecordFile(record: HandleRecord): Buffer {
  return Buffer.from(`${JSON.stringify({ format: RECORD_FORMAT_VERSION, record })}\n`, 'utf8');
}

type Check = (value: unknown) => boolean;
const isString: Check = (value) => typeof value === 'string';
const isCount: Check = (value) => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
const isInstant: Check = (value) => typeof value === 'string' && !Number.isNaN(Date.parse(value));
const isObject: Check = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every field of a record and what it must hold; `true` marks the required ones. */
const FIELDS: Record<keyof HandleRecord, [Check, boolean]> = {
  handle: [isString, true],
  origin: [isString, true],
  workspaceId: [isString, true],
  principalId: [isString, true],
  clientId: [isString, true],
  grantId: [isString, true],
  grantGeneration: [(value) => typeof value === 'number' && Number.isSafeInteger(value), true],
  kind: [(value) => typeof value === 'string' && KINDS.has(value), true],
  state: [(value) => typeof value === 'string' && STATES.has(value), true],
  version: [isCount, true],
  revision: [isCount, true],
  title: [isString, true],
  createdAt: [isInstant, true],
  updatedAt: [isInstant, true],
  sessionId: [isString, false],
  askId: [isString, false],
  surfaceSha256: [isString, false],
  expiresAt: [isInstant, false],
  intent: [isObject, false],
  pending: [isObject, false],
  confirmed: [isObject, false],
  humanUrl: [isString, false],
  response: [isObject, false],
  blockedReason: [isString, false],
};

/**
 * Decodes the bytes of `<handle>.json`. Anything but a record of this format version, for this
 * handle, is a not-retryable `STATE_STORE_ERROR` naming the handle (never the contents): JSON
 * that does not parse is `unreadable`, another version `unsupported_version`, a missing, mistyped
 * or unknown field or another handle's record `inconsistent`.
 */
export function decodeRecordFile(handle: string, bytes: Buffer): HandleRecord {
  let file: unknown;
  try {
    file = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw recordError(handle, 'unreadable');
  }
  if (!isObject(file)) throw recordError(handle, 'unreadable');
  const { format, record } = file as { format?: unknown; record?: unknown };
  if (format !== RECORD_FORMAT_VERSION) throw recordError(handle, 'unsupported_version');
  if (!isObject(record)) throw recordError(handle, 'inconsistent');
  const fields = record as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (!Object.hasOwn(FIELDS, key)) throw recordError(handle, 'inconsistent');
  }
  for (const [key, [check, required]] of Object.entries(FIELDS)) {
    const value = fields[key];
    if (value === undefined ? required : !check(value)) throw recordError(handle, 'inconsistent');
  }
  if (fields['handle'] !== handle) throw recordError(handle, 'inconsistent');
  return { ...(record as HandleRecord), state: fields['state'] as HandleState };
}
