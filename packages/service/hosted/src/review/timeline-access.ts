import { type Db, queryRows } from '@sess/db';
import { sql } from 'drizzle-orm';
import { API_KEY_PRINCIPAL_PREFIX } from '../api-key-principal.ts';

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
