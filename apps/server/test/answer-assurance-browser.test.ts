/*
 * An `account` form in a real browser (Chromium through playwright-core), at phone (390×844) and
 * desktop (1280×800) sizes: opened without signing in, the link lands on the sign-in page and,
 * once signed in, comes back to the form (return_to); opened by another member, it says "This
 * form is for someone else" and nothing is answered. An Ask with named respondents: a named member
 * signs in from the shared link, starts and answers their own page, and the link brings them back
 * to it; a member it does not name is turned away. Screenshots of each state are saved under
 * test-results/screenshots/ (git-ignored).
 */
import { newId } from '@sess/core';
import { memberships } from '@sess/db';
import { readAsk, readSession } from '@sess/forms';
import { createTestUser, createUser, sampleAskArguments, setFormAssurance, signInTestUser } from '@sess/testkit';
import { fitsWidth, launchTestBrowser, openWatchedContext, SCREEN_SIZES, screenshot } from '@sess/testkit/browser';
import { commitInteraction, createAskLink, createLink, type PagesHarness, startPagesHarness } from '@sess/testkit/pages';
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

describe.each([
  ['phone', SCREEN_SIZES.phone],
  ['desktop', SCREEN_SIZES.desktop],
] as const)('an Ask with named respondents (%s)', (size, options) => {
  it(
    'a named member signs in from the shared link, answers their own page, and comes back to it; another member is turned away',
    SLOW,
    async () => {
      const named = await createTestUser(h.database.db, { now: h.now() });
      const other = await createUser(h.database.db, { workspaceId: h.ctx.workspaceId });
      await h.database.db
        .insert(memberships)
        .values({ id: newId('membership'), workspaceId: h.ctx.workspaceId, userId: named.userId, role: 'member' });
      const ask = await createAskLink(h, sampleAskArguments({ people: [named.email] }));
      const { context, problems } = await openWatchedContext(browser, options);
      const { cookie } = await signInTestUser(h.database.db, other.userId, h.now());
      const [name, value] = cookie.split('=') as [string, string];
      const { context: otherContext, problems: otherProblems } = await openWatchedContext(browser, options);
      try {
        const page = await context.newPage();
        await page.goto(ask.pageUrl);
        await heading(page, 'Sign in to Sess').waitFor();
        await page.getByLabel('Email').fill(named.email);
        await page.getByLabel('Password').fill(named.password);
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        await heading(page, 'Where should we go on Saturday?').waitFor();
        expect(new URL(page.url()).pathname).toBe(`/s/${ask.token}`);
        expect(await page.getByText(named.email).count()).toBe(0);
        expect(await fitsWidth(page)).toBe(true);
        await screenshot(page, `named-ask-landing-${size}`);
        await page.getByRole('button', { name: 'Start' }).click();
        await page.waitForURL(/\/s\/r[A-Za-z0-9_-]{43}$/);
        const own = new URL(page.url()).pathname;
        await page.getByRole('radio', { name: 'Beach' }).check();
        expect(await fitsWidth(page)).toBe(true);
        await screenshot(page, `named-ask-form-${size}`);
        await page.getByRole('button', { name: 'Plan it' }).click();
        await heading(page, 'Done').waitFor();
        await page.goto(ask.pageUrl);
        await heading(page, 'Done').waitFor();
        expect(new URL(page.url()).pathname).toBe(own);

        await otherContext.addCookies([{ name, value, url: h.url }]);
        const otherPage = await otherContext.newPage();
        expect((await otherPage.goto(ask.pageUrl))?.status()).toBe(403);
        await heading(otherPage, 'This form is for someone else').waitFor();
        expect(await fitsWidth(otherPage)).toBe(true);
        await screenshot(otherPage, `named-ask-someone-else-${size}`);

        const read = await readAsk({ ctx: h.ctx, askId: ask.askId });
        expect(read.counts).toMatchObject({ started: 1, answered: 1, max: 1 });
        expect(read.answers[0]).toMatchObject({ assurance: 'account' });
        expect(problems).toEqual([]);
        expect(otherProblems).toEqual([]);
      } finally {
        await context.close();
        await otherContext.close();
      }
    },
  );
});
