import type { SQL } from 'drizzle-orm';
import type { DbOrTx } from './types.ts';

/**
 * Runs raw SQL and returns its rows. postgres.js returns an array and PGlite `{ rows }`; this
 * is the one place that knows.
 */
export async function queryRows<T extends Record<string, unknown>>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown;
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/** Rows one statement of `deleteInChunks` removes at most. */
export const DELETE_CHUNK = 5_000;

/**
 * Runs a delete again and again until it removes fewer than `DELETE_CHUNK` rows, so a large
 * clean-up is many short statements rather than one long one that holds locks (and PGlite's
 * one connection) for its whole length. `remove(limit)` deletes at most `limit` rows and returns
 * them (`returning 1`). Returns how many went in all.
 */
export async function deleteInChunks(db: DbOrTx, remove: (limit: number) => SQL): Promise<number> {
  let total = 0;
  for (;;) {
    const n = (await queryRows(db, remove(DELETE_CHUNK))).length;
    total += n;
    if (n < DELETE_CHUNK) return total;
  }
}
