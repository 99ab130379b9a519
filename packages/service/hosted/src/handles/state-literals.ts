import { FINISHED_HANDLE_STATES, REVIEW_HANDLE_STATES } from '@sess/contract';
import { type SQL, sql } from 'drizzle-orm';

/**
 * A list of handle states as SQL literals (`'blocked', 'create_unknown'`), written from the
 * contract's lists so the queries never restate them. Literals rather than parameters: the
 * planner can then match a partial index's predicate (`mcp_handles_finished_updated_idx`), and
 * the statement text stays one prepared statement. The values are the contract's own constants,
 * never input.
 */
function stateLiterals(states: readonly string[]): SQL {
  return sql.raw(states.map((state) => `'${state}'`).join(', '));
}

export const FINISHED_STATE_SQL = stateLiterals(FINISHED_HANDLE_STATES);
export const REVIEW_STATE_SQL = stateLiterals(REVIEW_HANDLE_STATES);
