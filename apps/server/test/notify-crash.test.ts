import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, migrate, openDatabase, queryRows } from '@sess/db';
import { createNotifySealers, DEFAULT_SETTINGS, loadVapidKeys, parsePushTarget, saveDevice, saveSettings } from '@sess/notify';
import {
  createTestDatabase,
  createWorkspaceWithKey,
  freePort,
  sampleSurface,
  TEST_SECRET,
  type TestDatabase,
  testDriver,
} from '@sess/testkit';
import { startPushService, type TestPushService } from '@sess/testkit/push-service';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliProcess, startCli } from './support/cli-process.ts';
import { connectWithKey } from './support/notify-device.ts';

/*
 * A crash between the commit and the send never loses a notification and never sends it twice:
 * a real `sess serve` process (the CLI from the sources) creates a form through /mcp with its
 * notification committed in the outbox but not sent (SESS_TEST_HOLD_NOTIFICATIONS=1: this
 * process starts no worker), is killed with SIGKILL, and the next process on the same database
 * delivers it exactly once. On both drivers: PGlite's data dir, reopened after the crash.
 */

const SLOW = { timeout: 240_000 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(read: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(100);
  }
}

describe('a crash between commit and send (child processes, SIGKILL)', () => {
  let push: TestPushService;
  let postgres: TestDatabase | undefined;
  let dataDir: string | undefined;
  const running: CliProcess[] = [];

  beforeAll(async () => {
    push = await startPushService();
    if (testDriver() === 'postgres') postgres = await createTestDatabase();
    else dataDir = mkdtempSync(join(tmpdir(), 'sess-notify-crash-'));
  });
  afterAll(async () => {
    for (const process of running) if (process.child.exitCode === null) process.child.kill('SIGKILL');
    await Promise.all(running.map((process) => process.exited));
    await postgres?.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await push?.close();
  });

  /** The database the processes use, opened by the test while no process holds it (PGlite) or beside them. */
  async function withDatabase<T>(run: (database: Database) => Promise<T>): Promise<T> {
    if (postgres) return run(postgres);
    const database = await openDatabase({ dataDir: join(dataDir!, 'pglite') });
    try {
      await migrate(database.db);
      return await run(database);
    } finally {
      await database.close();
    }
  }

  it('the notification committed with the form is delivered once, by the next process', SLOW, async () => {
    // A workspace owner who chose to be told of API-key forms, with one device.
    const seeded = await withDatabase(async ({ db }) => {
      const workspace = await createWorkspaceWithKey(db);
      await saveSettings(db, workspace.userId, { ...DEFAULT_SETTINGS, apiKeyForms: true }, new Date());
      const sealers = createNotifySealers(TEST_SECRET);
      const { id, subscription } = push.subscribe((await loadVapidKeys(db, sealers)).publicKey);
      await saveDevice(db, sealers, {
        userId: workspace.userId,
        target: parsePushTarget(subscription, { policy: 'loopback-only' }),
        name: 'Test phone',
        now: new Date(),
      });
      return { apiKey: workspace.apiKey, device: id };
    });

    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = {
      NODE_ENV: 'test',
      PORT: String(port),
      PUBLIC_URL: url,
      SESS_SECRET: TEST_SECRET,
      SESS_TEST_LOOPBACK_EGRESS: '1',
      ...(postgres?.url ? { DATABASE_URL: postgres.url } : { SESS_DATA_DIR: dataDir! }),
    };

    const first = startCli(['serve'], { ...env, SESS_TEST_HOLD_NOTIFICATIONS: '1' });
    running.push(first);
    await first.waitFor(/Sess is running at/, 120_000);
    const client = await connectWithKey(url, seeded.apiKey);
    const result = (await client.callTool({
      name: 'sess_request',
      arguments: { interaction: sampleSurface('Pay the invoice?') },
    })) as {
      structuredContent: { interaction: { humanUrl: string; notified: boolean } };
    };
    const created = result.structuredContent.interaction;
    // Committed (the tool answered) and not sent.
    expect(created.notified).toBe(true);
    await sleep(1_000);
    expect(push.requests(seeded.device)).toEqual([]);
    await client.close().catch(() => {});
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');

    const second = startCli(['serve'], env);
    running.push(second);
    await second.waitFor(/Sess is running at/, 120_000);
    const [delivered] = await until(
      () => (push.received(seeded.device).length > 0 ? push.received(seeded.device) : undefined),
      30_000,
    );
    expect(delivered!.payload).toMatchObject({ kind: 'form', title: 'Pay the invoice?', url: created.humanUrl });
    expect(delivered!.urgency).toBe('high');
    // Past the worker's next poll (5 s): still once.
    await sleep(6_000);
    expect(push.requests(seeded.device)).toEqual([201]);
    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);

    const left = await withDatabase(({ db }) =>
      queryRows<{ n: number }>(db, sql`select count(*)::int as n from notification_outbox`),
    );
    expect(Number(left[0]?.n)).toBe(0);
  });
});
