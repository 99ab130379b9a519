import { type Db, queryRows } from '@sess/db';
import { sql } from 'drizzle-orm';
import { API_KEY_PRINCIPAL_PREFIX } from '../api-key-principal.ts';

/** Listed at most under "Recent" on /account/interactions, newest first. */
const RECENT_LIMIT = 20;

/** A form whose timeline a person may read, with what the page names it by. */
export interface TimelineSubject {
  sessionId: string;
  workspaceId: string;
  workspaceName: string;
  kind: 'interaction' | 'ask';
  title: string;
}

/**
 * The form `sessionId` if `userId` may read its timeline, else undefined (unknown, or someone
 * else's: the page says not found either way). The rule of the owner review: a form one of their
 * agents made (an MCP handle whose principal is them), and in a workspace they own, every form
 * no person's agent made (an API key's, through /v1 or MCP).
 */
export async function findTimelineSubject(db: Db, userId: string, sessionId: string): Promise<TimelineSubject | undefined> {
  const [row] = await queryRows<{ workspace_id: string; workspace_name: string; kind: 'interaction' | 'ask'; title: unknown }>(
    db,
    sql`select s.workspace_id, w.name as workspace_name, s.kind, r.surface->>'title' as title
          from form_sessions s
          join workspaces w on w.id = s.workspace_id
          join form_revisions r on r.session_id = s.id and r.revision = s.current_revision
          join memberships m on m.workspace_id = s.workspace_id and m.user_id = ${userId}
         where s.id = ${sessionId}
           and (exists (select 1 from mcp_handles h
                         where (h.session_id = s.id or h.ask_id = s.id) and h.principal_id = ${userId})
                or (m.role = 'owner' and not exists (
                      select 1 from mcp_handles h
                       where (h.session_id = s.id or h.ask_id = s.id)
                         and not starts_with(h.principal_id, ${API_KEY_PRINCIPAL_PREFIX}))))`,
  );
  if (!row) return undefined;
  return {
    sessionId,
    workspaceId: row.workspace_id,
    workspaceName: row.workspace_name,
    kind: row.kind,
    title: typeof row.title === 'string' && row.title !== '' ? row.title : '(untitled)',
  };
}

/** A recent form the person may read the timeline of, as the list shows it. */
export interface RecentForm extends TimelineSubject {
  createdAt: Date;
}

/**
 * The person's most recent forms under the same rule as `findTimelineSubject`: their agents'
 * (through their handles) and, in workspaces they own, the API keys' — newest first.
 */
export async function listRecentForms(db: Db, userId: string): Promise<RecentForm[]> {
  const rows = await queryRows<{
    id: string;
    workspace_id: string;
    workspace_name: string;
    kind: 'interaction' | 'ask';
    title: unknown;
    created_at: Date | string;
  }>(
    db,
    sql`with mine as (
          (select coalesce(h.session_id, h.ask_id) as id, h.created_at from mcp_handles h
             join memberships m on m.workspace_id = h.workspace_id and m.user_id = ${userId}
            where h.principal_id = ${userId} and coalesce(h.session_id, h.ask_id) is not null
            order by h.created_at desc limit ${RECENT_LIMIT})
          union all
          (select s.id, s.created_at from form_sessions s
             join memberships m on m.workspace_id = s.workspace_id and m.user_id = ${userId} and m.role = 'owner'
            where not exists (select 1 from mcp_handles h
                               where (h.session_id = s.id or h.ask_id = s.id)
                                 and not starts_with(h.principal_id, ${API_KEY_PRINCIPAL_PREFIX}))
            order by s.created_at desc limit ${RECENT_LIMIT}))
        select s.id, s.workspace_id, w.name as workspace_name, s.kind, r.surface->>'title' as title, s.created_at
          from (select distinct id from mine) x
          join form_sessions s on s.id = x.id
          join workspaces w on w.id = s.workspace_id
          join form_revisions r on r.session_id = s.id and r.revision = s.current_revision
         order by s.created_at desc, s.id desc limit ${RECENT_LIMIT}`,
  );
  return rows.map((row) => ({
    sessionId: row.id,
    workspaceId: row.workspace_id,
    workspaceName: row.workspace_name,
    kind: row.kind,
    title: typeof row.title === 'string' && row.title !== '' ? row.title : '(untitled)',
    createdAt: new Date(row.created_at),
  }));
}
