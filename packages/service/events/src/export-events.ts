import type { InteractionEvent } from '@sess/contract';
import { type Db, queryRows } from '@sess/db';
import { sql } from 'drizzle-orm';
import { EVENT_COLUMNS, type EventRow, toEventView } from './event-view.ts';

/** Rows read per query of an export. */
const EXPORT_CHUNK = 1000;

export interface ExportRange {
  workspaceId: string;
  /** The first instant (inclusive), or */
  since?: Date;
  /** resume after this chain seq instead. */
  afterSeq?: number;
  /** The instant to stop before (exclusive); none: everything sealed so far. */
  until?: Date | undefined;
}

/**
 * The sealed events of a workspace for a range, in chain order, as one unbroken stretch of the
 * chain: from the first event at or after `since` to the last before `until`, with every event
 * sealed between them (a clock event is dated when the clock moved, which may be a moment before
 * an event sealed ahead of it), so the file verifies on its own. Yields chunk by chunk.
 */
export async function* exportEvents(db: Db, range: ExportRange): AsyncGenerator<InteractionEvent[]> {
  const ws = range.workspaceId;
  // Along the (workspace_id, seq) index: the first sealed event at or after `since`, the last before `until`.
  const [bounds] = await queryRows<{ first: string | number | null; last: string | number | null }>(
    db,
    sql`select (${
      range.afterSeq !== undefined
        ? sql`select ${range.afterSeq}::bigint + 1`
        : sql`select seq from interaction_events where workspace_id = ${ws} and seq is not null
                 and at >= ${(range.since ?? new Date(0)).toISOString()}::timestamptz order by seq limit 1`
    }) as first,
      (select seq from interaction_events where workspace_id = ${ws} and seq is not null${
        range.until ? sql` and at < ${range.until.toISOString()}::timestamptz` : sql``
      } order by seq desc limit 1) as last`,
  );
  if (!bounds || bounds.first === null || bounds.last === null) return;
  let from = Number(bounds.first);
  const last = Number(bounds.last);
  while (from <= last) {
    const rows = await queryRows<EventRow>(
      db,
      sql`select ${sql.raw(EVENT_COLUMNS)} from interaction_events e
           where e.workspace_id = ${ws} and e.seq >= ${from} and e.seq <= ${last}
           order by e.seq limit ${EXPORT_CHUNK}`,
    );
    if (rows.length === 0) return;
    yield rows.map(toEventView);
    from = Number(rows[rows.length - 1]!.seq) + 1;
  }
}
