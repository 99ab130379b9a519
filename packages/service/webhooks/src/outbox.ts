import type { WebhookAttemptRecord } from '@sess/db';
import { type DbOrTx, queryRows } from '@sess/db';
import type { EventRow } from '@sess/events';
import { sql } from 'drizzle-orm';
import { toDate } from './rows.ts';

/*
 * The outbox's statements: claim due deliveries with what sending them needs (the endpoint, the
 * event, an answer's receipt) in one statement, and settle one try. A claim is a lease
 * (`locked_until`, `for update skip locked`) and counts the attempt; every settle is fenced on
 * that attempt, so a worker whose lease ran out cannot overwrite what the next one did.
 */

/** The tries the delivery log keeps per delivery. */
export const KEPT_ATTEMPTS = 5;

export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  workspaceId: string;
  eventId: string;
  eventType: string;
  /** This claim's attempt. */
  attempts: number;
  createdAt: Date;
  endpoint: {
    id: string;
    url: string;
    sealedSecret: string;
    sealedPreviousSecret: string | null;
    previousSecretUntil: Date | null;
    disabled: boolean;
  };
  /** The chain event; undefined for a test event (or an event gone with its workspace). */
  event: EventRow | undefined;
  /** `answered`: the answer's receipt (compact JWS). */
  receipt: string | null;
}

interface ClaimRow extends Record<string, unknown> {
  id: string;
  endpoint_id: string;
  workspace_id: string;
  event_id: string;
  event_type: string;
  attempts: number;
  created_at: string | Date;
  url: string;
  sealed_secret: string;
  sealed_previous_secret: string | null;
  previous_secret_until: string | Date | null;
  disabled_at: string | Date | null;
  /** The chain event's row (row_to_json: the same columns as `EventRow`), null for a test event. */
  event: EventRow | null;
  receipt: string | null;
}

/** Claims up to `batch` due deliveries for `leaseMs`, counting the attempt. */
export async function claimDue(db: DbOrTx, options: { at: Date; leaseMs: number; batch: number }): Promise<ClaimedDelivery[]> {
  const at = options.at.toISOString();
  const lease = new Date(options.at.getTime() + options.leaseMs).toISOString();
  const rows = await queryRows<ClaimRow>(
    db,
    sql`with due as (
          select id from webhook_deliveries
           where status = 'pending' and next_attempt_at <= ${at}::timestamptz
             and (locked_until is null or locked_until < ${at}::timestamptz)
           order by next_attempt_at
           limit ${options.batch}
           for update skip locked),
        claimed as (
          update webhook_deliveries d set locked_until = ${lease}::timestamptz, attempts = d.attempts + 1
            from due where d.id = due.id
          returning d.id, d.endpoint_id, d.workspace_id, d.event_id, d.event_type, d.attempts, d.created_at)
        select c.id, c.endpoint_id, c.workspace_id, c.event_id, c.event_type, c.attempts, c.created_at,
               w.url, w.sealed_secret, w.sealed_previous_secret, w.previous_secret_until, w.disabled_at,
               row_to_json(e) as event, a.receipt
          from claimed c
          join webhook_endpoints w on w.id = c.endpoint_id
          left join interaction_events e on e.id = c.event_id and e.workspace_id = c.workspace_id
          left join form_answers a on e.type = 'answered' and a.id = e.response_event_id and a.workspace_id = c.workspace_id`,
  );
  return rows.map((row) => ({
    id: row.id,
    endpointId: row.endpoint_id,
    workspaceId: row.workspace_id,
    eventId: row.event_id,
    eventType: row.event_type,
    attempts: Number(row.attempts),
    createdAt: toDate(row.created_at),
    endpoint: {
      id: row.endpoint_id,
      url: row.url,
      sealedSecret: row.sealed_secret,
      sealedPreviousSecret: row.sealed_previous_secret,
      previousSecretUntil: row.previous_secret_until === null ? null : toDate(row.previous_secret_until),
      disabled: row.disabled_at !== null,
    },
    event: row.event ?? undefined,
    receipt: row.receipt,
  }));
}

/** How a try ended for its delivery: sent, tried again at `nextAt`, given up, or its endpoint gone (410). */
export type DeliveryEnd =
  | { end: 'delivered' }
  | { end: 'retry'; nextAt: Date }
  | { end: 'failed' }
  | { end: 'dropped' }
  | { end: 'gone' };

/**
 * Records a try and how it ended, only while the delivery is still this claim's (same attempt).
 * `gone` disables the endpoint and drops its other pending deliveries, in the same statement.
 */
export async function settleDelivery(
  db: DbOrTx,
  row: { id: string; endpointId: string; attempts: number },
  attempt: WebhookAttemptRecord,
  end: DeliveryEnd,
  at: Date,
): Promise<void> {
  const status = end.end === 'retry' ? 'pending' : end.end === 'gone' ? 'dropped' : end.end;
  const next = end.end === 'retry' ? end.nextAt.toISOString() : at.toISOString();
  const record = JSON.stringify([attempt]);
  await db.execute(
    sql`with settled as (
          update webhook_deliveries d
             set status = ${status}, next_attempt_at = ${next}::timestamptz, locked_until = null,
                 last_attempts = (select coalesce(jsonb_agg(t.x order by t.i), '[]'::jsonb)
                                    from jsonb_array_elements(d.last_attempts || ${record}::jsonb) with ordinality t(x, i)
                                   where t.i > jsonb_array_length(d.last_attempts) + 1 - ${KEPT_ATTEMPTS})
           where d.id = ${row.id} and d.attempts = ${row.attempts}
          returning d.endpoint_id),
        disabled as (
          update webhook_endpoints w set disabled_at = ${at.toISOString()}::timestamptz, disabled_reason = 'gone'
           where ${end.end === 'gone'} and w.id in (select endpoint_id from settled) and w.disabled_at is null
          returning w.id),
        dropped as (
          update webhook_deliveries d set status = 'dropped', locked_until = null
           where d.endpoint_id in (select id from disabled) and d.status = 'pending' and d.id <> ${row.id}
          returning 1)
        select (select count(*) from settled) as settled, (select count(*) from dropped) as dropped`,
  );
}
