import { type SQL, sql } from 'drizzle-orm';
import { integer, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * Counters behind the create caps, kept exact by triggers (migration 0008) on every insert,
 * state change and delete of the rows they count, so a create can check its cap by locking ONE
 * row in its own statement (no count, no advisory lock, no transaction):
 *
 * - `workspace:<workspace id>`: the workspace's sessions whose stored state is `open` — an upper
 *   bound of its open sessions, since a stored-open session whose link has closed for good no
 *   longer counts against the plan; a create that finds the bound at the limit counts exactly.
 * - `principal:<workspace id>:<principal id>`: the principal's unfinished MCP handles.
 *
 * A missing row means zero: the triggers create a row with the first counted row.
 */
export const openCounts = pgTable('open_counts', {
  key: text('key').primaryKey(),
  counted: integer('counted').notNull(),
});

/** The `open_counts` key of a workspace's stored-open sessions (the plan's open-session limit). */
export function workspaceOpenKey(workspaceId: string): string {
  return `workspace:${workspaceId}`;
}

/** The `open_counts` key of a principal's unfinished MCP handles (the 100-unfinished cap). */
export function principalUnfinishedKey(workspaceId: string, principalId: string): string {
  return `principal:${workspaceId}:${principalId}`;
}

/**
 * Locks the counters named by `keys` (a query of one text column) and reads them at their latest,
 * as a create's statement must before it admits anything under them: an upsert that makes a
 * missing row at 0, takes the rows in key order (so two creates needing the same counters cannot
 * deadlock) and returns `(key, counted)`. A data-modifying statement, for a CTE or on its own.
 */
export function lockOpenCounts(keys: SQL): SQL {
  return sql`insert into open_counts (key, counted)
             select distinct k.key, 0 from (${keys}) as k(key) order by k.key
             on conflict (key) do update set counted = open_counts.counted
             returning key, counted`;
}
