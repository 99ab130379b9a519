import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, onlyOn } from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli } from './support/cli-process.ts';

/*
 * `sess doctor` as a person runs it: the real CLI in a child process, against a fresh data dir,
 * a running `sess serve` on it, the same data dir once stopped, and broken configurations.
 * Process tests: PGlite project only (they test the command, not the driver).
 */

const SLOW = { timeout: 180_000 };

/** The status doctor printed for `name`, or undefined when it printed no such line. */
function statusOf(stdout: string, name: string): string | undefined {
  return new RegExp(`^(ok|warn|FAIL) +${name} `, 'm').exec(stdout)?.[1];
}

describe.runIf(onlyOn('server: sess doctor'))('sess doctor (child process)', () => {
  let dataDir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'sess-doctor-'));
    env = { SESS_DATA_DIR: dataDir, PORT: String(await freePort()) };
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('before the first start: configuration ok, no database yet and not running are warnings, exit 0', async () => {
    const result = await runCli(['doctor'], env);
    expect(result.code).toBe(0);
    expect(statusOf(result.stdout, 'configuration')).toBe('ok');
    expect(result.stdout).toContain(`PUBLIC_URL http://localhost:${env.PORT}`);
    expect(statusOf(result.stdout, 'database')).toBe('warn');
    expect(statusOf(result.stdout, 'public URL')).toBe('warn');
    expect(result.stdout).toContain('is not running (start it with npm start)');
  });

  it(
    'with Sess running on the data dir: checks it through the server, every check ok; once stopped, reads the database directly',
    SLOW,
    async () => {
      const server = startCli(['serve'], env);
      try {
        await server.waitFor(/Sess is running at/, 120_000);
        const running = await runCli(['doctor'], env);
        expect(running.stdout).toMatch(/^ok +database +in use by the running Sess \(process \d+\)/m);
        expect(statusOf(running.stdout, 'signing keys')).toBe('ok');
        expect(running.stdout).toMatch(/^ok +public URL +http:\/\/localhost:\d+ answers \/healthz and its OAuth metadata/m);
        expect(running.stdout).toContain('All checks passed.');
        expect(running.code).toBe(0);
      } finally {
        server.child.kill('SIGTERM');
        await server.exited;
      }
      const stopped = await runCli(['doctor'], env);
      expect(stopped.code).toBe(0);
      expect(stopped.stdout).toMatch(/^ok +database +connected \(embedded PGlite/m);
      expect(stopped.stdout).toMatch(/^ok +migrations +all \d+ applied/m);
      expect(stopped.stdout).toMatch(/^ok +signing keys +active key sk_\S+ opens with the secret/m);
      expect(statusOf(stopped.stdout, 'public URL')).toBe('warn');

      // Another secret than the one the key was sealed with.
      const wrongSecret = await runCli(['doctor'], { ...env, SESS_SECRET: 'x'.repeat(40) });
      expect(wrongSecret.code).toBe(1);
      expect(statusOf(wrongSecret.stdout, 'signing keys')).toBe('FAIL');
      expect(wrongSecret.stdout).toContain('1 check(s) failed: signing keys.');
      expect(wrongSecret.stdout).not.toContain('x'.repeat(40));
    },
  );

  it('an unreachable DATABASE_URL fails the database check, without echoing the URL’s password', async () => {
    const result = await runCli(['doctor'], { DATABASE_URL: 'postgres://sess:hunter2@127.0.0.1:9/sess', PORT: env.PORT! });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^FAIL +database +cannot reach PostgreSQL at 127\.0\.0\.1:9\/sess \(ECONNREFUSED\)/m);
    expect(result.stdout).toContain('check(s) failed: database.');
    expect(result.stdout + result.stderr).not.toContain('hunter2');
  });

  it('reports the open-file limit and what it allows; under ulimit -n 512 it warns, and says how to raise it', async () => {
    const roomy = await runCli(['doctor'], env, '', { openFiles: 4096 });
    expect(roomy.stdout).toMatch(/^ok +open files +4096 \(up to 3829 connections, 3065 parked waits\)$/m);
    const low = await runCli(['doctor'], env, '', { openFiles: 512 });
    expect(low.stdout).toMatch(
      /^warn +open files +512 \(up to 373 connections, 299 parked waits\): fewer than 1000 agents and answer pages can wait at once\. To hold more, raise it \(LimitNOFILE=/m,
    );
    // A warning, not a failure: Sess still runs, with fewer waits.
    expect(low.code).toBe(0);
  });

  it('a configuration that cannot be loaded fails the configuration check', async () => {
    const result = await runCli(['doctor'], { PORT: 'eighty' });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^FAIL +configuration +PORT must be a whole number/m);
  });

  it('a PUBLIC_URL that reaches something else fails the public URL check', async () => {
    const other = createHttpServer((_request, response) => response.writeHead(404).end('not here'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const port = (other.address() as { port: number }).port;
      const result = await runCli(['doctor'], { ...env, PUBLIC_URL: `http://127.0.0.1:${port}` });
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/^FAIL +public URL +http:\/\/127\.0\.0\.1:\d+\/healthz answered HTTP 404/m);
    } finally {
      other.close();
    }
  });
});
