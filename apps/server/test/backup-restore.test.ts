import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate, openDatabase } from '@sess/db';
import { createTestUser, createWorkspaceWithKey, freePort, onlyOn } from '@sess/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { expectRestored, makeBeforeBackup } from './support/backup-round.ts';
import { type CliProcess, runCli, startCli } from './support/cli-process.ts';

/*
 * `sess backup` and `sess restore` as an operator runs them: the real CLI in child processes,
 * a server started before and after on the same PUBLIC_URL. The data dir is destroyed between
 * the two, so only what the backup file holds comes back (the database and the generated secret).
 */
describe.runIf(onlyOn('server: sess backup and restore'))('sess backup and sess restore (embedded database)', () => {
  const root = mkdtempSync(join(tmpdir(), 'sess-backup-'));
  const dataDir = join(root, 'data');
  const backupFile = join(root, 'sess.backup');
  let server: CliProcess | undefined;
  let env: Record<string, string>;

  const stop = async () => {
    server!.child.kill('SIGTERM');
    expect((await server!.exited).code).toBe(0);
    server = undefined;
  };
  /** The data dir's entries and the database's own files, to show a refused command changed nothing. */
  const snapshot = () => ({ top: readdirSync(dataDir).sort(), pglite: readdirSync(join(dataDir, 'pglite')).sort() });

  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    rmSync(root, { recursive: true, force: true });
  });

  it('backs up, loses the data dir, restores: open forms answer, receipts verify, API keys and OAuth tokens work', async () => {
    const setup = await openDatabase({ dataDir: join(dataDir, 'pglite') });
    await migrate(setup.db);
    const workspace = await createWorkspaceWithKey(setup.db);
    const user = await createTestUser(setup.db);
    await setup.close();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // No SESS_SECRET: the server generates its secret into the data dir, and the backup must carry it.
    env = { PORT: String(port), PUBLIC_URL: base, SESS_DATA_DIR: dataDir, NODE_ENV: 'test', SESS_NOTIFICATIONS: 'off' };

    server = startCli(['serve'], env);
    await server.waitFor(/listening on/);
    const before = await makeBeforeBackup(base, workspace, user);

    for (const command of ['backup', 'restore']) {
      const refused = await runCli([command, backupFile], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`the server is running (pid ${server.child.pid}) on the embedded database`);
      expect(refused.stderr).toContain('stop it first');
    }
    expect(existsSync(backupFile)).toBe(false);
    await stop();

    const made = await runCli(['backup', backupFile], env);
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(
      /^Backed up the embedded database in .+ to .+ \(\d+\.\d MB; \d+ migrations, the newest \d{4}_\w+; Sess /,
    );
    expect(made.stdout).toContain('It holds the server secret');
    expect(statSync(backupFile).mode & 0o777).toBe(0o600);

    rmSync(dataDir, { recursive: true, force: true });
    const restored = await runCli(['restore', backupFile], env);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(/^Restored .+ with its server secret\.$/m);
    // Nothing was there to keep aside; the lock is not left behind.
    expect(readdirSync(dataDir).sort()).toEqual(['pglite', 'secret']);
    expect(existsSync(join(dataDir, 'pglite', 'sess.lock'))).toBe(false);
    expect(statSync(join(dataDir, 'secret')).mode & 0o777).toBe(0o600);

    server = startCli(['serve'], env);
    await server.waitFor(/listening on/);
    await expectRestored(base, workspace, before);
    const verified = await runCli(['receipt', 'verify', before.receipt], { PUBLIC_URL: base });
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain(`with key ${before.receiptKid}`);
    await stop();
  }, 600_000);

  it('refuses a file that is not a Sess backup, a damaged one, and one from a newer Sess, changing nothing', async () => {
    const was = snapshot();
    const notBackup = join(root, 'notes.txt');
    writeFileSync(notBackup, 'hello\n');
    const bytes = readFileSync(backupFile);
    const damaged = join(root, 'damaged.backup');
    const flipped = Buffer.from(bytes);
    flipped[flipped.length - 100] = flipped[flipped.length - 100]! ^ 0xff;
    writeFileSync(damaged, flipped);
    const newer = join(root, 'newer.backup');
    const manifestEnd = bytes.indexOf(0x0a, bytes.indexOf(0x0a) + 1);
    const manifest = JSON.parse(bytes.subarray(bytes.indexOf(0x0a) + 1, manifestEnd).toString('utf8'));
    manifest.migrations.last = { tag: '9999_from_the_future', when: 9_999_999_999_999 };
    manifest.sessVersion = '9.0.0';
    writeFileSync(
      newer,
      Buffer.concat([
        bytes.subarray(0, bytes.indexOf(0x0a) + 1),
        Buffer.from(`${JSON.stringify(manifest)}\n`),
        bytes.subarray(manifestEnd + 1),
      ]),
    );

    for (const [file, reason] of [
      [notBackup, `${notBackup} is not a Sess backup`],
      [damaged, `${damaged} is damaged: part pgdata.tar.gz does not match its checksum.`],
      [newer, `${newer} was made by a newer Sess (9.0.0, migration 9999_from_the_future)`],
      [join(root, 'missing.backup'), 'missing.backup does not exist.'],
    ] as const) {
      const refused = await runCli(['restore', file, '--force'], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(reason);
      expect(refused.stderr).toMatch(/Nothing was changed\.\n$/);
      expect(snapshot()).toEqual(was);
    }
  }, 120_000);

  it('refuses to replace a database without --force, and with it keeps the old one aside', async () => {
    const was = snapshot();
    const refused = await runCli(['restore', backupFile], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${join(dataDir, 'pglite')} already holds a database. Pass --force to replace it`);
    expect(snapshot()).toEqual(was);

    // A secret other than the backup's: refused, whatever --force says (the restored keys would not open).
    const otherSecret = await runCli(['restore', backupFile, '--force'], { ...env, SESS_SECRET: 'b'.repeat(43) });
    expect(otherSecret.code).toBe(1);
    expect(otherSecret.stderr).toContain('SESS_SECRET is not the secret');
    expect(snapshot()).toEqual(was);

    const forced = await runCli(['restore', backupFile, '--force'], env);
    expect(forced.stderr).toBe('');
    expect(forced.code).toBe(0);
    const aside = readdirSync(dataDir).filter((name) => name.startsWith('before-restore-'));
    expect(aside).toHaveLength(1);
    expect(forced.stdout).toContain(`What it replaced is kept in ${join(dataDir, aside[0]!)}`);
    expect(existsSync(join(dataDir, aside[0]!, 'pglite', 'PG_VERSION'))).toBe(true);
    expect(existsSync(join(dataDir, aside[0]!, 'pglite', 'sess.lock'))).toBe(false);
    expect(existsSync(join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);
  }, 180_000);

  it('refuses with DATABASE_URL set, pointing to the PostgreSQL procedure, and will not overwrite a file', async () => {
    // Port 1: nothing listens there, and nothing must try.
    const postgres = { ...env, DATABASE_URL: 'postgres://sess@127.0.0.1:1/sess' };
    for (const [command, tool] of [
      ['backup', 'pg_dump'],
      ['restore', 'pg_restore'],
    ] as const) {
      const refused = await runCli([command, join(root, 'pg.backup')], postgres);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`DATABASE_URL is set: this Sess keeps its data in PostgreSQL`);
      expect(refused.stderr).toContain(`Use ${tool} as docs/operations-backup.md describes`);
    }
    const existing = await runCli(['backup', backupFile], env);
    expect(existing.code).toBe(1);
    expect(existing.stderr).toContain(`${backupFile} exists; give another name, or pass --force to replace it.`);
    const usage = await runCli(['backup'], env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe('sess: usage: sess backup <file> [--force]\n');
  }, 120_000);
});
