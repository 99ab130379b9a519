import type { DbOrTx } from '@sess/db';
import { queryRows } from '@sess/db';
import { sql } from 'drizzle-orm';
import { isoParam } from '../model/sql-values.ts';
import { IDEMPOTENCY_WINDOW_SECONDS } from './run-idempotent.ts';

/** Rows one delete statement removes at most: short statements never hold the database for long. */
const CHUNK = 5_000;

/**
 * Deletes the idempotency keys older than the replay window as of `at`, a chunk per statement
 * (by the created_at index) until none is left. Returns how many went.
 */
export async function deleteExpiredIdempotencyKeys(db: DbOrTx, at: Date): Promise<number> {
  const cutoff = isoParam(new Date(at.getTime() - IDEMPOTENCY_WINDOW_SECONDS * 1000));
  let total = 0;
  for (;;) {
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`with gone as (
            delete from idempotency_keys
             where (workspace_id, scope, key) in (
               select workspace_id, scope, key from idempotency_keys
                where created_at < ${cutoff}::timestamptz limit ${CHUNK})
            returning 1)
          select count(*)::int as n from gone`,
    );
    const n = Number(row?.n ?? 0);
    total += n;
    if (n < CHUNK) return total;
  }
}
