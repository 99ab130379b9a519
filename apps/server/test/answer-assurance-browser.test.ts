/*
 * An `account` form in a real browser (Chromium through playwright-core), at phone (390×844) and
 * desktop (1280×800) sizes: opened without signing in, the link lands on the sign-in page and,
 * once signed in, comes back to the form (return_to); opened by another member, it says "This
 * form is for someone else" and nothing is answered. Screenshots of both states are saved under
 * test-results/screenshots/ (git-ignored).
 */
import { readSession } from '@sess/forms';
import { createTestUser, createUser, setFormAssurance, signInTestUser } from '@sess/testkit';
import { fitsWidth, launchTestBrowser, openWatchedContext, SCREEN_SIZES, screenshot } from '@sess/testkit/browser';
import { commitInteraction, createLink, type PagesHarness, startPagesHarness } from '@sess/testkit/pages';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let h: PagesHarness;
let browser: Browser;
beforeAll(async () => {
  [h, browser] = await Promise.all([startPagesHarness(), launchTestBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

const SLOW = { timeout: 120_000 };
const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });

describe.each([
  ['phone', SCREEN_SIZES.phone],
  ['desktop', SCREEN_SIZES.desktop],
] as const)('an account form (%s)', (size, options) => {
  it('without signing in: the sign-in page, then back to the form, answered as the person', SLOW, async () => {
    const account = await createTestUser(h.database.db, { now: h.now() });
    const link = await createLink(h, commitInteraction());
    await setFormAssurance(h.database.db, link.sessionId, 'account', [account.userId]);
    const { context, problems } = await openWatchedContext(browser, options);
    try {
      const page = await context.newPage();
      await page.goto(link.pageUrl);
      await heading(page, 'Sign in to Sess').waitFor();
      expect(new URL(page.url()).searchParams.get('return_to')).toBe(`/s/${link.token}`);
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, `assurance-sign-in-${size}`);
      await page.getByLabel('Email').fill(account.email);
      await page.getByLabel('Password').fill(account.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await heading(page, 'Approve this commit?').waitFor();
      expect(new URL(page.url()).pathname).toBe(`/s/${link.token}`);
      await page.getByRole('button', { name: 'Approve and commit' }).click();
      await heading(page, 'Sent — waiting for the next step').waitFor();
      expect((await readSession({ ctx: h.ctx, sessionId: link.sessionId })).response).toMatchObject({ assurance: 'account' });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('another member signed in: "This form is for someone else", nothing answered', SLOW, async () => {
    const person = await createUser(h.database.db, { workspaceId: h.ctx.workspaceId });
    const other = await createUser(h.database.db, { workspaceId: h.ctx.workspaceId });
    const link = await createLink(h, commitInteraction());
    await setFormAssurance(h.database.db, link.sessionId, 'account', [person.userId]);
    const { cookie } = await signInTestUser(h.database.db, other.userId, h.now());
    const [name, value] = cookie.split('=') as [string, string];
    const { context, problems } = await openWatchedContext(browser, options);
    try {
      await context.addCookies([{ name, value, url: h.url }]);
      const page = await context.newPage();
      const response = await page.goto(link.pageUrl);
      expect(response?.status()).toBe(403);
      await heading(page, 'This form is for someone else').waitFor();
      expect(await page.getByText('Approve this commit?').count()).toBe(0);
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, `assurance-someone-else-${size}`);
      expect((await readSession({ ctx: h.ctx, sessionId: link.sessionId })).state).toBe('waiting');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
