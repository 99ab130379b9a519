import type { Query, SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './types.ts';

/** postgres.js returns an array and PGlite `{ rows }`; this is the one place that knows. */
function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/** Runs raw SQL and returns its rows. */
export async function queryRows<T extends Record<string, unknown>>(db: DbOrTx, query: SQL): Promise<T[]> {
  return rowsOf<T>(await db.execute(query));
}

/**
 * Turns a `sql` template into text and parameters. `openDatabase` gives drizzle no dialect options
 * (no `casing`), so this default dialect writes what the database's own would.
 */
const dialect = new PgDialect();

/**
 * A raw statement whose text is built once, on its first run, and run again with new values:
 * what changes between runs is a `sql.placeholder(name)`. drizzle otherwise turns the template
 * into text again on every run, which for a long statement run on every request (a create's) is
 * much of what the request allocates. The template must not change between runs.
 */
export class PreparedSql<T extends Record<string, unknown>> {
  #query: Query | undefined;

  constructor(private readonly build: () => SQL) {}

  /** Runs it on `db` (or in a transaction) with `values` for its placeholders; returns its rows. */
  async rows(db: DbOrTx, values: Record<string, unknown>): Promise<T[]> {
    this.#query ??= dialect.sqlToQuery(this.build());
    return rowsOf<T>(await db._.session.prepareQuery(this.#query, undefined, undefined, false).execute(values));
  }
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
