import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@sess/db';
import { createTestDatabase, createTestLogger, freePort, sampleSurface, type TestDatabase, testDriver } from '@sess/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, type RunningServer, startServer } from '../src/index.ts';
import { requestOnOwnConnection as send } from './support/raw-http.ts';

/*
 * Sess listens before its database is open (issue 33: an embedded database replaying its WAL
 * after a crash takes seconds). Here the real database's opening is held back until the test
 * lets it go: meanwhile every face is answered at once, alive but not ready, and nothing is
 * queued; once it is open, the same requests are served.
 */
describe(`requests while the database opens (${testDriver()})`, () => {
  let database: TestDatabase | undefined;
  let dataDir: string | undefined;
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.close();
    await database?.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers /healthz 200 and everything else 503 `starting` with Retry-After until the database is open, then serves', async () => {
    if (testDriver() === 'postgres') database = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'sess-while-starting-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const config = loadConfig({
      NODE_ENV: 'test',
      PORT: String(port),
      PUBLIC_URL: base,
      SESS_DATA_DIR: dataDir,
      ...(database?.url ? { DATABASE_URL: database.url } : {}),
    });
    let letOpen!: () => void;
    const held = new Promise<void>((resolve) => (letOpen = resolve));
    let opening!: () => void;
    const openingStarted = new Promise<void>((resolve) => (opening = resolve));
    const started = startServer(config, {
      logger: createTestLogger(),
      openDatabase: async (options) => {
        opening();
        await held;
        return openDatabase(options);
      },
    });
    await openingStarted;

    // Each request on a connection of its own: no keep-alive socket left idle across the opening.
    const health = await send(`${base}/healthz`);
    expect([health.status, JSON.parse(health.text)]).toEqual([200, { status: 'starting' }]);
    const ready = await send(`${base}/readyz`);
    expect([ready.status, JSON.parse(ready.text)]).toEqual([503, { status: 'starting' }]);

    const createBody = JSON.stringify({ interaction: sampleSurface() });
    const v1Headers = { authorization: 'Bearer sess_sk_whatever', 'content-type': 'application/json' };
    const create = await send(`${base}/v1/sessions`, { method: 'POST', headers: v1Headers, body: createBody });
    expect(create.status).toBe(503);
    expect(create.headers['retry-after']).toBe('5');
    expect(JSON.parse(create.text)).toMatchObject({
      error: {
        code: 'SESS_UNAVAILABLE',
        retryable: true,
        reason: 'starting',
        message: 'Sess is starting and did not start this request; nothing was changed. Try again in 5 seconds.',
      },
    });

    const mcp = await send(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(mcp.status).toBe(503);
    expect(mcp.headers['retry-after']).toBe('5');
    expect(JSON.parse(mcp.text)).toMatchObject({
      error: { code: -32000, data: { code: 'SESS_UNAVAILABLE', reason: 'starting' } },
    });

    const page = await send(`${base}/s/some-link-token`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(503);
    expect(page.headers['retry-after']).toBe('5');
    expect(page.text).toContain('Sess is starting');

    const token = await send(`${base}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=refresh_token',
    });
    expect(token.status).toBe(503);
    expect(JSON.parse(token.text)).toMatchObject({ error: 'temporarily_unavailable' });

    letOpen();
    server = await started;
    expect((await send(`${base}/readyz`)).status).toBe(200);
    expect(JSON.parse((await send(`${base}/healthz`)).text)).toEqual({ status: 'ok' });
    const refused = await send(`${base}/v1/sessions`, { method: 'POST', headers: v1Headers, body: createBody });
    // Served now: the made-up key is refused by the app, not by the start.
    expect(refused.status).toBe(401);
  });

  it('a database that cannot be opened stops the start and frees the port', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sess-while-starting-fail-'));
    const port = await freePort();
    try {
      const config = loadConfig({
        NODE_ENV: 'test',
        PORT: String(port),
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        SESS_DATA_DIR: dir,
      });
      await expect(
        startServer(config, {
          logger: createTestLogger(),
          openDatabase: async () => {
            throw new Error('no database here');
          },
        }),
      ).rejects.toThrow('no database here');
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
