import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Database } from '@sess/db';
import { SEAL_BATCH, sealWaitingEvents } from '@sess/events';

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

/** Seals every unsealed event with @sess/events' chain sealer (which sends `events_sealed`). */
export async function sealEvents(database: Database): Promise<void> {
  while ((await sealWaitingEvents(database.db)) === SEAL_BATCH) {}
}
