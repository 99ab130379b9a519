import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, createTestLogger, freePort, type TestDatabase } from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type RunningServer, startServer } from '../src/index.ts';

/* The metrics listener's start: on loopback by default, and a taken METRICS_PORT leaves nothing open. */

let database: TestDatabase;
let dataDir: string;
/** Started here, where an embedded database's first open and migrations may take their time; the first test closes it. */
let on: RunningServer;

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'sess-metrics-listener-'));
  on = await startServer(configWith({ PORT: '0', METRICS_PORT: '0' }), { logger: createTestLogger() });
});
afterAll(async () => {
  await on?.close();
  await database?.destroy();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const configWith = (env: Record<string, string>) =>
  loadConfig({ SESS_DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...(database.url ? { DATABASE_URL: database.url } : {}), ...env });

function listenOn(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ port, host: '127.0.0.1' }, () => resolve(server));
  });
}

const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('the metrics listener', () => {
  it('binds loopback by default and serves /metrics there (no token: not on the main listener)', async () => {
    try {
      expect(on.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const scraped = await fetch(`${on.metricsUrl}/metrics`);
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain('# TYPE sess_parked_waits gauge');
      // No token: nothing on the main listener.
      expect((await fetch(`${on.url}/metrics`)).status).toBe(404);
    } finally {
      await on.close();
    }
  });

  it('without METRICS_* there is no listener and no /metrics', async () => {
    const off = await startServer(configWith({ PORT: '0' }), { logger: createTestLogger() });
    try {
      expect(off.metricsUrl).toBeUndefined();
      expect((await fetch(`${off.url}/metrics`)).status).toBe(404);
    } finally {
      await off.close();
    }
  });

  it('a METRICS_PORT already taken fails the start and leaves the main port free', async () => {
    const taken = await listenOn(await freePort());
    const metricsPort = (taken.address() as { port: number }).port;
    const port = await freePort();
    try {
      await expect(
        startServer(configWith({ PORT: String(port), METRICS_PORT: String(metricsPort) }), { logger: createTestLogger() }),
      ).rejects.toMatchObject({ code: 'EADDRINUSE' });
      // Nothing of that start is left: its main port binds again.
      await closeServer(await listenOn(port));
    } finally {
      await closeServer(taken);
    }
  });
});
