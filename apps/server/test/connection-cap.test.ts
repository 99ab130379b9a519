import { mkdtempSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createTestDatabase,
  createTestLogger,
  createWorkspaceWithKey,
  freePort,
  sampleSurface,
  type TestDatabase,
} from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type RunningServer, startServer } from '../src/index.ts';
import { openIdleConnection, type RawResponse, requestOnOwnConnection } from './support/raw-http.ts';

/*
 * The connection cap (issue 33) on the real server, with SESS_MAX_CONNECTIONS set low: near the
 * cap each new connection lets the oldest parked wait go (it answers `waiting`, Connection: close)
 * so pages, health and creates still get in; past the cap a request is answered 503, not reset,
 * and health still 200. Every request here has a connection of its own, so the server's count of
 * open connections is known; the test waits for it to settle (expect.poll), never for time.
 */

interface Sess {
  server: RunningServer;
  base: string;
  close(): Promise<void>;
}

async function startSess(maxConnections: number): Promise<Sess> {
  const database: TestDatabase = await createTestDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'sess-cap-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = await startServer(
    loadConfig({
      NODE_ENV: 'test',
      PORT: String(port),
      PUBLIC_URL: base,
      SESS_DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      SESS_NOTIFICATIONS: 'off',
      SESS_MAX_CONNECTIONS: String(maxConnections),
      ...(database.url ? { DATABASE_URL: database.url } : {}),
    }),
    { logger: createTestLogger() },
  );
  return {
    server,
    base,
    async close() {
      await server.close();
      await database.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const idle: Socket[] = [];
/** Opens `n` idle connections and waits until the server counts `expected` open. */
async function openIdle(sess: Sess, n: number, expected: number): Promise<void> {
  for (let i = 0; i < n; i++) idle.push(await openIdleConnection(Number(new URL(sess.base).port)));
  await expect.poll(() => sess.server.connections!.size).toBe(expected);
}
function closeIdle(): void {
  for (const socket of idle.splice(0)) socket.destroy();
}

describe('near the connection cap (SESS_MAX_CONNECTIONS=40: the cap 40, waits let go from 32)', () => {
  let sess: Sess;
  beforeAll(async () => {
    sess = await startSess(40);
  });
  afterAll(async () => {
    closeIdle();
    await sess?.close();
  });

  it('each new connection lets the oldest parked wait go (waiting, Connection: close); pages, health and a create still get in', async () => {
    const { server, base } = sess;
    expect(server.connections!.limits).toEqual({ hard: 40, soft: 32 });
    const workspace = await createWorkspaceWithKey(server.database.db);
    const headers = { authorization: `Bearer ${workspace.apiKey}`, 'content-type': 'application/json' };
    const create = () =>
      requestOnOwnConnection(`${base}/v1/sessions`, {
        method: 'POST',
        headers: { ...headers, 'idempotency-key': crypto.randomUUID() },
        body: JSON.stringify({ interaction: sampleSurface(), expires_in: 3600 }),
      });
    const created = await create();
    expect(created.status).toBe(201);
    const session = JSON.parse(created.text) as { sessionId: string; humanUrl: string };
    await expect.poll(() => server.connections!.size).toBe(0);

    // 20 waits, each parked before the next is sent: their age order is the order sent.
    const settled: number[] = [];
    const waits: Array<Promise<RawResponse>> = [];
    for (let i = 0; i < 20; i++) {
      const wait = requestOnOwnConnection(`${base}/v1/sessions/${session.sessionId}?wait_ms=45000`, { headers });
      waits.push(
        wait.then((response) => {
          settled.push(i);
          return response;
        }),
      );
      await expect.poll(() => server.connections!.parkedWaits).toBe(i + 1);
    }
    await openIdle(sess, 11, 31);
    expect(settled).toEqual([]);

    // The 32nd connection lets the oldest wait go; it says waiting and closes its connection.
    for (const oldest of [0, 1]) {
      await openIdle(sess, 1, 32);
      const released = await waits[oldest]!;
      expect(released.status).toBe(200);
      expect(JSON.parse(released.text)).toMatchObject({ sessionId: session.sessionId, state: 'waiting' });
      expect(released.headers.connection).toBe('close');
      expect(settled).toEqual(oldest === 0 ? [0] : [0, 1]);
      await expect.poll(() => server.connections!.size).toBe(31);
    }
    expect(server.connections!.parkedWaits).toBe(18);

    // Still near the cap: the person's page (its connection the 32nd: it lets the next-oldest
    // wait go), health and a create are answered, and close their connections.
    const page = await requestOnOwnConnection(session.humanUrl);
    expect(page.status).toBe(200);
    expect(page.headers.connection).toBe('close');
    await expect.poll(() => settled.length).toBe(3);
    for (const path of ['/healthz', '/readyz']) {
      const health = await requestOnOwnConnection(`${base}${path}`);
      expect(health.status).toBe(200);
      expect(health.headers.connection).toBe('close');
    }
    expect((await create()).status).toBe(201);
    // Waits were let go oldest first, and only as connections came at the cap.
    expect(settled).toEqual([...settled.keys()]);
    expect(server.connections!.parkedWaits).toBe(20 - settled.length);

    // The rest were only waiting: an answer reaches them.
    closeIdle();
    const answered = await fetch(`${base}/v1/sessions/${session.sessionId}/withdraw`, {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': crypto.randomUUID() },
    });
    expect(answered.status).toBe(200);
    const rest = await Promise.all(waits.slice(settled.length));
    for (const wait of rest) expect(JSON.parse(wait.text)).toMatchObject({ state: 'withdrawn' });
  });
});

describe('past the connection cap (SESS_MAX_CONNECTIONS=16)', () => {
  let sess: Sess;
  beforeAll(async () => {
    sess = await startSess(16);
  });
  afterAll(async () => {
    closeIdle();
    await sess?.close();
  });

  it('a request on a connection past the cap is answered 503 with Retry-After and closed, never reset; health is still 200', async () => {
    const { server, base } = sess;
    await expect.poll(() => server.connections!.size).toBe(0);
    await openIdle(sess, 16, 16);
    const refused = await requestOnOwnConnection(`${base}/v1/sessions`, { headers: { authorization: 'Bearer sess_x' } });
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.headers.connection).toBe('close');
    expect(JSON.parse(refused.text)).toMatchObject({ error: { code: 'SESS_UNAVAILABLE', retryable: true, reason: 'busy' } });
    const page = await requestOnOwnConnection(`${base}/`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(503);
    expect(page.text).toContain('Sess is busy');
    const health = await requestOnOwnConnection(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(health.headers.connection).toBe('close');
    expect((await requestOnOwnConnection(`${base}/readyz`)).status).toBe(200);

    closeIdle();
    await expect.poll(() => server.connections!.size).toBe(0);
    expect((await requestOnOwnConnection(`${base}/`, { headers: { accept: 'text/html' } })).status).toBe(200);
  });
});
