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
