import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { freePort, onlyOn, recordSecret } from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOnPage } from './support/answer-page.ts';
import { LAUNCHER, runCli, startCli } from './support/cli-process.ts';

/*
 * `npx sess <command>` from a checkout, as a person runs it: the bin (apps/server/bin/sess.mjs)
 * runs the bundle dist/sess.mjs, rebuilding it when a source is newer; and the commands find the
 * server `npm start` runs on the same data dir, whatever PORT it was given, through the record it
 * keeps there (server.json) — `sess doctor` and `sess receipt verify <file>` from another shell,
 * without PORT or PUBLIC_URL. Process tests: PGlite project only (they test the command).
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BUNDLE = join(ROOT, 'dist', 'sess.mjs');
const SLOW = { timeout: 240_000 };
const bundled = { bundle: LAUNCHER };

describe.runIf(onlyOn('server: npx sess, the bundled CLI'))('npx sess (the bundled CLI)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sess-npx-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs dist/sess.mjs, and rebuilds it first only when one of its sources is newer', SLOW, async () => {
    const first = await runCli(['help'], {}, '', bundled);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('Usage: sess [command]');
    const sources = JSON.parse(readFileSync(join(ROOT, 'dist', 'sess.inputs.json'), 'utf8')) as string[];
    const cli = sources.find((path) => path.endsWith('apps/server/src/cli.ts'));
    expect(cli).toBeDefined();
    // The bundle made older than a source, as an edit after the last build leaves it.
    const edited = statSync(join(ROOT, cli!)).mtime;
    const older = new Date(edited.getTime() - 60_000);
    utimesSync(BUNDLE, older, older);
    const rebuilt = await runCli(['help'], {}, '', bundled);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(rebuilt.stderr).toContain('sess: building dist/sess.mjs first');
    expect(rebuilt.stdout).toContain('Usage: sess [command]');
    expect(statSync(BUNDLE).mtimeMs).toBeGreaterThan(edited.getTime());
    const fresh = await runCli(['help'], {}, '', bundled);
    expect(fresh.stderr).toBe('');
    expect(fresh.stdout).toContain('Usage: sess [command]');
  });

  it(
    'with `npm start` on PORT=<p> and no PUBLIC_URL, doctor and receipt verify <file> find it from a shell without PORT',
    SLOW,
    async () => {
      const dataDir = join(dir, 'data');
      const port = await freePort();
      // Another shell: the same data dir (the checkout's ./.data in real life), no PORT, no PUBLIC_URL.
      const shell = { SESS_DATA_DIR: dataDir };
      const password = 'a long enough password for the cli test';
      recordSecret(password, 'password');
      const user = await runCli(['user', 'create', '--email', 'owner@example.com'], shell, `${password}\n`, bundled);
      expect(user.code, user.stderr).toBe(0);
      const workspaceId = /with workspace (ws_[a-z2-7]+)/.exec(user.stdout)?.[1];
      expect(workspaceId, user.stdout).toBeDefined();
      const created = await runCli(['api-key', 'create', '--workspace', workspaceId!, '--name', 'npx test'], shell, '', bundled);
      expect(created.code, created.stderr).toBe(0);
      const apiKey = created.stdout.trim();
      recordSecret(apiKey, 'credential');

      const server = startCli(['serve'], { ...shell, PORT: String(port) }, undefined, [], bundled);
      const publicUrl = `http://localhost:${port}`;
      try {
        await server.waitFor(/Sess is running at/, 120_000);
        const record = JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8'));
        expect(record).toMatchObject({ pid: server.child.pid, publicUrl, linkUrl: publicUrl });

        const doctor = await runCli(['doctor'], shell, '', bundled);
        expect(doctor.stdout).toContain(`PUBLIC_URL ${publicUrl} (the running Sess's, process ${server.child.pid}, from `);
        expect(doctor.stdout).toMatch(/^ok +database +in use by the running Sess/m);
        expect(doctor.stdout).toMatch(new RegExp(`^ok +public URL +${publicUrl} answers /healthz`, 'm'));
        expect(doctor.code, doctor.stdout).toBe(0);

        // A real round: asked over /mcp, answered on the page, the receipt saved as the Sent page offers it.
        const client = new Client({ name: 'sess-test', version: '1' });
        await client.connect(
          new StreamableHTTPClientTransport(new URL(`${publicUrl}/mcp`), {
            requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
          }),
        );
        const ask = {
          question: 'Which day suits you?',
          fields: [{ name: 'day', label: 'Day', type: 'choice', options: ['Monday', 'Tuesday'] }],
          submit_label: 'Send',
        };
        const asked = (await client.callTool({ name: 'sess_ask', arguments: ask })) as {
          structuredContent: { interaction: { handle: string; humanUrl: string } };
        };
        const { handle, humanUrl } = asked.structuredContent.interaction;
        recordSecret(humanUrl, 'link');
        expect((await answerOnPage(humanUrl, { day: 'Tuesday' })).status).toBe(303);
        const answered = (await client.callTool({ name: 'sess_response', arguments: { handle, revision: 1, wait_ms: 0 } })) as {
          structuredContent: { interaction: { response: { receipt: string } } };
        };
        await client.close();
        const file = join(dir, 'sess-receipt.jws');
        writeFileSync(file, `${answered.structuredContent.interaction.response.receipt}\n`);

        const verified = await runCli(['receipt', 'verify', file], shell, '', bundled);
        expect(verified.stderr).toBe('');
        expect(verified.stdout).toMatch(new RegExp(`^Receipt verified: signed by ${publicUrl} with key `, 'm'));
        expect(verified.code).toBe(0);
      } finally {
        server.child.kill('SIGTERM');
        expect((await server.exited).code).toBe(0);
      }
      // Stopped: the record is gone, and the commands are back to the configuration's own address.
      expect(existsSync(join(dataDir, 'server.json'))).toBe(false);
      const stopped = await runCli(['doctor'], shell, '', bundled);
      expect(stopped.stdout).toMatch(/^ok +configuration +PUBLIC_URL http:\/\/localhost:8787, /m);
    },
  );

  it('ignores a record whose process is gone (a server killed with -9)', SLOW, async () => {
    const dataDir = join(dir, 'stale');
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(gone.stdout);
    expect(deadPid).toBeGreaterThan(0);
    const port = await freePort();
    const stale = { pid: deadPid, url: 'http://127.0.0.1:1', publicUrl: 'http://localhost:1', linkUrl: 'http://localhost:1' };
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, 'server.json'), JSON.stringify(stale));
    const doctor = await runCli(['doctor'], { SESS_DATA_DIR: dataDir, PORT: String(port) }, '', bundled);
    expect(doctor.stdout).toMatch(new RegExp(`^ok +configuration +PUBLIC_URL http://localhost:${port}, `, 'm'));
    expect(doctor.stdout).not.toContain("running Sess's");
  });
});
