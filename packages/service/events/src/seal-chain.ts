import { eventHash, GENESIS_HASH } from '@sess/core';
import { type Db, queryRows } from '@sess/db';
import { sql } from 'drizzle-orm';
import { EVENT_COLUMNS, type EventRow, toEventView } from './event-view.ts';

/*
 * The sealer links each workspace's events into its hash chain, a moment after they commit. The
 * triggers write events without a place in the chain, so a create never waits on its workspace's
 * chain head. One transaction seals the waiting events of many workspaces at once (events spread
 * over many tenants would otherwise cost a transaction each): it takes their heads
 * (`for update skip locked`: a workspace another replica is sealing is left to it), gives each
 * workspace's waiting events the next places in the order they were written, and moves the heads.
 * `events_sealed` tells the webhooks.
 */

export const EVENTS_WRITTEN_CHANNEL = 'events_written';
export const EVENTS_SEALED_CHANNEL = 'events_sealed';

/** Events sealed per transaction, at most; more wait for the next round. */
export const SEAL_BATCH = 5000;

type Head = { workspace_id: string; seq: number | string; hash: string };

/**
 * Seals waiting events (at most `limit`, the oldest first) in one transaction; returns how many.
 * 0 while events wait means another transaction holds every one of their chains.
 */
export async function sealWaitingEvents(db: Db, limit = SEAL_BATCH): Promise<number> {
  return db.transaction(async (tx) => {
    const candidates = await queryRows<{ workspace_id: string }>(
      tx,
      sql`select distinct workspace_id from (
            select workspace_id from interaction_events where seq is null order by pos limit ${limit}) w
          order by workspace_id`,
    );
    if (candidates.length === 0) return 0;
    const ids = candidates.map((r) => r.workspace_id);
    // A workspace's first event makes its head (sorted, so two replicas insert in one order).
    await tx.execute(
      sql`insert into event_chains (workspace_id, seq, hash)
          select id, 0, ${GENESIS_HASH} from json_array_elements_text(${JSON.stringify(ids)}::json) as id
          on conflict do nothing`,
    );
    const heads = await queryRows<Head>(
      tx,
      sql`select workspace_id, seq, hash from event_chains where workspace_id in (select json_array_elements_text(${JSON.stringify(ids)}::json))
          for update skip locked`,
    );
    if (heads.length === 0) return 0;
    // Read after the heads are held: what another replica sealed before letting go is seen as sealed.
    const waiting = await queryRows<EventRow>(
      tx,
      sql`select ${sql.raw(EVENT_COLUMNS)} from interaction_events e
           where e.seq is null and e.workspace_id in (select json_array_elements_text(${JSON.stringify(heads.map((h) => h.workspace_id))}::json))
           order by e.pos limit ${limit}`,
    );
    if (waiting.length === 0) return 0;
    const chains = new Map(heads.map((h) => [h.workspace_id, { seq: Number(h.seq), hash: h.hash }]));
    const sealed = waiting.map((row) => {
      const chain = chains.get(row.workspace_id)!;
      chain.seq += 1;
      const hash = eventHash({ ...toEventView(row), seq: chain.seq, prevHash: chain.hash, hash: null });
      const placed = { pos: Number(row.pos), seq: chain.seq, prev_hash: chain.hash, hash };
      chain.hash = hash;
      return placed;
    });
    const moved = [...chains].map(([workspace_id, head]) => ({ workspace_id, seq: head.seq, hash: head.hash }));
    // The events, the heads and the wake in one statement.
    await tx.execute(
      sql`with placed as (
            update interaction_events e set seq = v.seq, prev_hash = v.prev_hash, hash = v.hash
              from json_to_recordset(${JSON.stringify(sealed)}::json) as v(pos bigint, seq bigint, prev_hash text, hash text)
             where e.pos = v.pos returning 1),
          moved as (
            update event_chains c set seq = v.seq, hash = v.hash
              from json_to_recordset(${JSON.stringify(moved)}::json) as v(workspace_id text, seq bigint, hash text)
             where c.workspace_id = v.workspace_id returning 1)
          select pg_notify(${EVENTS_SEALED_CHANNEL}, ''), (select count(*) from placed), (select count(*) from moved)`,
    );
    return sealed.length;
  });
}

/** Events written but not yet sealed, across every workspace (an operator's figure, for metrics). */
export async function countUnsealedEvents(db: Db): Promise<number> {
  const [row] = await queryRows<{ n: string }>(db, sql`select count(*)::text as n from interaction_events where seq is null`);
  return Number(row?.n ?? 0);
}
