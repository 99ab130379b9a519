/*
 * The home page (`/`) and the "Connect your agent" block of /account in a real browser (the
 * system Chromium through playwright-core) at a phone size (390×844) and a desktop size: signed
 * out and signed in, the MCP URL shown and copied, every client's steps unfolded without anything
 * scrolling sideways, and the page without JavaScript. Any CSP violation or page error fails the
 * test. Screenshots go to test-results/screenshots/.
 */
import { rm } from 'node:fs/promises';
import { createTestUser } from '@sess/testkit';
import { fitsWidth, launchTestBrowser, openWatchedContext, SCREEN_SIZES, screenshot } from '@sess/testkit/browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppServer, startAppServer } from './support/app-server.ts';
import { writeStandInPackages } from './support/served-packages.ts';

let server: AppServer;
let browser: Browser;
let packages: Awaited<ReturnType<typeof writeStandInPackages>>;

beforeAll(async () => {
  // The server serves its client packages, so the longest lines (their tarball URLs) are on the page.
  packages = await writeStandInPackages();
  [server, browser] = await Promise.all([startAppServer({ SESS_PACKAGES_DIR: packages.dir }), launchTestBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (packages) await rm(packages.dir, { recursive: true, force: true });
});

/** Unfolds every client's steps (as a reader would, one tap each), so the widest content is on screen. */
async function openEveryClient(page: Page): Promise<number> {
  const summaries = page.locator('details.client > summary');
  const count = await summaries.count();
  for (let i = 0; i < count; i++) await summaries.nth(i).click();
  expect(await page.locator('details.client[open]').count()).toBe(count);
  return count;
}

describe.each(['phone', 'desktop'] as const)('at %s size', (size) => {
  it('signed out: what Sess does, the MCP URL with Copy, each client, Sign in and Create account', async () => {
    const { context, problems } = await openWatchedContext(browser, SCREEN_SIZES[size]);
    try {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      const page = await context.newPage();
      const response = await page.goto(`${server.url}/`);
      expect(response?.status()).toBe(200);
      expect(response?.headers()['content-security-policy']).toContain("script-src 'nonce-");
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Sess');
      expect(await page.locator('#mcp-url').textContent()).toBe(`${server.url}/mcp`);
      expect(await page.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/signin');
      expect(await page.getByRole('link', { name: 'Create account' }).getAttribute('href')).toBe('/signup');
      expect(await page.getByRole('link', { name: 'Your account' }).count()).toBe(0);

      const copy = page.getByRole('button', { name: 'Copy' });
      expect(await copy.isVisible()).toBe(true);
      await copy.click();
      await expect.poll(() => page.locator('#mcp-url-status').textContent()).toBe('Copied.');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${server.url}/mcp`);

      expect(await openEveryClient(page)).toBe(8);
      expect(await page.getByText(`claude mcp add --transport http sess ${server.url}/mcp`).isVisible()).toBe(true);
      expect(await page.getByText(`npx -y ${server.url}/packages/${packages.files['sess-mcp']}`).isVisible()).toBe(true);
      expect(await page.getByText('claude mcp login sess').isVisible()).toBe(true);
      // PUBLIC_URL is http://127.0.0.1:…: hosted clients are told they need public HTTPS.
      expect(await page.getByText('need Sess on public HTTPS').isVisible()).toBe(true);
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, `home-signed-out-${size}`);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('signed in: "Your account" on /, and the same Connect your agent block on /account', async () => {
    const user = await createTestUser(server.database.db);
    const { context, problems } = await openWatchedContext(browser, SCREEN_SIZES[size]);
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}/`);
      await page.getByRole('link', { name: 'Sign in' }).click();
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect.poll(() => new URL(page.url()).pathname).toBe('/account');

      expect(await page.getByRole('heading', { name: 'Connect your agent' }).isVisible()).toBe(true);
      expect(await page.locator('#mcp-url').textContent()).toBe(`${server.url}/mcp`);
      expect(await page.getByRole('button', { name: 'Copy' }).isVisible()).toBe(true);
      await openEveryClient(page);
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, `account-connect-${size}`);

      await page.goto(`${server.url}/`);
      expect(await page.getByText(`Signed in as ${user.email}`).isVisible()).toBe(true);
      expect(await page.getByRole('link', { name: 'Your account' }).getAttribute('href')).toBe('/account');
      expect(await page.getByRole('link', { name: 'Sign in' }).count()).toBe(0);
      expect(await page.locator('#mcp-url').textContent()).toBe(`${server.url}/mcp`);
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, `home-signed-in-${size}`);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

it('works without JavaScript: the URL is plain text, the Copy button stays hidden, the steps still unfold', async () => {
  const { context, problems } = await openWatchedContext(browser, { ...SCREEN_SIZES.phone, javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    expect(await page.locator('#mcp-url').textContent()).toBe(`${server.url}/mcp`);
    expect(await page.getByRole('button', { name: 'Copy' }).isVisible()).toBe(false);
    await openEveryClient(page);
    expect(await page.getByText('.vscode/mcp.json').isVisible()).toBe(true);
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'home-no-js-phone');
    expect(problems).toEqual([]);
  } finally {
    await context.close();
  }
});
