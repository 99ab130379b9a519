/*
 * The first run, as a newcomer does it: `npm start` (the bundle, `node dist/sess.mjs serve`) on a
 * fresh data directory; its start-up text names where Sess runs, the MCP URL and the one-time
 * first-account link; a browser follows that link, creates the account, and finds the MCP URL on
 * the account page and on `/`. The child is built once and stopped with SIGTERM (exit 0).
 * PGlite only: this is the embedded-database first run (the bundle test covers PostgreSQL).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childLogLevel, createChildOutputSplitter, freePort, onlyOn, recordSecret } from '@sess/testkit';
import { fitsWidth, launchTestBrowser, openWatchedContext, SCREEN_SIZES, screenshot } from '@sess/testkit/browser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const outDir = join(ROOT, 'dist', `test-first-run-${process.pid}`);

/** A port nobody listens on right now (PORT=0 cannot be printed in PUBLIC_URL, so we choose). */

describe.runIf(onlyOn('server: first run'))('first run: npm start → the first account → the MCP URL', () => {
  let dataDir: string;
  let child: ChildProcess;
  let exited: Promise<number | null>;
  let browser: Browser;
  let publicUrl: string;
  let stderr = '';

  beforeAll(async () => {
    const build = spawnSync(process.execPath, ['scripts/build.mjs', '--outfile', join(outDir, 'sess.mjs')], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(build.status, build.stderr).toBe(0);
    dataDir = mkdtempSync(join(tmpdir(), 'sess-first-run-'));
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [join(outDir, 'sess.mjs'), 'serve'], {
      env: {
        PATH: process.env.PATH ?? '',
        PORT: String(port),
        PUBLIC_URL: publicUrl,
        SESS_DATA_DIR: dataDir,
        LOG_LEVEL: childLogLevel('warn'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    // Its log lines go to the log audit; the start-up text is on stderr.
    const logs = createChildOutputSplitter();
    child.stdout!.on('data', (d) => logs.write(d));
    child.stdout!.on('end', () => logs.end());
    child.stderr!.on('data', (d) => (stderr += d));
    browser = await launchTestBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('timeout'), 15_000))]);
      if (code === 'timeout') child.kill('SIGKILL');
      expect(code).toBe(0);
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    rmSync(outDir, { recursive: true, force: true });
  }, 30_000);

  /** Resolves once every pattern has matched stderr (fails if the child exits first). */
  async function startupText(patterns: RegExp[], timeoutMs = 60_000): Promise<RegExpMatchArray[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const matches = patterns.map((pattern) => stderr.match(pattern));
      if (matches.every(Boolean)) return matches as RegExpMatchArray[];
      if (child.exitCode !== null) throw new Error(`sess serve exited ${child.exitCode}:\n${stderr}`);
      if (Date.now() > deadline) throw new Error(`start-up text incomplete after ${timeoutMs} ms:\n${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('prints the URL, the MCP URL and the first-account link; the link makes the account; / and /account show the MCP URL', async () => {
    const escaped = publicUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const [running, mcp, link] = await startupText([
      new RegExp(`^Sess is running at ${escaped}\\b`, 'm'),
      new RegExp(`^MCP URL: (${escaped}/mcp)$`, 'm'),
      new RegExp(`(${escaped}/signup\\?token=[A-Za-z0-9_-]+)`),
    ]);
    expect(running).toBeTruthy();
    expect(mcp![1]).toBe(`${publicUrl}/mcp`);
    const signupLink = link![1]!;
    recordSecret(signupLink, 'link');
    recordSecret(new URL(signupLink).searchParams.get('token'), 'token');

    const { context, problems } = await openWatchedContext(browser, SCREEN_SIZES.phone);
    try {
      const page = await context.newPage();
      await page.goto(signupLink);
      const email = 'first@example.com';
      const password = `first-run-${process.pid}-password`;
      recordSecret(password, 'password');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Create account' }).click();
      await expect.poll(() => page.url()).toBe(`${publicUrl}/account`);
      expect(await page.getByText(`Signed in as ${email}`).isVisible()).toBe(true);
      expect(await page.getByRole('heading', { name: 'Connect your agent' }).isVisible()).toBe(true);
      expect(await page.locator('#mcp-url').textContent()).toBe(`${publicUrl}/mcp`);
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, 'first-run-account-phone');

      await page.goto(`${publicUrl}/`);
      expect(await page.locator('#mcp-url').textContent()).toBe(`${publicUrl}/mcp`);
      expect(await page.getByRole('link', { name: 'Your account' }).isVisible()).toBe(true);
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, 'first-run-home-phone');

      // The first-account link is one-time: used, it no longer offers the form.
      await context.clearCookies();
      await page.goto(signupLink);
      expect(await page.getByRole('button', { name: 'Create account' }).count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);
});
