import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, createTestLogger, type TestDatabase } from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type RunningServer, startServer } from '../src/index.ts';
import { LISTEN_BACKLOG } from '../src/server.ts';

const CONNECTIONS = 2_000;

/** One raw connection that sends `GET /healthz` and resolves with the status line, or rejects on any socket error. */
function healthOverRawSocket(port: number, opened: Socket[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    opened.push(socket);
    let received = '';
    socket.setEncoding('latin1');
    socket.once('error', reject);
    socket.once('connect', () => socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'));
    socket.on('data', (chunk: string) => (received += chunk));
    socket.once('end', () => resolve(received.split('\r\n', 1)[0] ?? ''));
  });
}

describe('listen backlog', () => {
  let database: TestDatabase;
  let server: RunningServer;
  let dataDir: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'sess-backlog-'));
    const config = loadConfig({
      PORT: '0',
      SESS_DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ...(database.url ? { DATABASE_URL: database.url } : {}),
    });
    server = await startServer(config, { logger: createTestLogger() });
  });
  afterAll(async () => {
    await server?.close();
    await database?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('listens with a backlog of 4096 (Send-Q of the listening socket on Linux)', () => {
    const port = new URL(server.url).port;
    const line = execFileSync('ss', ['-ltnH', `sport = :${port}`], { encoding: 'utf8' }).trim();
    // State  Recv-Q  Send-Q  Local:Port  Peer:Port — for a listener, Send-Q is the backlog.
    const [, , sendQ] = line.split(/\s+/);
    expect(LISTEN_BACKLOG).toBe(4096);
    expect(Number(sendQ)).toBe(LISTEN_BACKLOG);
  });

  it(`accepts ${CONNECTIONS} connections opened at once, none refused or reset`, async () => {
    const port = Number(new URL(server.url).port);
    const opened: Socket[] = [];
    try {
      const outcomes = await Promise.allSettled(Array.from({ length: CONNECTIONS }, () => healthOverRawSocket(port, opened)));
      const failures = outcomes.filter((o) => o.status === 'rejected').map((o) => String((o as PromiseRejectedResult).reason));
      expect(failures).toEqual([]);
      const statuses = new Set(outcomes.map((o) => (o as PromiseFulfilledResult<string>).value));
      expect([...statuses]).toEqual(['HTTP/1.1 200 OK']);
    } finally {
      for (const socket of opened) socket.destroy();
    }
  }, 10_000);
});
