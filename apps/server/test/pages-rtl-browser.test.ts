/*
 * A right-to-left language needs only a catalog: with a pseudo right-to-left one added at run
 * time (every English message inside a right-to-left embedding, as Chrome's `ar-XB` pseudo-locale
 * does), the answer page and the Ask landing say `dir="rtl"`, mirror, fit a phone without sideways
 * scrolling, pass axe, and still take an answer.
 */
import { readSession } from '@sess/forms';
import { onlyOn } from '@sess/testkit';
import { axeViolations, fitsWidth, launchTestBrowser, openWatchedContext, SCREEN_SIZES, screenshot } from '@sess/testkit/browser';
import { commitInteraction, createAskLink, createLink, type PagesHarness, startPagesHarness } from '@sess/testkit/pages';
import { addLanguage, type Catalog, findLanguage } from '@sess/web';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PSEUDO_RTL = 'ar-XB';
const SLOW = { timeout: 120_000 };

function pseudoRightToLeft(catalog: Catalog): Catalog {
  // U+202B RIGHT-TO-LEFT EMBEDDING … U+202C POP DIRECTIONAL FORMATTING around the whole message
  // keeps its ICU syntax intact.
  return Object.fromEntries(Object.entries(catalog).map(([key, message]) => [key, `\u202b${message}\u202c`])) as Catalog;
}

describe.runIf(onlyOn('server: pages in a right-to-left language'))('a right-to-left language (pseudo catalog)', () => {
  let h: PagesHarness;
  let browser: Browser;
  beforeAll(async () => {
    const english = findLanguage('en');
    if (!english) throw new Error('no English catalog');
    addLanguage({ tag: PSEUDO_RTL, name: 'Pseudo-RTL', catalog: pseudoRightToLeft(english.catalog) });
    [h, browser] = await Promise.all([startPagesHarness(), launchTestBrowser()]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  for (const [size, options] of Object.entries(SCREEN_SIZES)) {
    it(`the answer page mirrors, fits and takes an answer (${size})`, SLOW, async () => {
      const { context, problems } = await openWatchedContext(browser, options);
      try {
        const link = await createLink(h, commitInteraction());
        const page = await context.newPage();
        await page.goto(`${link.pageUrl}?lang=${PSEUDO_RTL}`);
        expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
          PSEUDO_RTL,
          'rtl',
        ]);
        // The form's own text stays in its own direction: English, left to right.
        expect(await page.getByRole('heading', { level: 1 }).evaluate((element) => getComputedStyle(element).direction)).toBe(
          'ltr',
        );
        expect(await page.evaluate(() => getComputedStyle(document.body).direction)).toBe('rtl');
        expect(await fitsWidth(page)).toBe(true);
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, `rtl-answer-${size}`);
        await page.getByLabel('Commit message').fill('From a right-to-left page');
        await page.getByRole('button', { name: 'Approve and commit' }).click();
        await page.waitForURL((url) => url.pathname === new URL(link.pageUrl).pathname);
        await expect
          .poll(async () => (await readSession({ ctx: h.ctx, sessionId: link.sessionId })).response)
          .toMatchObject({
            actionId: 'approve',
            values: { message: 'From a right-to-left page' },
          });
        // The choice is remembered: the next page is right to left without ?lang.
        await page.goto(link.pageUrl);
        expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
        expect(await fitsWidth(page)).toBe(true);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it('the Ask landing mirrors and fits (phone)', SLOW, async () => {
    const { context, problems } = await openWatchedContext(browser, SCREEN_SIZES.phone);
    try {
      const ask = await createAskLink(h, {
        question: 'Where should we go on Saturday?',
        fields: [{ name: 'place', type: 'text', label: 'Place' }],
        respondents: { max: 3 },
      });
      const page = await context.newPage();
      await page.goto(`${ask.pageUrl}?lang=${PSEUDO_RTL}`);
      expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
      expect(await fitsWidth(page)).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
