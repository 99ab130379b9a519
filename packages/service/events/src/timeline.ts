import type { EventPage, InteractionEvent } from '@sess/contract';
import { type Db, queryRows } from '@sess/db';
import { sql } from 'drizzle-orm';
import { EVENT_COLUMNS, type EventRow, toEventView } from './event-view.ts';

/** Events per page of a timeline by default, and at most. */
export const TIMELINE_PAGE = 100;
export const TIMELINE_PAGE_MAX = 500;

/** A cursor is the last event's position, opaque to callers (`p` + digits). */
const CURSOR = /^p(\d{1,18})$/;

export function parseEventCursor(cursor: string | undefined): number | null | undefined {
  if (cursor === undefined) return null;
  const match = CURSOR.exec(cursor);
  return match ? Number(match[1]) : undefined;
}

/**
 * One session's events, oldest first, a page at a time; scoped to its workspace (a session of
 * another workspace is not found: null). `after` is a position from `parseEventCursor`.
 */
export async function readTimeline(
  db: Db,
  scope: { workspaceId: string; sessionId: string },
  page: { after: number | null; limit?: number },
): Promise<EventPage | null> {
  const limit = Math.min(Math.max(page.limit ?? TIMELINE_PAGE, 1), TIMELINE_PAGE_MAX);
  const rows = await queryRows<EventRow>(
    db,
    sql`select ${sql.raw(EVENT_COLUMNS)} from interaction_events e
         where e.session_id = ${scope.sessionId} and e.workspace_id = ${scope.workspaceId}
           and e.pos > ${page.after ?? 0}
         order by e.pos limit ${limit + 1}`,
  );
  // Every form has its `created`, so only an empty page can be one of no such form.
  if (rows.length === 0) {
    const found = await queryRows(
      db,
      sql`select 1 from form_sessions s where s.id = ${scope.sessionId} and s.workspace_id = ${scope.workspaceId}`,
    );
    if (found.length === 0) return null;
  }
  const events: InteractionEvent[] = rows.slice(0, limit).map(toEventView);
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  return { events, nextCursor: last ? `p${last.pos}` : null };
}
