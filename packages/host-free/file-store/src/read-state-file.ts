import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { readBounded } from '@sess/core';
import { errnoCode, recordError, toStoreError } from './store-error.ts';
import { HAS_POSIX_FILES } from './write-file-durably.ts';

/**
 * The bytes of one state file (a record, `credentials.json`), or undefined when there is none.
 * Opened without following a symbolic link and without waiting on a FIFO, then checked on the open
 * descriptor: a regular file with no group or other bits (one another user could read or replace
 * is refused, not trusted), of at most `limit` bytes (never read past limit + 1). Any failure is
 * a store error naming `handle` (or the store), never the path.
 */
export async function readStateFile(path: string, limit: number, handle?: string): Promise<Buffer | undefined> {
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw toStoreError(error, handle);
  }
  try {
    const stat = await file.stat();
    if (!stat.isFile()) throw recordError(handle, 'inconsistent');
    if (HAS_POSIX_FILES && (stat.mode & 0o077) !== 0) throw recordError(handle, 'insecure_mode');
    return await readBounded(file, limit);
  } catch (error) {
    throw toStoreError(error, handle);
  } finally {
    await file.close().catch(() => undefined);
  }
}
