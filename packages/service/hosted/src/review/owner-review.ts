import { HANDLE_MACHINE, REVIEW_HANDLE_STATES } from '@sess/contract';
import type { Db } from '@sess/db';
import { queryRows } from '@sess/db';
import { sql } from 'drizzle-orm';
import { API_KEY_PRINCIPAL_PREFIX } from '../api-key-principal.ts';
import { REVIEW_STATE_SQL } from '../handles/state-literals.ts';

/** The states no tool can leave: the person who started them decides (the seed's "owner review"). */
export const REVIEW_STATES = REVIEW_HANDLE_STATES;

/** The move Retire makes (from a review state to cancelled), from the handle's transition table. */
const RETIRED = HANDLE_MACHINE.transitions.retired_by_owner;

/** Shown at most on the review page, newest first. */
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
  /** Started with a workspace API key (reviewed by the workspace's owners): the key's name (null should its row be gone). Absent for the person's own. */
  apiKey?: { name: string | null };
  /** How the handle's revision was answered, when it was: on the link page or inside the agent's chat. */
  answeredVia: 'link' | 'chat' | null;
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
  by_api_key: boolean;
  api_key_name: string | null;
  answered_via: 'link' | 'chat' | null;
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
    ...(row.by_api_key ? { apiKey: { name: row.api_key_name } } : {}),
    answeredVia: row.answered_via,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

const SELECTED = sql`h.handle, h.workspace_id, w.name as workspace_name, h.state, h.title, h.blocked_reason,
                     h.session_id, h.ask_id, starts_with(h.principal_id, ${API_KEY_PRINCIPAL_PREFIX}) as by_api_key,
                     k.name as api_key_name, a.via as answered_via,
                     h.created_at, h.updated_at`;
const FROM = sql`mcp_handles h join workspaces w on w.id = h.workspace_id
                 left join api_keys k on k.workspace_id = h.workspace_id and h.principal_id = ${API_KEY_PRINCIPAL_PREFIX} || k.id
                 left join form_answers a on a.session_id = h.session_id and a.revision = h.revision and a.respondent_id is null`;

/**
 * The handles `userId` reviews, in the workspaces they belong to: their own (an OAuth grant's
 * principal is its person), and where they are an owner, the workspace's API keys' (a key has no
 * person of its own). One rule for the list, the lookup and Retire.
 */
function reviewableBy(userId: string) {
  return sql`h.state in (${REVIEW_STATE_SQL})
             and exists (select 1 from memberships m
                          where m.workspace_id = h.workspace_id and m.user_id = ${userId}
                            and (h.principal_id = ${userId}
                                 or (m.role = 'owner' and starts_with(h.principal_id, ${API_KEY_PRINCIPAL_PREFIX}))))`;
}

/** The blocked and outcome-unknown handles `userId` reviews, in every workspace, newest first. */
export async function listHandlesForReview(db: Db, userId: string): Promise<HandleForReview[]> {
  const rows = await queryRows<ReviewRow>(
    db,
    sql`select ${SELECTED} from ${FROM}
         where ${reviewableBy(userId)}
         order by h.updated_at desc, h.handle desc
         limit ${REVIEW_LIMIT}`,
  );
  return rows.map(toReview);
}

/** One handle `userId` reviews, or undefined (another's, unknown, or not under review). */
export async function findHandleForReview(db: Db, userId: string, handle: string): Promise<HandleForReview | undefined> {
  const [row] = await queryRows<ReviewRow>(
    db,
    sql`select ${SELECTED} from ${FROM} where h.handle = ${handle} and ${reviewableBy(userId)}`,
  );
  return row ? toReview(row) : undefined;
}

/**
 * Ends a handle under review as `cancelled` (reason `retired_by_owner`), clearing its saved
 * requests and sealed data: it stops counting against the 100-unfinished cap, and a tool call
 * on it answers as for any cancelled interaction. Only a handle `userId` reviews, and only while
 * it is still under review (no tool can move it out of review meanwhile). Returns whether it
 * changed.
 */
export async function retireHandle(db: Db, input: { userId: string; handle: string; now: Date }): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`update mcp_handles h
           set state = ${RETIRED.to}, blocked_reason = 'retired_by_owner', intent = null, pending = null, sealed = null,
               version = h.version + 1, updated_at = ${input.now.toISOString()}::timestamptz
         where h.handle = ${input.handle} and ${reviewableBy(input.userId)}
        returning 1 as retired`,
  );
  return rows.length === 1;
}
