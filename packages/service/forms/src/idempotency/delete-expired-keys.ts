import type { DbOrTx } from '@sess/db';
import { deleteInChunks } from '@sess/db';
import { sql } from 'drizzle-orm';
import { isoParam } from '../model/sql-values.ts';
import { IDEMPOTENCY_WINDOW_SECONDS } from './idempotency-key.ts';

/** Deletes the idempotency keys older than the replay window as of `at` (by the created_at index). Returns how many went. */
export function deleteExpiredIdempotencyKeys(db: DbOrTx, at: Date): Promise<number> {
  const cutoff = isoParam(new Date(at.getTime() - IDEMPOTENCY_WINDOW_SECONDS * 1000));
  return deleteInChunks(
    db,
    (limit) => sql`delete from idempotency_keys
                    where (workspace_id, scope, key) in (
                      select workspace_id, scope, key from idempotency_keys
                       where created_at < ${cutoff}::timestamptz limit ${limit})
                   returning 1`,
  );
}
