/*
 * The answer page in a real browser (the system Chromium through playwright-core): a phone
 * viewport first, elements found by role and label, one desktop check. One browser for the
 * file; each test opens its own context. A screenshot of each page state is saved under
 * test-results/screenshots/ (git-ignored).
 */

import { readAsk, readSession } from '@sess/forms';
import { launchTestBrowser, openWatchedContext, SCREEN_SIZES, screenshot } from '@sess/testkit/browser';
import {
  commitInteraction,
  completeLink,
  createAskLink,
  createLink,
  type PagesHarness,
  publishNext,
  pushInteraction,
  startPagesHarness,
  withdrawSession,
} from '@sess/testkit/pages';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PHONE = SCREEN_SIZES.phone;
const DESKTOP = SCREEN_SIZES.desktop;

let h: PagesHarness;
let browser: Browser;
beforeAll(async () => {
  [h, browser] = await Promise.all([startPagesHarness(), launchTestBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

/** A fresh browser context that fails the test on any CSP violation or page error. */
function openContext(options: Parameters<Browser['newContext']>[0] = PHONE) {
  return openWatchedContext(browser, options ?? PHONE);
}

const shot = screenshot;

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });
/** Browser tests wait on a real browser on a shared 2-core machine: give them room. */
const SLOW = { timeout: 120_000 };

describe('one person, one link (phone)', () => {
  let context: BrowserContext;
  let problems: string[];
  beforeAll(async () => {
    ({ context, problems } = await openContext());
  });
  afterAll(async () => {
    await context.close();
  });

  it(
    'opens a link, edits a field, approves; waits; a publish shows the next form and a complete shows Done, without reload',
    SLOW,
    async () => {
      const link = await createLink(h, commitInteraction());
      const page = await context.newPage();
      await page.goto(link.pageUrl);
      await heading(page, 'Approve this commit?').waitFor();
      expect(await page.getByRole('term').first().textContent()).toBe('src/greeting.js');
      const message = page.getByLabel('Commit message');
      expect(await message.inputValue()).toBe('Greet users by first name\n\nAdds a test for the new greeting.');
      await shot(page, 'form');
      await message.fill('Greet users by their first name');
      await page.getByRole('button', { name: 'Approve and commit' }).click();

      await heading(page, 'Sent — waiting for the next step').waitFor();
      await shot(page, 'waiting');
      const answer = await readSession({ ctx: h.ctx, sessionId: link.sessionId });
      expect(answer.response).toMatchObject({ actionId: 'approve', values: { message: 'Greet users by their first name' } });

      // A marker on window survives only if the page is never reloaded.
      await page.evaluate(() => Object.assign(window, { sessMarker: 'still here' }));
      await publishNext(h, link.sessionId, pushInteraction());
      await heading(page, 'Push to main now?').waitFor({ timeout: 15_000 });
      expect(await page.evaluate(() => (window as unknown as { sessMarker?: string }).sessMarker)).toBe('still here');
      expect(await page.getByRole('radio', { name: 'Now' }).isChecked()).toBe(true);
      await shot(page, 'next-form');

      await page.getByRole('radio', { name: 'Tonight' }).check();
      await page.getByRole('button', { name: 'Push' }).click();
      await heading(page, 'Sent — waiting for the next step').waitFor();
      await page.evaluate(() => Object.assign(window, { sessMarker: 'still here' }));
      await completeLink(h, link.sessionId);
      await heading(page, 'Done').waitFor({ timeout: 15_000 });
      expect(await page.evaluate(() => (window as unknown as { sessMarker?: string }).sessMarker)).toBe('still here');
      expect(await page.getByRole('button').count()).toBe(0);
      await shot(page, 'done');
      expect(problems).toEqual([]);
    },
  );

  it('shows inline errors with the person’s values, linked to the field', async () => {
    const link = await createLink(h, {
      mode: 'interactive',
      title: 'Name the release',
      source: {
        kind: 'sess_surface',
        components: [
          {
            type: 'field',
            name: 'name',
            label: 'Release name',
            description: 'At least 5 characters.',
            schema: { type: 'string', minLength: 5 },
          },
          { type: 'field', name: 'score', label: 'Confidence', schema: { type: 'integer', minimum: 1, maximum: 5 } },
        ],
      },
    });
    const page = await context.newPage();
    await page.goto(link.pageUrl);
    await page.getByLabel('Release name').fill('abc');
    await page.getByRole('radio', { name: '4' }).check();
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('alert').waitFor();
    const field = page.getByLabel('Release name');
    expect(await field.inputValue()).toBe('abc');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('radio', { name: '4' }).isChecked()).toBe(true);
    // Help and error are both in the field's accessible description.
    const description = await field.evaluate((element) =>
      (element.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent)
        .join(' | '),
    );
    expect(description).toBe('At least 5 characters. | Error: Enter at least 5 characters (this has 3).');
    await shot(page, 'errors');
    await page.getByRole('link', { name: /Release name: Enter at least 5/ }).click();
    expect(await field.evaluate((element) => element === document.activeElement)).toBe(true);
    expect((await readSession({ ctx: h.ctx, sessionId: link.sessionId })).response).toBeNull();
  });

  it('says the question was withdrawn, live, while waiting', async () => {
    const link = await createLink(h, commitInteraction());
    const page = await context.newPage();
    await page.goto(link.pageUrl);
    await page.getByRole('button', { name: 'Stop' }).click();
    await heading(page, 'Sent — waiting for the next step').waitFor();
    await withdrawSession({ ctx: h.ctx, sessionId: link.sessionId });
    await heading(page, 'The question was withdrawn').waitFor({ timeout: 15_000 });
    await shot(page, 'withdrawn');
  });

  it('lapsed: "Ask for more time" opens the form again; past the horizon the link is closed', async () => {
    const link = await createLink(h, commitInteraction(), 600);
    const page = await context.newPage();
    h.advance(601_000);
    await page.goto(link.pageUrl);
    await heading(page, 'The time to answer ran out').waitFor();
    await shot(page, 'lapsed');
    await page.getByRole('button', { name: 'Ask for more time' }).click();
    await heading(page, 'Approve this commit?').waitFor();
    h.advance(8 * 86_400_000);
    await page.reload();
    await heading(page, 'This link has closed').waitFor();
    expect(await page.getByRole('button').count()).toBe(0);
    await shot(page, 'expired');
  });

  it('an unknown link is a plain page', async () => {
    const page = await context.newPage();
    const response = await page.goto(`${h.url}/s/${'D'.repeat(43)}`);
    expect(response?.status()).toBe(404);
    await heading(page, 'There is nothing here').waitFor();
    await shot(page, 'not-found');
  });

  it('runs no agent-supplied markup or script', async () => {
    const hostile = '"><img src=x onerror=alert(1)><script>alert(2)</script>';
    const link = await createLink(h, {
      mode: 'interactive',
      title: `<script>alert(3)</script>`,
      source: {
        kind: 'sess_surface',
        components: [
          { type: 'text', text: `javascript:alert(4)\n${hostile}` },
          { type: 'record', label: hostile, fields: { [hostile.slice(0, 40)]: hostile } },
          { type: 'field', name: 'f', label: hostile, schema: { type: 'string' }, value: hostile },
          {
            type: 'field',
            name: 'm',
            label: 'Text',
            multiline: true,
            schema: { type: 'string' },
            value: `</textarea>${hostile}`,
          },
        ],
      },
    });
    const page = await context.newPage();
    let dialogs = 0;
    page.on('dialog', (dialog) => {
      dialogs += 1;
      void dialog.dismiss();
    });
    await page.goto(link.pageUrl);
    await heading(page, '<script>alert(3)</script>').waitFor();
    expect(await page.locator('img, main script, a[href^="javascript:"]').count()).toBe(0);
    expect(await page.getByLabel(hostile).inputValue()).toBe(hostile);
    expect(await page.getByLabel('Text').inputValue()).toBe(`</textarea>${hostile}`);
    expect(dialogs).toBe(0);
  });
});

describe('accessibility and layout (phone)', () => {
  it(
    'every control is labelled, tap targets are at least 44 px, text has enough contrast, focus follows the form',
    SLOW,
    async () => {
      const link = await createLink(h, {
        mode: 'interactive',
        title: 'Plan the trip',
        description: 'A few questions before I book.',
        source: {
          kind: 'sess_surface',
          components: [
            { type: 'heading', text: 'About you' },
            { type: 'field', name: 'name', label: 'Your name', schema: { type: 'string' }, value: 'Ada' },
            { type: 'field', name: 'nights', label: 'Nights', schema: { type: 'integer', minimum: 1, maximum: 14 }, value: 2 },
            {
              type: 'field',
              name: 'pets',
              label: 'Bringing a pet',
              schema: { type: 'boolean' },
              description: 'Small pets only.',
            },
            {
              type: 'field',
              name: 'place',
              label: 'Where to?',
              schema: { type: 'string', enum: ['beach', 'mountains'], option_labels: ['Beach', 'Mountains'] },
            },
            {
              type: 'field',
              name: 'month',
              label: 'Month',
              schema: { type: 'string', enum: ['jan', 'feb', 'mar', 'apr', 'may', 'jun'] },
            },
            {
              type: 'field',
              name: 'extras',
              label: 'Extras',
              required: false,
              schema: { type: 'array', items: { type: 'string', enum: ['bike', 'boat'], option_labels: ['Bike', 'Boat'] } },
            },
            { type: 'field', name: 'mood', label: 'How excited are you?', schema: { type: 'integer', minimum: 1, maximum: 5 } },
          ],
        },
        actions: [
          { id: 'go', label: 'Book it', intent: 'approve' },
          { id: 'no', label: 'Not now', intent: 'reject' },
        ],
      });
      const { context, problems } = await openContext();
      const page = await context.newPage();
      await page.goto(link.pageUrl);
      for (const label of ['Your name', 'Nights', 'Bringing a pet', 'Beach', 'Mountains', 'Month', 'Bike', 'Boat']) {
        // The accessible name is the label, plus " (required)" where the field must be answered.
        expect(await page.getByLabel(new RegExp(`^${label}( \\(required\\))?$`)).count(), label).toBe(1);
      }
      expect(
        await page
          .getByRole('group', { name: /How excited are you/ })
          .getByRole('radio')
          .count(),
      ).toBe(5);
      expect(await page.getByRole('combobox', { name: /Month/ }).count()).toBe(1);
      await shot(page, 'every-field');

      // Tap targets: every button, input box, select, option row and rating button.
      const small = await page.evaluate(() => {
        const targets = document.querySelectorAll<HTMLElement>(
          'main button, main input[type=text], main input[type=number], main select, main textarea, main .choice, main .rating label',
        );
        return [...targets]
          .map((element) => ({ element: element.outerHTML.slice(0, 60), box: element.getBoundingClientRect() }))
          .filter(({ box }) => box.height < 44 || box.width < 44)
          .map(({ element, box }) => `${element} ${box.width}x${box.height}`);
      });
      expect(small).toEqual([]);

      // Contrast of the text a person reads (WCAG AA: 4.5:1), against the card or button behind it.
      const low = await page.evaluate(() => {
        const rgb = (value: string) => (value.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
        const luminance = ([r, g, b]: number[]) => {
          const [R, G, B] = [r!, g!, b!].map((v) => {
            const c = v / 255;
            return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
          });
          return 0.2126 * R! + 0.7152 * G! + 0.0722 * B!;
        };
        const background = (element: Element | null): string => {
          for (let e = element; e; e = e.parentElement) {
            const bg = getComputedStyle(e).backgroundColor;
            if (bg && !bg.startsWith('rgba(0, 0, 0, 0)') && bg !== 'transparent') return bg;
          }
          return 'rgb(255, 255, 255)';
        };
        const out: string[] = [];
        for (const element of document.querySelectorAll('h1, h2, p, label, legend, button, .req, .hint, dt, dd, footer')) {
          const style = getComputedStyle(element);
          const a = luminance(rgb(style.color));
          const b = luminance(rgb(background(element)));
          const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
          if (ratio < 4.5) out.push(`${element.tagName}.${element.className} ${ratio.toFixed(2)}`);
        }
        return out;
      });
      expect(low).toEqual([]);

      // Focus order follows the form, top to bottom, ending on the buttons (forward action first).
      const order: string[] = [];
      await page.locator('body').focus();
      for (let i = 0; i < 10; i += 1) {
        await page.keyboard.press('Tab');
        order.push(
          await page.evaluate(() => {
            const active = document.activeElement as HTMLElement | null;
            return active?.id || active?.textContent?.trim() || '';
          }),
        );
      }
      // A radio group is one tab stop; each checkbox is its own.
      expect(order).toEqual([
        'f-name',
        'f-nights',
        'f-pets',
        'f-place',
        'f-month',
        'f-extras',
        'f-extras-1',
        'f-mood',
        'Book it',
        'Not now',
      ]);
      expect(problems).toEqual([]);
      await context.close();
    },
  );

  it('desktop: the same form in a centred column, buttons side by side, primary first', async () => {
    const link = await createLink(h, commitInteraction());
    const { context } = await openContext(DESKTOP);
    const page = await context.newPage();
    await page.goto(link.pageUrl);
    const approve = await page.getByRole('button', { name: 'Approve and commit' }).boundingBox();
    const stop = await page.getByRole('button', { name: 'Stop' }).boundingBox();
    const card = await page.locator('.card').boundingBox();
    expect(approve && stop && card).toBeTruthy();
    expect(Math.abs(approve!.y - stop!.y)).toBeLessThan(2);
    expect(approve!.x).toBeLessThan(stop!.x);
    expect(card!.width).toBeLessThanOrEqual(36 * 17 + 1);
    expect(Math.abs(card!.x + card!.width / 2 - 640)).toBeLessThan(16);
    await shot(page, 'desktop-form');
    await context.close();
  });
});

describe('without JavaScript', () => {
  it('answers, and a refresh shows the next step', async () => {
    const link = await createLink(h, commitInteraction());
    const { context } = await openContext({ ...PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(link.pageUrl);
    await page.getByRole('button', { name: 'Approve and commit' }).click();
    await heading(page, 'Sent — waiting for the next step').waitFor();
    await publishNext(h, link.sessionId, pushInteraction());
    await page.getByRole('link', { name: 'Check for the next step' }).click();
    await heading(page, 'Push to main now?').waitFor();
    await context.close();
  });
});

describe('an Ask (phone)', () => {
  it('with max: 3, opened by five browsers, takes exactly three answers', SLOW, async () => {
    const ask = await createAskLink(h, {
      question: 'Where should we go on Saturday?',
      details: 'I will check the forecast and suggest a plan.',
      fields: [
        { name: 'place', label: 'Where to?', type: 'choice', options: ['Beach', 'Mountains', 'City'] },
        { name: 'fun', label: 'How fun was last time?', type: 'rating' },
      ],
      submit_label: 'Plan it',
      respondents: { max: 3, name: true },
    });
    const browsers = await Promise.all(Array.from({ length: 5 }, () => openContext()));
    const pages = await Promise.all(browsers.map(({ context }) => context.newPage()));
    await Promise.all(pages.map((page) => page.goto(ask.pageUrl)));
    await shot(pages[0]!, 'ask-landing');

    // Everyone presses Start at once: the cap is checked as each person starts.
    await Promise.all(
      pages.map(async (page) => {
        await page.getByRole('button', { name: 'Start' }).click();
        await page.waitForURL(/\/s\/(r[A-Za-z0-9_-]{43}|[A-Za-z0-9_-]{43}\/start)$/);
      }),
    );
    const started = pages.filter((page) => /\/s\/r[A-Za-z0-9_-]{43}$/.test(page.url()));
    const refused = pages.filter((page) => !started.includes(page));
    expect(started).toHaveLength(3);
    await refused[0]!.getByText('Every place is taken right now.').waitFor();
    await shot(refused[0]!, 'ask-full');

    await shot(started[0]!, 'ask-respondent-form');
    await Promise.all(
      started.map(async (page, index) => {
        await page.getByLabel('Your name').fill(`Person ${index + 1}`);
        await page.getByRole('radio', { name: ['Beach', 'Mountains', 'City'][index]! }).check();
        await page.getByRole('radio', { name: String(index + 3) }).check();
        await page.getByRole('button', { name: 'Plan it' }).click();
        await heading(page, 'Done').waitFor();
      }),
    );
    await shot(started[0]!, 'ask-respondent-done');

    // The ones turned away cannot answer now either: the Ask is closed.
    await refused[1]!.goto(ask.pageUrl);
    await refused[1]!.getByText('This question takes no more answers.').waitFor();
    expect(await refused[1]!.getByRole('button', { name: 'Start' }).count()).toBe(0);
    await shot(refused[1]!, 'ask-closed');

    const read = await readAsk({ ctx: h.ctx, askId: ask.askId });
    expect(read.counts).toMatchObject({ answered: 3, max: 3 });
    expect(read.answers.map((a) => a.respondentName).sort()).toEqual(['Person 1', 'Person 2', 'Person 3']);
    for (const { context, problems } of browsers) {
      expect(problems).toEqual([]);
      await context.close();
    }
  });
});
