/*
 * The answer page of a newcomer's first run, in a real browser at 390×844 and 1280×800: the QR
 * code for a computer, the open form following its session, the second tab's one message, the
 * person's own answer with its receipt, an Ask's retry. Every state change is driven through
 * the real runtime while the page is open. With SESS_UPDATE_DOCS_SCREENSHOTS=1 it also writes
 * the README's screenshots into docs/screenshots/.
 */
import { readFile } from 'node:fs/promises';
import { readSession, startRespondent, submitLinkAnswer } from '@sess/forms';
import { launchTestBrowser, openWatchedContext, SCREEN_SIZES, screenshot, sidewaysOverflow } from '@sess/testkit/browser';
import {
  callInteraction,
  commitInteraction,
  completeLink,
  createAskLink,
  createLink,
  type PagesHarness,
  publishNext,
  pushInteraction,
  startPagesHarness,
  verifyAgainstJwks,
  withdrawSession,
} from '@sess/testkit/pages';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const { phone: PHONE, desktop: DESKTOP } = SCREEN_SIZES;
/** Browser tests on a shared 2-core machine; a lapse waits out one long-poll (25 s) at most. */
const SLOW = { timeout: 120_000 };

let h: PagesHarness;
let browser: Browser;
beforeAll(async () => {
  [h, browser] = await Promise.all([startPagesHarness(), launchTestBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });

/** Opens `url` in a fresh watched context; `done` asserts no CSP violation, no page error, nothing sideways. */
async function open(url: string, size: BrowserContextOptions = PHONE) {
  const { context, problems } = await openWatchedContext(browser, size);
  const page = await context.newPage();
  await page.goto(url);
  return {
    page,
    context,
    async done(shot: string) {
      await screenshot(page, shot);
      const overflow = await sidewaysOverflow(page);
      expect(overflow.scrollWidth, overflow.elements.join(', ')).toBeLessThanOrEqual(overflow.width);
      expect(problems).toEqual([]);
      await context.close();
    },
  };
}

describe('"Answer on your phone"', () => {
  it('on a computer: the QR code of the link the agent got, with that link written out', SLOW, async () => {
    const link = await createLink(h, callInteraction());
    const { page, done } = await open(link.pageUrl, DESKTOP);
    await page.getByRole('heading', { name: 'Answer on your phone' }).waitFor();
    const qr = page.getByRole('img', { name: 'QR code of this page’s link' });
    const box = await qr.boundingBox();
    expect(box && box.width >= 120 && Math.abs(box.width - box.height) < 1).toBe(true);
    expect(await page.locator('svg.qr path').getAttribute('d')).toMatch(/^M\d+ \d+h\d+v1h-\d+z/);
    const humanUrl = `${h.publicUrl}/s/${link.token}`;
    expect(await page.locator('.handoff-link a').textContent()).toBe(humanUrl);
    expect(await page.locator('.handoff-link a').getAttribute('href')).toBe(humanUrl);
    // The form is still right there, beside the offer.
    await heading(page, 'What time works for a call tomorrow?').waitFor();
    await done('handoff-desktop');
  });

  it('on a phone: out of the way (not shown, not announced)', SLOW, async () => {
    const link = await createLink(h, callInteraction());
    const { page, done } = await open(link.pageUrl);
    await heading(page, 'What time works for a call tomorrow?').waitFor();
    expect(await page.getByRole('heading', { name: 'Answer on your phone' }).count()).toBe(0);
    expect(await page.locator('.handoff').isVisible()).toBe(false);
    await done('handoff-phone');
  });
});

describe('an open form follows its session (phone)', () => {
  /** Opens the form and types into its text field, as a person part-way through. */
  async function typing(pageUrl: string) {
    const opened = await open(pageUrl);
    await opened.page.getByLabel('Commit message').fill('Half-written message');
    return opened;
  }
  const typed = (page: Page) => page.getByLabel('Commit message').inputValue();
  const notice = (page: Page) => page.locator('[data-follow-notice] .banner');
  const formButtons = (page: Page) => page.locator('form button[type="submit"]');

  it('withdrawn: says so at once, keeps the typing, shows the page when asked', SLOW, async () => {
    const link = await createLink(h, commitInteraction());
    const { page, done } = await typing(link.pageUrl);
    await withdrawSession({ ctx: h.ctx, sessionId: link.sessionId });
    await page.getByText('The agent withdrew this question: it takes no more answers.').waitFor({ timeout: 15_000 });
    expect(await typed(page)).toBe('Half-written message');
    // Nothing under the notice still offers to send: the form's own buttons are disabled, and look it.
    expect(await formButtons(page).count()).toBeGreaterThan(0);
    expect(
      await formButtons(page)
        .first()
        .evaluate((button) => getComputedStyle(button).opacity),
    ).toBe('0.45');
    expect(await formButtons(page).evaluateAll((buttons) => buttons.map((b) => (b as HTMLButtonElement).disabled))).not.toContain(
      false,
    );
    await screenshot(page, 'follow-withdrawn-notice');
    await notice(page).getByRole('button', { name: 'Show it' }).click();
    await heading(page, 'The question was withdrawn').waitFor();
    await done('follow-withdrawn');
  });

  it(
    'withdrawn before the page’s script first asks: the buttons are disabled at once, and the server refuses a send anyway (410)',
    SLOW,
    async () => {
      const link = await createLink(h, commitInteraction());
      const { context, problems } = await openWatchedContext(browser, PHONE);
      const page = await context.newPage();
      // The page is served open, then withdrawn before its script runs: its first wait says so.
      await page.route(link.pageUrl, async (route) => {
        const response = await route.fetch();
        await withdrawSession({ ctx: h.ctx, sessionId: link.sessionId });
        await route.fulfill({ response });
      });
      await page.goto(link.pageUrl);
      await page.getByText('The agent withdrew this question: it takes no more answers.').waitFor({ timeout: 15_000 });
      expect(
        await formButtons(page).evaluateAll((buttons) => buttons.map((b) => (b as HTMLButtonElement).disabled)),
      ).not.toContain(false);
      // A button forced back on (or a page with an older script) still sends nothing: the server says no.
      await page.unroute(link.pageUrl);
      await formButtons(page)
        .first()
        .evaluate((button) => {
          (button as HTMLButtonElement).disabled = false;
        });
      const [posted] = await Promise.all([
        page.waitForResponse((response) => response.request().method() === 'POST'),
        formButtons(page).first().click(),
      ]);
      expect(posted.status()).toBe(410);
      await heading(page, 'The question was withdrawn').waitFor();
      await page.getByText('Your answer was not sent.').waitFor();
      expect(problems).toEqual([]);
      await context.close();
    },
  );

  it('answered elsewhere and completed: the notice says the agent has finished', SLOW, async () => {
    const link = await createLink(h, commitInteraction());
    const { page, done } = await typing(link.pageUrl);
    await submitLinkAnswer(h.runtime, link.token, {
      revision: 1,
      actionId: 'approve',
      submitted: { message: 'From the laptop' },
    });
    await page.getByText('This question already has an answer, sent from another tab or device.', { exact: false }).waitFor({
      timeout: 15_000,
    });
    await completeLink(h, link.sessionId);
    await page.getByText('The agent has finished with this question: it takes no more answers.').waitFor({ timeout: 15_000 });
    expect(await typed(page)).toBe('Half-written message');
    await notice(page).getByRole('button', { name: 'Show it' }).click();
    await heading(page, 'Done').waitFor();
    await page.getByText('From the laptop').waitFor();
    await done('follow-completed');
  });

  it('a follow-up published: offers to load the new step, and loads it only when asked', SLOW, async () => {
    const link = await createLink(h, commitInteraction());
    const { page, done } = await typing(link.pageUrl);
    await submitLinkAnswer(h.runtime, link.token, { revision: 1, actionId: 'approve', submitted: { message: 'Elsewhere' } });
    await publishNext(h, link.sessionId, pushInteraction());
    const load = notice(page).getByRole('button', { name: 'Load the new step' });
    await load.waitFor({ timeout: 15_000 });
    expect(await typed(page)).toBe('Half-written message');
    await screenshot(page, 'follow-published-notice');
    await load.click();
    await heading(page, 'Push to main now?').waitFor();
    await done('follow-published');
  });

  it('the link lapsed: says the time ran out, keeping the typing', SLOW, async () => {
    const link = await createLink(h, commitInteraction(), 600);
    const { page, done } = await typing(link.pageUrl);
    h.advance(601_000);
    // No notification marks a lapse: the page learns it on its next wait (at most one long-poll).
    await page.getByText('The time to answer ran out.', { exact: false }).waitFor({ timeout: 60_000 });
    expect(await typed(page)).toBe('Half-written message');
    await notice(page).getByRole('button', { name: 'Show what to do' }).click();
    await heading(page, 'The time to answer ran out').waitFor();
    await done('follow-lapsed');
  });

  it('without JavaScript the form is unchanged: no notice, and the server’s answer on sending is the truth', SLOW, async () => {
    const link = await createLink(h, commitInteraction());
    const { context } = await openWatchedContext(browser, { ...PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(link.pageUrl);
    await withdrawSession({ ctx: h.ctx, sessionId: link.sessionId });
    expect(await page.locator('[data-follow-notice]').textContent()).toBe('');
    await page.getByRole('button', { name: 'Approve and commit' }).click();
    await heading(page, 'The question was withdrawn').waitFor();
    await page.getByText('Your answer was not sent.').waitFor();
    await context.close();
  });
});

describe('after an answer (phone and desktop)', () => {
  it('a second tab’s answer: one clear message, the first answer kept', SLOW, async () => {
    const link = await createLink(h, commitInteraction());
    const { context, problems } = await openWatchedContext(browser, PHONE);
    // The second tab has not heard of the first answer (no script, as an old page would be): with
    // its script, it would learn it and disable its buttons before anyone pressed them.
    const { context: noScript } = await openWatchedContext(browser, { ...PHONE, javaScriptEnabled: false });
    const [first, second] = [await context.newPage(), await noScript.newPage()];
    await first.goto(link.pageUrl);
    await second.goto(link.pageUrl);
    await first.getByLabel('Commit message').fill('First tab');
    await first.getByRole('button', { name: 'Approve and commit' }).click();
    await heading(first, 'Sent — waiting for the next step').waitFor();
    await second.getByLabel('Commit message').fill('Second tab');
    await second.getByRole('button', { name: 'Approve and commit' }).click();
    await heading(second, 'Already answered — waiting for the next step').waitFor();
    expect(await second.getByText('the first answer sent is the one kept', { exact: false }).count()).toBe(1);
    expect(await second.getByText(/Sent —|Your answer was sent/).count()).toBe(0);
    await second.getByText('First tab').waitFor();
    expect(await second.getByText('Second tab').count()).toBe(0);
    await screenshot(second, 'second-tab');
    expect(problems).toEqual([]);
    await context.close();
    await noScript.close();
  });

  it('a second tab with its script: it learns of the first answer, says so and disables its buttons', SLOW, async () => {
    const link = await createLink(h, commitInteraction());
    const { context, problems } = await openWatchedContext(browser, PHONE);
    const [first, second] = [await context.newPage(), await context.newPage()];
    await first.goto(link.pageUrl);
    await second.goto(link.pageUrl);
    await second.getByLabel('Commit message').fill('Second tab');
    await first.getByRole('button', { name: 'Approve and commit' }).click();
    await heading(first, 'Sent — waiting for the next step').waitFor();
    await second.getByText('This question already has an answer, sent from another tab or device.', { exact: false }).waitFor({
      timeout: 15_000,
    });
    expect(await second.getByRole('button', { name: 'Approve and commit' }).isDisabled()).toBe(true);
    expect(await second.getByLabel('Commit message').inputValue()).toBe('Second tab');
    expect(problems).toEqual([]);
    await context.close();
  });

  for (const [size, options] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`${size}: after Stop the person sees their answer and downloads a receipt that verifies`, SLOW, async () => {
      const link = await createLink(h, commitInteraction());
      const { page, done } = await open(link.pageUrl, options);
      await page.getByRole('button', { name: 'Stop' }).click();
      await heading(page, 'Sent — waiting for the next step').waitFor();
      const held = (await readSession({ ctx: h.ctx, sessionId: link.sessionId })).response!;
      // What the person sent with Stop: the button, and the message as it stood in the box.
      const sent = ['Stop', String(held.values.message)];
      const yours = page.getByRole('region', { name: 'Your answer' });
      expect(await yours.locator('dt').allTextContents()).toEqual(['You chose', 'Commit message']);
      expect(await yours.locator('dd').allTextContents()).toEqual(sent);
      // "Check for the next step" spans the card, like the download button.
      const check = await page.getByRole('link', { name: 'Check for the next step' }).boundingBox();
      const download = page.getByRole('link', { name: 'Download your receipt' });
      const card = await page.locator('.card').boundingBox();
      expect(check && card && check.width > card.width - 2 * 21 - 2).toBe(true);

      const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
      expect(file.suggestedFilename()).toBe(`sess-receipt-${held.eventId}.jws`);
      const jws = await readFile((await file.path())!, 'utf8');
      expect(jws).toBe(held.receipt);
      const verified = await verifyAgainstJwks(h, jws, link.sessionId, held);
      expect(verified.ok && verified.claims.event_id).toBe(held.eventId);
      await page.getByText('npx sess receipt verify <file>').waitFor();
      await screenshot(page, `own-answer-sent-${size}`);

      await completeLink(h, link.sessionId);
      await heading(page, 'Done').waitFor({ timeout: 15_000 });
      expect(await page.getByRole('region', { name: 'Your answer' }).locator('dd').allTextContents()).toEqual(sent);
      await page.getByRole('link', { name: 'Download your receipt' }).waitFor();
      await done(`own-answer-done-${size}`);
    });
  }
});

describe('an Ask (phone)', () => {
  it('"try again later" has a full-width Try again that opens the page again', SLOW, async () => {
    const ask = await createAskLink(h, {
      question: 'Where should we go on Saturday?',
      fields: [{ name: 'place', label: 'Where to?', type: 'choice', options: ['Beach', 'Mountains'] }],
      respondents: { max: 1, respondent_expires_in: 600 },
      expires_in: 7200,
    });
    const taken = await startRespondent(h.runtime, ask.token);
    const { page, done } = await open(ask.pageUrl);
    await page.getByText('Every place is taken right now.').waitFor();
    const retry = page.getByRole('link', { name: 'Try again' });
    const [button, card] = [await retry.boundingBox(), await page.locator('.card').boundingBox()];
    expect(button && card && button.width > card.width - 2 * 21 - 2).toBe(true);
    await screenshot(page, 'ask-full-retry');
    // The place comes back when the first person's page expires: Try again shows Start.
    h.advance(new Date(taken.expiresAt).getTime() - h.now().getTime() + 1000);
    await retry.click();
    await page.getByRole('button', { name: 'Start' }).waitFor();
    await done('ask-retry-start');
  });
});

describe('README screenshots', () => {
  it.skipIf(process.env.SESS_UPDATE_DOCS_SCREENSHOTS !== '1')(
    'writes docs/screenshots/answer-phone.png and answer-desktop.png',
    SLOW,
    async () => {
      const link = await createLink(h, callInteraction());
      for (const [name, options] of [
        ['answer-phone', { ...PHONE, deviceScaleFactor: 1 }],
        ['answer-desktop', DESKTOP],
      ] as const) {
        const { page, context } = await open(link.pageUrl, options);
        await page.getByRole('radio', { name: '13:00' }).check();
        await page.getByLabel('Anything I should know?').fill('Call my mobile, please.');
        await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
        await page.screenshot({ path: `docs/screenshots/${name}.png` });
        await context.close();
      }
    },
  );
});
