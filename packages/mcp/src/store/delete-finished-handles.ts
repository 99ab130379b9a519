import type { DbOrTx } from '@sess/db';
import { queryRows } from '@sess/db';
import { sql } from 'drizzle-orm';

/**
 * How long a finished handle (completed, expired, cancelled, closed) stays readable by
 * `sess_response` and `sess_list` after its last change. Its link and answer data were already
 * removed when it finished; what remains is the binding, state and title.
 */
export const FINISHED_HANDLE_RETENTION_DAYS = 30;

/** Rows one delete statement removes at most. */
const CHUNK = 5_000;

/** Deletes the handles finished more than the retention period before `at`, a chunk per statement. */
export async function deleteFinishedHandles(db: DbOrTx, at: Date): Promise<number> {
  const cutoff = new Date(at.getTime() - FINISHED_HANDLE_RETENTION_DAYS * 86_400_000).toISOString();
  let total = 0;
  for (;;) {
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`with gone as (
            delete from mcp_handles
             where handle in (
               select handle from mcp_handles
                where state in ('completed', 'expired', 'cancelled', 'closed') and updated_at < ${cutoff}::timestamptz
                limit ${CHUNK})
            returning 1)
          select count(*)::int as n from gone`,
    );
    const n = Number(row?.n ?? 0);
    total += n;
    if (n < CHUNK) return total;
  }
}
