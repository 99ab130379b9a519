import { newId } from '@sess/core';
import { type Db, queryRows } from '@sess/db';
import { sql } from 'drizzle-orm';
import { arrayOf } from './rows.ts';

/*
 * The fanout: sealed chain events become deliveries. For each enabled endpoint whose cursor is
 * behind its workspace's chain head, the events after the cursor (up to FANOUT_BATCH) whose type
 * it wants are written to the outbox and the cursor moves past every event looked at, in one
 * transaction, with the endpoint row locked (`skip locked`: two replicas never fan out the same
 * endpoint at once, and neither waits for the other). So an event is handed out once per
 * endpoint, and none is skipped: a crash rolls back the deliveries and the cursor together.
 */

/** Events handed out per endpoint per transaction. */
export const FANOUT_BATCH = 500;

interface DueEndpoint extends Record<string, unknown> {
  id: string;
  workspace_id: string;
  cursor: number | string;
  upto: number | string;
  event_types: string[] | string;
}

/**
 * Fans out every endpoint behind its chain head (of `workspaceId`, or of all): the deliveries
 * written, and whether an endpoint is still behind (more than FANOUT_BATCH events were due).
 */
export async function fanOut(db: Db, at: Date, workspaceId?: string): Promise<{ written: number; more: boolean }> {
  const where = workspaceId === undefined ? sql`` : sql`and w.workspace_id = ${workspaceId}`;
  return db.transaction(async (tx) => {
    const endpoints = await queryRows<DueEndpoint>(
      tx,
      sql`select w.id, w.workspace_id, w.cursor, least(c.seq, w.cursor + ${FANOUT_BATCH}) as upto, w.event_types
            from webhook_endpoints w join event_chains c on c.workspace_id = w.workspace_id
           where w.disabled_at is null and w.cursor < c.seq ${where}
           order by w.id
           for update of w skip locked`,
    );
    let written = 0;
    let more = false;
    for (const endpoint of endpoints) {
      const types = arrayOf(endpoint.event_types);
      const events = await queryRows<{ id: string; type: string }>(
        tx,
        sql`select id, type from interaction_events
             where workspace_id = ${endpoint.workspace_id} and seq > ${endpoint.cursor} and seq <= ${endpoint.upto}
             order by seq`,
      );
      const wanted = events.filter((event) => types.length === 0 || types.includes(event.type));
      if (wanted.length > 0) {
        const iso = at.toISOString();
        const values = wanted.map(
          (event) =>
            sql`(${newId('webhookDelivery')}, ${endpoint.id}, ${endpoint.workspace_id}, ${event.id}, ${event.type}, ${iso}::timestamptz, ${iso}::timestamptz)`,
        );
        await tx.execute(
          sql`insert into webhook_deliveries (id, endpoint_id, workspace_id, event_id, event_type, next_attempt_at, created_at)
              values ${sql.join(values, sql`, `)}
              on conflict (endpoint_id, event_id) do nothing`,
        );
        written += wanted.length;
      }
      await tx.execute(sql`update webhook_endpoints set cursor = ${endpoint.upto} where id = ${endpoint.id}`);
      if (Number(endpoint.upto) - Number(endpoint.cursor) === FANOUT_BATCH) more = true;
    }
    return { written, more };
  });
}
