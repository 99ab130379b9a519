import { type Db, queryRows } from '@sess/db';
import { sql } from 'drizzle-orm';
import { describeEvent } from './describe-event.ts';
import { EVENT_COLUMNS, type EventRow, toEventView } from './event-view.ts';

const clock = (at: string) => `${at.slice(11, 16)} UTC`;

/**
 * One line on where a form stands, from its latest event: "Opened in a browser (14:02 UTC)";
 * for an Ask, "2 of 3 answered; last: A respondent answered, with the link (14:05 UTC)". What a working MCP
 * task shows while the person has not answered. Undefined for a form not in the workspace or
 * with no events (made before the timeline).
 */
export async function statusLine(db: Db, scope: { workspaceId: string; sessionId: string }): Promise<string | undefined> {
  const [row] = await queryRows<EventRow & { ask_max: number | null; ask_answered: number }>(
    db,
    sql`select ${sql.raw(EVENT_COLUMNS)}, s.ask_max, s.ask_answered
          from form_sessions s
          join lateral (select * from interaction_events x where x.session_id = s.id order by x.pos desc limit 1) e on true
         where s.id = ${scope.sessionId} and s.workspace_id = ${scope.workspaceId}`,
  );
  if (!row) return undefined;
  const event = toEventView(row);
  const last = `${describeEvent(event)} (${clock(event.at)})`;
  return row.ask_max === null ? last : `${row.ask_answered} of ${row.ask_max} answered; last: ${last}`;
}
