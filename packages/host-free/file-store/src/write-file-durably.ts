import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Temp files start with a dot and end in `.tmp`, so no reader ever mistakes one for a record. */
export function isTempFileName(name: string): boolean {
  return name.startsWith('.') && name.endsWith('.tmp');
}

/**
 * POSIX file modes and directory fsync. On Windows, Node reports no owner-only modes (the
 * profile's ACLs protect the files) and cannot open a directory to fsync it (NTFS journals the
 * rename itself), so both are skipped there.
 */
export const HAS_POSIX_FILES = process.platform !== 'win32';

/** Makes a rename or unlink in `directory` durable (the directory entry itself reaches the disk). */
export async function syncDirectory(directory: string): Promise<void> {
  if (!HAS_POSIX_FILES) return;
  const handle = await open(directory, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes `bytes` to `path` so that a crash at any moment leaves either the old file or the new
 * one, complete: a temp file in the same directory (created exclusively, mode 0600), written and
 * fsynced, renamed over `path` (atomic on POSIX), then the directory fsynced so the rename
 * survives a power loss. A failure removes the temp file when it can.
 */
export async function writeFileDurably(path: string, bytes: Uint8Array): Promise<void> {
  const directory = dirname(path);
  const temp = join(directory, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const file = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    try {
      await file.writeFile(bytes);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncDirectory(directory);
}
