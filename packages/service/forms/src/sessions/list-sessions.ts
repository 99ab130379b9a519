import { SESSION_LIST_STATUSES, type SessionList, type SessionListStatus, type SessionSummary } from '@sess/contract';
import { SessError } from '@sess/core';
import { queryRows } from '@sess/db';
import { type SQL, sql } from 'drizzle-orm';
import { isoParam, stateLiteral as lit, toDate } from '../model/sql-values.ts';
import type { WorkspaceContext } from './context.ts';

/** Every status a listed session can have: an interaction's states, and an Ask's `waiting`/`closed`. */
export const LIST_STATUSES = SESSION_LIST_STATUSES;
export type ListStatus = SessionListStatus;

/** One row of a listing (@sess/contract's `SessionSummarySchema`) and a page of them. */
export type { SessionList, SessionSummary };

export interface ListSessionsInput {
  ctx: WorkspaceContext;
  /** Only these statuses (any of them); default all. */
  status?: readonly string[] | undefined;
  kind?: 'interaction' | 'ask' | undefined;
  /** 1–100, default 50. */
  limit?: number | undefined;
  /** `nextCursor` of the previous page. */
  cursor?: string | undefined;
}

function encodeCursor(createdAt: Date, id: string): string {
  return Buffer.from(JSON.stringify([createdAt.toISOString(), id]), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string') {
      if (!Number.isNaN(Date.parse(value[0]))) return { createdAt: value[0], id: value[1] };
    }
  } catch {}
  throw new SessError('INVALID_ARGUMENTS', 'cursor is not a cursor this API returned. Start again without it.', {
    field: '/cursor',
  });
}

/**
 * Lists a workspace's sessions and Asks, newest first, with the status each has right now
 * (computed in SQL with the runtime's clock, as on read). Keyset-paginated on (created_at, id)
 * over one index. Backs a future `sess_list` tool.
 * @throws SessError `INVALID_ARGUMENTS` (unknown status, bad limit or cursor).
 */
export async function listSessions(input: ListSessionsInput): Promise<SessionList> {
  const { ctx } = input;
  const limit = input.limit ?? 50;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 100) {
    throw new SessError('INVALID_ARGUMENTS', 'limit must be a whole number from 1 to 100.', { field: '/limit', limit: 100 });
  }
  const statuses = input.status ?? [];
  for (const [i, status] of statuses.entries()) {
    if (!(LIST_STATUSES as readonly string[]).includes(status)) {
      throw new SessError('INVALID_ARGUMENTS', `status "${status}" is not one of ${LIST_STATUSES.join(', ')}.`, {
        field: `/status/${i}`,
      });
    }
  }
  if (input.kind !== undefined && input.kind !== 'interaction' && input.kind !== 'ask') {
    throw new SessError('INVALID_ARGUMENTS', 'kind must be interaction or ask.', { field: '/kind' });
  }
  const cursor = input.cursor ? decodeCursor(input.cursor) : undefined;
  const now = isoParam(ctx.runtime.now());
  const filters: SQL[] = [sql`s.workspace_id = ${ctx.workspaceId}`];
  if (cursor) filters.push(sql`(s.created_at, s.id) < (${cursor.createdAt}::timestamptz, ${cursor.id})`);
  if (input.kind) filters.push(sql`s.kind = ${input.kind}`);
  const statusFilter =
    statuses.length > 0
      ? sql`where status in (${sql.join(
          statuses.map((s) => sql`${s}`),
          sql`, `,
        )})`
      : sql``;
  // The status is @sess/contract's derivation (deriveSessionState, deriveAskState) written in SQL,
  // so a filter and a page are one indexed query; the names are the contract's.
  const rows = await queryRows<{
    id: string;
    kind: 'interaction' | 'ask';
    status: ListStatus;
    current_revision: number;
    title: string;
    created_at: string;
    expires_at: string;
    deadline_at: string;
  }>(
    ctx.runtime.database.db,
    sql`select * from (
          select s.id, s.kind, s.current_revision, s.created_at, s.expires_at, s.deadline_at, r.surface ->> 'title' as title,
                 case
                   when s.state = ${lit('withdrawn')} then ${lit('withdrawn')}
                   when s.state = ${lit('completed')} then ${lit('completed')}
                   when s.kind = 'ask' then
                     case when s.ask_answered >= s.ask_max or s.ask_decision in ('approved', 'rejected') or s.closes_at <= ${now}::timestamptz then ${lit('closed')} else ${lit('waiting')} end
                   when exists (select 1 from form_answers a
                                 where a.session_id = s.id and a.revision = s.current_revision and a.respondent_id is null)
                     then ${lit('answered')}
                   when s.closes_at <= ${now}::timestamptz then ${lit('expired')}
                   else ${lit('waiting')}
                 end as status
            from form_sessions s
            join form_revisions r on r.session_id = s.id and r.revision = s.current_revision
           where ${sql.join(filters, sql` and `)}
        ) listed
        ${statusFilter}
        order by created_at desc, id desc
        limit ${limit + 1}`,
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    sessions: page.map((row) => ({
      sessionId: row.id,
      kind: row.kind,
      status: row.status,
      revision: row.current_revision,
      title: row.title,
      createdAt: toDate(row.created_at).toISOString(),
      expiresAt: toDate(row.expires_at).toISOString(),
      deadlineAt: toDate(row.deadline_at).toISOString(),
    })),
    nextCursor: rows.length > limit && last ? encodeCursor(toDate(last.created_at), last.id) : null,
  };
}
