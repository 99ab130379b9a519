import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readStateFile } from './read-state-file.ts';
import { decodeRecordFile, MAX_RECORD_FILE_BYTES } from './record-file.ts';

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
 * Counts the records of a handles directory by state, the way the store reads them (see
 * readStateFile: no symlinks followed, a record readable by others or over its size refused),
 * for `sess-mcp doctor` and `openclaw sess doctor`. Never prints or returns a record's content.
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
      const bytes = await readStateFile(join(handlesDirectory, name), MAX_RECORD_FILE_BYTES, handle);
      if (!bytes) continue; // removed since the directory was listed
      const record = decodeRecordFile(handle, bytes);
      counts.byState.set(record.state, (counts.byState.get(record.state) ?? 0) + 1);
      if (REVIEW_STATES.has(record.state)) counts.review.push(handle);
    } catch {
      counts.unreadable.push(handle);
    }
  }
  return counts;
}
