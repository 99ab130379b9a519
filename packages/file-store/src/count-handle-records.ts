import { constants } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeRecordFile } from './record-file.ts';

/** Review states: no tool moves them on; the owner procedure applies. */
const REVIEW_STATES = new Set(['blocked', 'create_unknown']);

/** What a doctor says of a handles directory, read without writing anything. */
export interface HandleRecordCounts {
  byState: Map<string, number>;
  /** Handles that need the owner (blocked, create_unknown). */
  review: string[];
  /** Record files this process cannot use (mode, JSON, version, …), by handle. */
  unreadable: string[];
  /** The directory does not exist (no call has made a record yet). */
  missing: boolean;
}

/**
 * Counts the records of a handles directory by state, the way the store would read them (no
 * symlinks followed, a record readable by others refused), for `sess-mcp doctor` and
 * `openclaw sess doctor`. Never prints or returns a record's content.
 */
export async function countHandleRecords(handlesDirectory: string): Promise<HandleRecordCounts> {
  const counts: HandleRecordCounts = { byState: new Map(), review: [], unreadable: [], missing: false };
  let names: string[];
  try {
    names = await readdir(handlesDirectory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ...counts, missing: true };
    throw error;
  }
  for (const name of names.sort()) {
    if (!name.endsWith('.json') || name.startsWith('.')) continue;
    const handle = name.slice(0, -'.json'.length);
    try {
      const file = await open(join(handlesDirectory, name), constants.O_RDONLY | constants.O_NOFOLLOW);
      let bytes: Buffer;
      try {
        if (process.platform !== 'win32' && ((await file.stat()).mode & 0o077) !== 0) throw new Error('insecure mode');
        bytes = await file.readFile();
      } finally {
        await file.close();
      }
      const record = decodeRecordFile(handle, bytes);
      counts.byState.set(record.state, (counts.byState.get(record.state) ?? 0) + 1);
      if (REVIEW_STATES.has(record.state)) counts.review.push(handle);
    } catch {
      counts.unreadable.push(handle);
    }
  }
  return counts;
}
