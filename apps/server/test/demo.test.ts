import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, queryRows } from '@sess/db';
import { freePort, onlyOn, recordSecret, tokenOf } from '@sess/testkit';
import { fitsWidth, launchTestBrowser, SCREEN_SIZES, screenshot } from '@sess/testkit/browser';
import { sql } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliProcess, startCli } from './support/cli-process.ts';

/*
 * `sess demo` (what `npm run demo` runs after the build) as a child process on a fresh data dir
 * and a free port: the test reads the link the demo prints and answers it on the real page in
 * Chromium, as a person would. Process tests: PGlite project only (they test the command; the
 * demo runs on the embedded database).
 */

const SLOW = { timeout: 240_000 };
const LINK = /http:\/\/localhost:\d+\/s\/[A-Za-z0-9_-]+/;

describe.runIf(onlyOn('server: npm run demo'))('npm run demo (child process)', () => {
  let browser: Browser;
  let dataDir: string;
  let env: Record<string, string>;
  const running: CliProcess[] = [];
  const demo = (args: string[] = ['--no-qr']) => {
    const started = startCli(['demo', ...args], env);
    running.push(started);
    return started;
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'sess-demo-'));
    env = { SESS_DATA_DIR: dataDir, PORT: String(await freePort()) };
    browser = await launchTestBrowser();
  });
  afterAll(async () => {
    for (const p of running) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await browser?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Answers the demo's question on its page at `size`, like a person. */
  async function answer(link: string, size: keyof typeof SCREEN_SIZES, time: string, note?: string) {
    // The link is printed for the person, never logged: the log audit holds the demo's logs to that.
    recordSecret(tokenOf(link), 'token');
    const context = await browser.newContext(SCREEN_SIZES[size]);
    const page = await context.newPage();
    await page.goto(link);
    await page.getByRole('heading', { level: 1, name: 'What time works for a call tomorrow?' }).waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await page.getByRole('radio', { name: time }).check();
    if (note) await page.getByLabel(/Anything to add\?/).fill(note);
    await screenshot(page, `demo-question-${size}`);
    await page.getByRole('button', { name: 'Send' }).click();
    return { context, page };
  }

  it(
    'first run: makes the demo account, asks over /mcp, prints the link, gets the answer from the page, verifies and completes',
    SLOW,
    async () => {
      const run = demo();
      const link = (await run.waitFor(LINK, 120_000))[0];
      await run.waitFor(/Waiting for the answer/);
      const { context } = await answer(link, 'phone', '14:00', 'Call my mobile');
      const result = await run.exited;
      await context.close();
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Demo account demo@sess.localhost (made now)');
      expect(result.stdout).toMatch(/Answered after \d+:\d\d:\n {2}time: "14:00"\n {2}note: "Call my mobile"\n/);
      expect(result.stdout).toMatch(
        new RegExp(`Verified: the receipt is signed by http://localhost:${env.PORT} with key sk_\\S+\\.`),
      );
      expect(result.stdout).toContain('Completed (state completed)');
      // The API key is shown only by its prefix; the QR code was turned off.
      expect(result.stdout).not.toMatch(/sess_[A-Za-z0-9_-]{43}/);
      expect(result.stdout).not.toContain('▄');
    },
  );

  it(
    'second run: reuses the demo account with a fresh key (the previous one revoked), prints a QR code, answered on a desktop',
    SLOW,
    async () => {
      const run = demo([]);
      const link = (await run.waitFor(LINK, 120_000))[0];
      await run.waitFor(/Waiting for the answer/);
      const { context } = await answer(link, 'desktop', '9:00');
      const result = await run.exited;
      await context.close();
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Demo account demo@sess.localhost (reused)');
      expect(result.stdout).toContain('(the previous demo key is revoked)');
      expect(result.stdout).toMatch(/[▄▀█]/);
      expect(result.stdout).toMatch(/ {2}time: "9:00"\n/);
      expect(result.stdout).toContain('Completed (state completed)');
    },
  );

  it(
    'a second demo on a data dir in use says so and what to do; Ctrl-C while waiting withdraws the question and exits 130',
    SLOW,
    async () => {
      const run = demo();
      await run.waitFor(/Waiting for the answer/, 120_000);

      const second = await demo().exited;
      expect(second.code).toBe(1);
      expect(second.stderr).toContain('is in use by another Sess (is `npm start` running?)');
      expect(second.stderr).toContain('SESS_DATA_DIR=./.demo-data');

      run.child.kill('SIGINT');
      const result = await run.exited;
      expect(result.code).toBe(130);
      expect(result.stdout).toContain('Interrupted.');
      expect(result.stdout).toContain('The open question was withdrawn (sess_cancel)');

      // Nothing half-done: the handle is cancelled and its session withdrawn, on disk.
      const database = await openDatabase({ dataDir: join(dataDir, 'pglite') });
      try {
        const rows = await queryRows<{ handle_state: string; session_state: string }>(
          database.db,
          sql`select h.state as handle_state, s.state as session_state
              from mcp_handles h join form_sessions s on s.id = h.session_id
             order by h.created_at desc limit 1`,
        );
        expect(rows[0]).toEqual({ handle_state: 'cancelled', session_state: 'withdrawn' });
      } finally {
        await database.close();
      }
    },
  );
});
