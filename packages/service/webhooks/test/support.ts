import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventHash, GENESIS_HASH } from '@sess/core';
import { type Database, notify, queryRows } from '@sess/db';
import { eventViewOf } from '@sess/webhooks';
import { sql } from 'drizzle-orm';
import type { EventColumns } from '../src/event-view.ts';

/** One request the receiver got. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What the receiver does with the next request: answer with a status (and headers), or never answer. */
export type Behaviour = { status: number; headers?: Record<string, string> } | 'hang';

/** A real HTTP receiver on loopback: records every request; answers 204 unless told otherwise. */
export interface Receiver {
  url: string;
  received: Received[];
  /** The answers of the next requests, in order. */
  next(...behaviours: Behaviour[]): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const queue: Behaviour[] = [];
  const hanging: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const behaviour = queue.shift() ?? { status: 204 };
      if (behaviour === 'hang') return void hanging.push(res);
      res.writeHead(behaviour.status, behaviour.headers ?? {}).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/sess`,
    received,
    next: (...behaviours) => queue.push(...behaviours),
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Seals every unsealed event the way the chain sealer does (seq per workspace in `pos` order,
 * each linked to the one before), then sends `events_sealed`. A stand-in until @sess/events'
 * sealer is on main.
 */
export async function sealEvents(database: Database): Promise<void> {
  const workspaces = new Set<string>();
  await database.db.transaction(async (tx) => {
    const rows = await queryRows<EventColumns & { pos: number; [column: string]: unknown }>(
      tx,
      sql`select * from interaction_events where seq is null order by pos for update`,
    );
    for (const row of rows) {
      const [head] = await queryRows<{ seq: number | string; hash: string }>(
        tx,
        sql`select seq, hash from event_chains where workspace_id = ${row.workspace_id} for update`,
      );
      const seq = head ? Number(head.seq) + 1 : 1;
      const prevHash = head ? head.hash : GENESIS_HASH;
      const hash = eventHash({ ...eventViewOf(row), seq, prevHash, hash: undefined });
      await tx.execute(
        sql`update interaction_events set seq = ${seq}, prev_hash = ${prevHash}, hash = ${hash} where pos = ${row.pos}`,
      );
      await tx.execute(
        sql`insert into event_chains (workspace_id, seq, hash) values (${row.workspace_id}, ${seq}, ${hash})
            on conflict (workspace_id) do update set seq = excluded.seq, hash = excluded.hash`,
      );
      workspaces.add(row.workspace_id);
    }
    for (const workspaceId of workspaces) await notify(tx, 'events_sealed', workspaceId);
  });
}
