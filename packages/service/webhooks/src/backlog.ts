import { type DbOrTx, queryRows } from '@sess/db';
import { sql } from 'drizzle-orm';

/** How far the webhook outbox is behind: counts and an age only, across every workspace (an operator's figure). */
export interface WebhookBacklog {
  /** Deliveries not yet delivered, retries scheduled for later included. */
  pending: number;
  /** Of those, the ones due now. */
  due: number;
  /** Seconds since the oldest due delivery became due; 0 when none is due. */
  oldestDueSeconds: number;
}

/** The backlog in one statement of three numbers, never a row's contents (metrics read it when scraped). */
export async function readWebhookBacklog(db: DbOrTx, now: Date): Promise<WebhookBacklog> {
  const at = now.toISOString();
  const [row] = await queryRows<{ pending: string; due: string; oldest: string | null }>(
    db,
    sql`select count(*)::text as pending,
               count(*) filter (where next_attempt_at <= ${at}::timestamptz)::text as due,
               extract(epoch from ${at}::timestamptz - min(next_attempt_at) filter (where next_attempt_at <= ${at}::timestamptz))::text as oldest
          from webhook_deliveries where status = 'pending'`,
  );
  return {
    pending: Number(row?.pending ?? 0),
    due: Number(row?.due ?? 0),
    oldestDueSeconds: Math.max(0, Number(row?.oldest ?? 0)),
  };
}
