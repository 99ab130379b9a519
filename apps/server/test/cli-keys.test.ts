import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { authenticateApiKey } from '@sess/accounts';
import { type Database, openDatabase, signingKeys } from '@sess/db';
import {
  childLogLevel,
  createChildOutputSplitter,
  createTestDatabase,
  createWorkspace,
  recordSecret,
  TEST_SECRET,
  type TestDatabase,
  testDriver,
} from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));

/** Runs the CLI; its log lines (at trace under the log audit) go to the audit, the rest of stdout to the test. */
function runCli(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: childLogLevel('warn'), SESS_SECRET: TEST_SECRET, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const logs = createChildOutputSplitter();
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += logs.write(d)));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => {
      stdout += logs.end();
      // What a command prints (an API key) is a secret for the audit.
      for (const line of stdout.split('\n')) recordSecret(line, 'api-key');
      resolve({ code, stdout, stderr });
    });
  });
}

/*
 * `sess api-key create` and `sess keys rotate` against a real database: PostgreSQL through
 * DATABASE_URL; on the PGlite project an embedded data dir (which only one process may open,
 * so the test opens it between CLI runs).
 */
describe('CLI: api-key create, keys rotate', () => {
  let database: TestDatabase | undefined;
  let dataDir: string | undefined;
  let env: Record<string, string>;
  const open = async (): Promise<Database> => database ?? (await openDatabase({ dataDir: join(dataDir!, 'pglite') }));
  const done = async (db: Database) => {
    if (!database) await db.close();
  };

  beforeAll(async () => {
    if (testDriver() === 'postgres') {
      database = await createTestDatabase();
      env = { DATABASE_URL: database.url! };
    } else {
      dataDir = mkdtempSync(join(tmpdir(), 'sess-cli-forms-'));
      env = { SESS_DATA_DIR: dataDir };
    }
  });
  afterAll(async () => {
    await database?.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('keys rotate makes a new active key and keeps the old one as previous', async () => {
    const first = await runCli(['keys', 'rotate'], env);
    expect(first.code).toBe(0);
    const second = await runCli(['keys', 'rotate'], env);
    expect(second.code).toBe(0);
    const kid1 = /key: (sk_[a-z2-7]+)/.exec(first.stdout)?.[1];
    expect(second.stdout).toContain(`previous: ${kid1}`);
    const db = await open();
    try {
      const rows = await db.db.select({ kid: signingKeys.kid, status: signingKeys.status }).from(signingKeys);
      expect(rows.find((r) => r.kid === kid1)?.status).toBe('previous');
      expect(rows.filter((r) => r.status === 'active')).toHaveLength(1);
    } finally {
      await done(db);
    }
  }, 60_000);

  it('api-key create prints the key once, on stdout, and it authenticates; bad usage exits 2', async () => {
    let db = await open();
    const { workspaceId } = await createWorkspace(db.db, { plan: 'free' });
    await done(db);
    const created = await runCli(['api-key', 'create', '--workspace', workspaceId, '--name', 'laptop'], env);
    expect(created.code).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^sess_[A-Za-z0-9_-]{43}$/);
    expect(created.stderr).not.toContain(key);
    db = await open();
    try {
      expect(await authenticateApiKey({ db: db.db, now: () => new Date() }, key)).toMatchObject({ workspaceId });
    } finally {
      await done(db);
    }
    const usage = await runCli(['api-key', 'create', '--name', 'x'], env);
    expect(usage.code).toBe(2);
    const unknown = await runCli(['api-key', 'create', '--workspace', 'ws_nope', '--name', 'x'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No workspace ws_nope');
  }, 60_000);
});
