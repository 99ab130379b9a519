import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, type IncomingHttpHeaders, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import {
  createTestDatabase,
  createTestLogger,
  createWorkspaceWithKey,
  freePort,
  sampleSurface,
  type TestDatabase,
  type TestWorkspace,
  testDriver,
} from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type RunningServer, startServer } from '../src/index.ts';
import { connectWithKey } from './support/notify-device.ts';

/*
 * A graceful stop, in process, on both drivers: draining answers /readyz 503 while everything
 * else is still served (each response closing its connection), and closing answers every parked
 * wait (the /v1 wait, the answer page's live wait, MCP sess_response) with its current state at
 * once, so its client waits again elsewhere, instead of holding the stop until the grace period
 * cuts the connection. The grace is a minute here: a wait that is not answered shows as a test
 * that times out, or as `server.grace_elapsed` in the log.
 */

type Interaction = { handle: string; revision: number; state: string; humanUrl: string };
const interactionOf = (result: unknown) =>
  (result as { structuredContent: { interaction: Interaction } }).structuredContent.interaction;

/** Keeps connections open between requests, as a proxy does. */
const keepAlive = new Agent({ keepAlive: true });

/** One GET with the response's status, headers (Connection included, which fetch hides) and body. */
function get(url: string) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
    request(url, { agent: keepAlive }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('a graceful stop (in process)', () => {
  let database: TestDatabase | undefined;
  let dataDir: string;
  let server: RunningServer;
  let workspace: TestWorkspace;
  let mcp: Client;
  const logs: Array<{ event?: string; parkedWaits?: number }> = [];

  const v1 = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${workspace.apiKey}`, 'content-type': 'application/json', ...init.headers },
    });
  const createOnV1 = async (key: string) => {
    const created = await v1('/v1/sessions', {
      method: 'POST',
      headers: { 'idempotency-key': key },
      body: JSON.stringify({ interaction: sampleSurface('Deploy while this replica stops?') }),
    });
    expect(created.status).toBe(201);
    return (await created.json()) as { sessionId: string; humanUrl: string };
  };

  beforeAll(async () => {
    // PostgreSQL: a fresh database of this test's own; PGlite: the server's embedded one in dataDir.
    if (testDriver() === 'postgres') database = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'sess-graceful-stop-'));
    const port = await freePort();
    const config = loadConfig({
      NODE_ENV: 'test',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SESS_DATA_DIR: dataDir,
      SHUTDOWN_GRACE_MS: '60000',
      ...(database?.url ? { DATABASE_URL: database.url } : {}),
    });
    const destination = { write: (line: string) => logs.push(JSON.parse(line)) };
    server = await startServer(config, { logger: createTestLogger({ level: 'info', destination }) });
    workspace = await createWorkspaceWithKey(server.database.db, { plan: 'pro' });
    mcp = await connectWithKey(server.url, workspace.apiKey);
  });
  afterAll(async () => {
    await mcp?.close().catch(() => {});
    keepAlive.destroy();
    await server?.close();
    await database?.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('draining: /readyz answers 503 at once, everything else is still served, and every response closes its connection', async () => {
    const before = await get(`${server.url}/readyz`);
    expect(before.status).toBe(200);
    expect(before.headers.connection).toBe('keep-alive');

    server.drain();
    const readyz = await get(`${server.url}/readyz`);
    expect(readyz.status).toBe(503);
    expect(JSON.parse(readyz.body)).toEqual({ status: 'stopping' });
    expect(readyz.headers.connection).toBe('close');
    const health = await get(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(health.headers.connection).toBe('close');
    // Work is still taken while a proxy's health check notices.
    const created = await createOnV1('made-while-draining');
    const page = await get(created.humanUrl);
    expect(page.status).toBe(200);
    expect(page.headers.connection).toBe('close');
  });

  it('closing answers every parked wait with its current state at once, then stops within the grace', async () => {
    const onV1 = await createOnV1('waited-on-over-v1');
    const onMcp = interactionOf(await mcp.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface() } }));
    const pageToken = new URL(onV1.humanUrl).pathname.split('/')[2]!;

    const waits = [
      v1(`/v1/sessions/${onV1.sessionId}?wait_ms=45000`).then(async (r) => ({ status: r.status, body: await r.json() })),
      get(`${server.url}/s/${pageToken}/wait?revision=1&state=open`).then((r) => ({
        status: r.status,
        body: JSON.parse(r.body),
      })),
      mcp
        .callTool({ name: 'sess_response', arguments: { handle: onMcp.handle, revision: 1, wait_ms: 45_000 } })
        .then((result) => ({ status: 200, body: interactionOf(result) })),
    ];
    await expect.poll(() => server.parkedWaits(), { timeout: 10_000, interval: 5 }).toBe(3);

    const closed = server.close();
    const [overV1, onPage, overMcp] = await Promise.all(waits);
    await closed;

    expect(overV1).toMatchObject({ status: 200, body: { sessionId: onV1.sessionId, revision: 1, state: 'waiting' } });
    expect(onPage).toEqual({ status: 200, body: { state: 'open', revision: 1 } });
    expect(overMcp).toMatchObject({ status: 200, body: { handle: onMcp.handle, revision: 1, state: 'waiting' } });
    const events = logs.map((line) => line.event);
    expect(logs.find((line) => line.event === 'server.stopping')).toMatchObject({ parkedWaits: 3 });
    expect(events).toContain('server.stopped');
    expect(events).not.toContain('server.grace_elapsed');
    await expect(get(`${server.url}/healthz`)).rejects.toThrow(/ECONNREFUSED/);
  }, 30_000);
});
