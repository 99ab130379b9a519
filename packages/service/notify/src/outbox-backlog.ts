import { type DbOrTx, queryRows } from '@sess/db';
import { sql } from 'drizzle-orm';

/** How far the notification outbox is behind: counts and an age only, across every workspace (an operator's figure). */
export interface OutboxBacklog {
  /** Rows not yet sent, reminders scheduled for later included. */
  rows: number;
  /** Rows due now (their `not_before` passed) and not yet sent. */
  due: number;
  /** Seconds since the oldest due row became due; 0 when none is due. */
  oldestDueSeconds: number;
}

/**
 * Reads the outbox's backlog in one statement that returns three numbers, never a row's
 * contents (metrics read it when scraped, behind a short cache). It spans every workspace on
 * purpose: it is the operator's view of the one outbox the workers share.
 */
export async function readOutboxBacklog(db: DbOrTx, now: Date): Promise<OutboxBacklog> {
  const at = now.toISOString();
  // Numbers as text: the drivers differ in how they hand back bigint and numeric.
  const [row] = await queryRows<{ rows: string; due: string; oldest: string | null }>(
    db,
    sql`select count(*)::text as rows,
               count(*) filter (where not_before <= ${at}::timestamptz)::text as due,
               extract(epoch from ${at}::timestamptz - min(not_before) filter (where not_before <= ${at}::timestamptz))::text as oldest
          from notification_outbox`,
  );
  return {
    rows: Number(row?.rows ?? 0),
    due: Number(row?.due ?? 0),
    oldestDueSeconds: Math.max(0, Number(row?.oldest ?? 0)),
  };
}
