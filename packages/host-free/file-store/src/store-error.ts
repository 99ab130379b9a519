import { describeByteLimit, InputTooLargeError, isSessError, SessError } from '@sess/core';

/**
 * Why a record could not be used. Only `transient` is retryable: the same call may work in a
 * moment. Every other reason needs the owner (the seed's "Error classes": unreadable,
 * inconsistent or unsupported-version records need the owner).
 */
export type RecordProblem =
  | 'transient'
  | 'no_space'
  | 'permission_denied'
  | 'insecure_mode'
  | 'unreadable'
  | 'inconsistent'
  | 'unsupported_version'
  | 'too_large'
  | 'exists';

/** Error codes of a failed read or write that a retry can cure (the file system was busy or briefly failing). */
const TRANSIENT_CODES: ReadonlySet<string> = new Set([
  'EIO',
  'EAGAIN',
  'EWOULDBLOCK',
  'EBUSY',
  'EINTR',
  'EMFILE',
  'ENFILE',
  'ETIMEDOUT',
]);

/**
 * A full disk or quota is not retryable: an agent repeating the call cannot free space, and a
 * loop of retries only hides the problem from the owner who can.
 */
const NO_SPACE_CODES: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT']);

const PERMISSION_CODES: ReadonlySet<string> = new Set(['EACCES', 'EPERM', 'EROFS']);

/** The `code` of a Node.js system error (`ENOENT`, `EIO`), if `error` is one. */
export function errnoCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** What a failed system call means for the record: transient, a full disk, or the owner's to fix. */
export function classifyFsError(error: unknown): RecordProblem {
  const code = errnoCode(error);
  if (code && TRANSIENT_CODES.has(code)) return 'transient';
  if (code && NO_SPACE_CODES.has(code)) return 'no_space';
  if (code && PERMISSION_CODES.has(code)) return 'permission_denied';
  // ELOOP (a symbolic link where a record should be), EISDIR, ENOTDIR and anything unknown: the
  // layout on disk is not what this store wrote. Failing closed keeps a retry loop from hiding it.
  return 'inconsistent';
}

const WHAT: Record<RecordProblem, string> = {
  transient: 'could not be read or written just now. Try again in a moment.',
  no_space: 'could not be written: the disk or quota is full. The owner must free space before it can be saved.',
  permission_denied: 'could not be read or written: permission denied. The owner must fix the state directory’s permissions.',
  insecure_mode:
    'is readable or writable by other users (it should be mode 0600). The owner must check it was not changed by someone else, then chmod it to 0600 or remove it.',
  unreadable: 'is not a readable record. The owner must review or remove it.',
  inconsistent: 'is inconsistent with its place in the state directory. The owner must review or remove it.',
  unsupported_version:
    'was written by an unknown version of this store. Use the version that wrote it, or the owner must remove it.',
  too_large: 'is larger than anything this store writes. The owner must review or remove it.',
  exists: 'already exists; a new interaction never reuses a handle.',
};

/**
 * The store's failure as the tools see it: `STATE_STORE_ERROR`, retryable only when `problem`
 * is `transient`, naming the handle (or the store, for a failure not tied to one record) and the
 * problem in `reason` — never a record's contents or a path.
 */
export function recordError(handle: string | undefined, problem: RecordProblem, cause?: unknown): SessError {
  const subject = handle ? `The local record of interaction ${handle}` : 'The local handle store';
  const limit = cause instanceof InputTooLargeError ? cause.limit : undefined;
  const code = limit === undefined ? errnoCode(cause) : `over ${describeByteLimit(limit)}`;
  return new SessError(
    'STATE_STORE_ERROR',
    `${subject} ${WHAT[problem]}${code && problem !== 'transient' ? ` (${code})` : ''}`,
    limit === undefined ? { reason: problem } : { reason: problem, limit },
    { cause, retryable: problem === 'transient' },
  );
}

/** `error` as a store error: SessErrors pass through, a file over its limit is `too_large`, a failed system call is classified. */
export function toStoreError(error: unknown, handle?: string): SessError {
  if (isSessError(error)) return error;
  if (error instanceof InputTooLargeError) return recordError(handle, 'too_large', error);
  return recordError(handle, classifyFsError(error), error);
}
