import type { DbOrTx } from '@sess/db';
import { deleteInChunks } from '@sess/db';
import { sql } from 'drizzle-orm';
import { FINISHED_STATE_SQL } from './state-literals.ts';

/**
 * How long a finished handle (completed, expired, cancelled, closed) stays readable by
 * `sess_response` and `sess_list` after its last change. Its link and answer data were already
 * removed when it finished; what remains is the binding, state and title.
 */
export const FINISHED_HANDLE_RETENTION_DAYS = 30;

/** Deletes the handles finished more than the retention period before `at`. Returns how many went. */
export function deleteFinishedHandles(db: DbOrTx, at: Date): Promise<number> {
  const cutoff = new Date(at.getTime() - FINISHED_HANDLE_RETENTION_DAYS * 86_400_000).toISOString();
  return deleteInChunks(
    db,
    (limit) => sql`delete from mcp_handles
                    where handle in (
                      select handle from mcp_handles
                       where state in (${FINISHED_STATE_SQL}) and updated_at < ${cutoff}::timestamptz
                       limit ${limit})
                   returning 1`,
  );
}
