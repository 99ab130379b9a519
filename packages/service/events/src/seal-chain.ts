import { eventHash, GENESIS_HASH } from '@sess/core';
import { type Db, type DbOrTx, queryRows } from '@sess/db';
import { sql } from 'drizzle-orm';
import { EVENT_COLUMNS, type EventRow, toEventView } from './event-view.ts';

/*
 * The sealer links each workspace's events into its hash chain, a moment after they commit. The
 * triggers write events without a place in the chain, so a create never waits on its workspace's
 * chain head; here one transaction per workspace takes the head (`for update skip locked`: another
 * replica sealing it is left to it), gives the waiting events the next places in the order they
 * were written, and moves the head. `events_sealed` (the workspace id) tells the webhooks.
 */

export const EVENTS_WRITTEN_CHANNEL = 'events_written';
export const EVENTS_SEALED_CHANNEL = 'events_sealed';

/** Events sealed per transaction, at most; more wait for the next round. */
const SEAL_BATCH = 5000;

/** The workspace's chain head, locked; made on its first use. Undefined while another transaction holds it. */
async function lockHead(tx: DbOrTx, workspaceId: string): Promise<{ seq: number | string; hash: string } | undefined> {
  const take = () =>
    queryRows<{ seq: number | string; hash: string }>(
      tx,
      sql`select seq, hash from event_chains where workspace_id = ${workspaceId} for update skip locked`,
    );
  const [head] = await take();
  if (head) return head;
  const made = await queryRows<{ seq: number | string; hash: string }>(
    tx,
    sql`insert into event_chains (workspace_id, seq, hash) values (${workspaceId}, 0, ${GENESIS_HASH})
        on conflict do nothing returning seq, hash`,
  );
  // Made here, so locked by this transaction; or made (or held) by another meanwhile: take it if free.
  return made[0] ?? (await take())[0];
}

/** Workspaces with events waiting for their place in the chain. */
export async function workspacesToSeal(db: Db, limit = 100): Promise<string[]> {
  const rows = await queryRows<{ workspace_id: string }>(
    db,
    sql`select distinct workspace_id from (
          select workspace_id from interaction_events where seq is null order by pos limit ${limit * 10}) w
        limit ${limit}`,
  );
  return rows.map((r) => r.workspace_id);
}

/**
 * Seals the waiting events of one workspace (at most SEAL_BATCH); returns how many, 0 when
 * another transaction holds the workspace's chain.
 */
export async function sealWorkspace(db: Db, workspaceId: string): Promise<number> {
  return db.transaction(async (tx) => {
    const head = await lockHead(tx, workspaceId);
    if (!head) return 0;
    const waiting = await queryRows<EventRow>(
      tx,
      sql`select ${sql.raw(EVENT_COLUMNS)} from interaction_events e
           where e.workspace_id = ${workspaceId} and e.seq is null order by e.pos limit ${SEAL_BATCH}`,
    );
    if (waiting.length === 0) return 0;
    let seq = Number(head.seq);
    let prevHash = head.hash;
    const sealed = waiting.map((row) => {
      seq += 1;
      const view = { ...toEventView(row), seq, prevHash, hash: null };
      const hash = eventHash(view);
      prevHash = hash;
      return { pos: Number(row.pos), seq, prev_hash: view.prevHash, hash };
    });
    // The events, the head and the wake in one statement.
    await tx.execute(
      sql`with placed as (
            update interaction_events e set seq = v.seq, prev_hash = v.prev_hash, hash = v.hash
              from json_to_recordset(${JSON.stringify(sealed)}::json) as v(pos bigint, seq bigint, prev_hash text, hash text)
             where e.pos = v.pos returning 1),
          moved as (update event_chains set seq = ${seq}, hash = ${prevHash} where workspace_id = ${workspaceId} returning 1)
          select pg_notify(${EVENTS_SEALED_CHANNEL}, ${workspaceId}), (select count(*) from placed) from moved`,
    );
    return sealed.length;
  });
}

/** Events written but not yet sealed, across every workspace (an operator's figure, for metrics). */
export async function countUnsealedEvents(db: Db): Promise<number> {
  const [row] = await queryRows<{ n: string }>(db, sql`select count(*)::text as n from interaction_events where seq is null`);
  return Number(row?.n ?? 0);
}
