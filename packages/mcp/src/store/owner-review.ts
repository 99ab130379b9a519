import { HANDLE_MACHINE, REVIEW_HANDLE_STATES } from '@sess/contract';
import type { Db } from '@sess/db';
import { queryRows } from '@sess/db';
import { sql } from 'drizzle-orm';
import { REVIEW_STATE_SQL } from './state-literals.ts';

/** The states no tool can leave: the person who started them decides (the seed's "owner review"). */
export const REVIEW_STATES = REVIEW_HANDLE_STATES;

/** The move Retire makes (from a review state to cancelled), from the handle's transition table. */
const RETIRED = HANDLE_MACHINE.transitions.retired_by_owner;

/** Shown at most on the review page; a principal has at most 100 unfinished handles anyway. */
const REVIEW_LIMIT = 100;

/** A handle waiting for its owner: what it was, where, and why it stopped. */
export interface HandleForReview {
  handle: string;
  workspaceId: string;
  workspaceName: string;
  state: (typeof REVIEW_STATES)[number];
  title: string;
  /** Why it is blocked (e.g. `mutation_rejected`, `verification_failed`); null for create_unknown. */
  reason: string | null;
  sessionId: string | null;
  askId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

type ReviewRow = {
  handle: string;
  workspace_id: string;
  workspace_name: string;
  state: HandleForReview['state'];
  title: string;
  blocked_reason: string | null;
  session_id: string | null;
  ask_id: string | null;
  created_at: string | Date;
  updated_at: string | Date;
};

function toReview(row: ReviewRow): HandleForReview {
  return {
    handle: row.handle,
    workspaceId: row.workspace_id,
    workspaceName: row.workspace_name,
    state: row.state,
    title: row.title,
    reason: row.blocked_reason,
    sessionId: row.session_id,
    askId: row.ask_id,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

const SELECTED = sql`h.handle, h.workspace_id, w.name as workspace_name, h.state, h.title, h.blocked_reason,
                     h.session_id, h.ask_id, h.created_at, h.updated_at`;

/** The principal's blocked and outcome-unknown handles, in every workspace, newest first. */
export async function listHandlesForReview(db: Db, principalId: string): Promise<HandleForReview[]> {
  const rows = await queryRows<ReviewRow>(
    db,
    sql`select ${SELECTED}
          from mcp_handles h join workspaces w on w.id = h.workspace_id
         where h.principal_id = ${principalId} and h.state in (${REVIEW_STATE_SQL})
         order by h.updated_at desc, h.handle desc
         limit ${REVIEW_LIMIT}`,
  );
  return rows.map(toReview);
}

/** One of the principal's handles under review, or undefined (another person's, unknown, or not under review). */
export async function findHandleForReview(db: Db, principalId: string, handle: string): Promise<HandleForReview | undefined> {
  const [row] = await queryRows<ReviewRow>(
    db,
    sql`select ${SELECTED}
          from mcp_handles h join workspaces w on w.id = h.workspace_id
         where h.handle = ${handle} and h.principal_id = ${principalId} and h.state in (${REVIEW_STATE_SQL})`,
  );
  return row ? toReview(row) : undefined;
}

/**
 * Ends a handle under review as `cancelled` (reason `retired_by_owner`), clearing its saved
 * requests and sealed data: it stops counting against the 100-unfinished cap, and a tool call
 * on it answers as for any cancelled interaction. Only the principal's own handle, and only
 * while it is still under review (no tool can move it out of review meanwhile). Returns
 * whether it changed.
 */
export async function retireHandle(db: Db, input: { principalId: string; handle: string; now: Date }): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`update mcp_handles
           set state = ${RETIRED.to}, blocked_reason = 'retired_by_owner', intent = null, pending = null, sealed = null,
               version = version + 1, updated_at = ${input.now.toISOString()}::timestamptz
         where handle = ${input.handle} and principal_id = ${input.principalId}
           and state in (${REVIEW_STATE_SQL})
        returning 1 as retired`,
  );
  return rows.length === 1;
}
