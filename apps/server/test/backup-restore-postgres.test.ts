import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { migrate, openDatabase } from '@sess/db';
import { createTestUser, createWorkspaceWithKey, freePort, maintenanceUrl, onlyOn } from '@sess/testkit';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { expectRestored, makeBeforeBackup } from './support/backup-round.ts';
import { type CliProcess, runCli, startCli } from './support/cli-process.ts';

const run = promisify(execFile);

/*
 * The PostgreSQL procedure of docs/operations-backup.md, as written: pg_dump --format=custom
 * while Sess runs, the database dropped, pg_restore into a new one, Sess started on it with the
 * same SESS_SECRET and PUBLIC_URL. Two databases of this test's own, dropped after.
 */
describe.runIf(onlyOn('server: pg_dump and pg_restore as documented'))(
  'pg_dump and pg_restore (docs/operations-backup.md)',
  () => {
    const admin = postgres(maintenanceUrl(), { max: 1, onnotice: () => {} });
    const suffix = `${process.pid}_${Date.now().toString(36)}`;
    const source = `sess_backup_src_${suffix}`;
    const restored = `sess_backup_dst_${suffix}`;
    const urlOf = (name: string) => {
      const url = new URL(maintenanceUrl());
      url.pathname = `/${name}`;
      return url.toString();
    };
    const dir = mkdtempSync(join(tmpdir(), 'sess-pg-backup-'));
    let server: CliProcess | undefined;

    const stop = async () => {
      server!.child.kill('SIGTERM');
      expect((await server!.exited).code).toBe(0);
      server = undefined;
    };

    afterAll(async () => {
      if (server && server.child.exitCode === null) {
        server.child.kill('SIGKILL');
        await server.exited;
      }
      for (const name of [source, restored]) await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
      rmSync(dir, { recursive: true, force: true });
    });

    it('keeps open forms, receipts, API keys and OAuth grants across pg_dump, a lost database and pg_restore', async () => {
      await admin.unsafe(`create database ${source}`);
      const setup = await openDatabase({ url: urlOf(source), poolMax: 1 });
      await migrate(setup.db);
      const workspace = await createWorkspaceWithKey(setup.db);
      const user = await createTestUser(setup.db);
      await setup.close();

      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const env = {
        PORT: String(port),
        PUBLIC_URL: base,
        NODE_ENV: 'test',
        SESS_NOTIFICATIONS: 'off',
        SESS_SECRET: 's'.repeat(43),
      };
      server = startCli(['serve'], { ...env, DATABASE_URL: urlOf(source) });
      await server.waitFor(/listening on/);
      const before = await makeBeforeBackup(base, workspace, user);

      // While Sess runs: pg_dump takes one snapshot. The embedded commands refuse and point here.
      const dump = join(dir, 'sess.dump');
      await run('pg_dump', ['--format=custom', `--file=${dump}`, urlOf(source)]);
      const refused = await runCli(['backup', join(dir, 'x.backup')], { ...env, DATABASE_URL: urlOf(source) });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('Use pg_dump as docs/operations-backup.md describes');
      await stop();

      await admin.unsafe(`drop database ${source} with (force)`);
      await admin.unsafe(`create database ${restored}`);
      await run('pg_restore', ['--no-owner', '--exit-on-error', '--single-transaction', `--dbname=${urlOf(restored)}`, dump]);

      server = startCli(['serve'], { ...env, DATABASE_URL: urlOf(restored) });
      await server.waitFor(/listening on/);
      await expectRestored(base, workspace, before);
      await stop();
    }, 600_000);
  },
);
