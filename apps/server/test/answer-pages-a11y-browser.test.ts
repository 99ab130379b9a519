/*
 * The answer pages in the person's language and to WCAG 2.2 AA, in a real browser (the system
 * Chromium): axe finds nothing on every state in English and German, at phone size in light and
 * at desktop size in dark; German and Slovenian chrome; the picker's choice remembered; a German
 * decimal comma read as a number; the error summary takes the focus. One browser for the file.
 */

import { readSession } from '@sess/forms';
import { onlyOn } from '@sess/testkit';
import { axeViolations, fitsWidth, launchTestBrowser, openWatchedContext, SCREEN_SIZES, screenshot } from '@sess/testkit/browser';
import {
  commitInteraction,
  completeLink,
  createAskLink,
  createLink,
  type PagesHarness,
  startPagesHarness,
  withdrawSession,
} from '@sess/testkit/pages';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe.runIf(onlyOn('server: the answer pages in two languages, to WCAG AA'))(
  'the answer pages in two languages, to WCAG AA',
  () => {
    const SLOW = { timeout: 240_000 };

    /** One field of every kind the page renders (as the page fixtures' everyFieldSurface). */
    function everyFieldInteraction(locale?: string) {
      return {
        mode: 'interactive',
        title: 'Plan the trip',
        description: 'A few questions before I book.',
        ...(locale ? { locale } : {}),
        source: {
          kind: 'sess_surface',
          components: [
            { type: 'heading', text: 'About you' },
            { type: 'text', text: 'First line\nsecond line\n\nA new paragraph.' },
            { type: 'field', name: 'name', label: 'Your name', schema: { type: 'string' }, value: 'Ada' },
            { type: 'field', name: 'email', label: 'Email', schema: { type: 'string', format: 'email' }, required: false },
            { type: 'field', name: 'notes', label: 'Notes', multiline: true, required: false, schema: { type: 'string' } },
            { type: 'field', name: 'budget', label: 'Budget (EUR)', schema: { type: 'number', minimum: 0 }, value: 250.5 },
            { type: 'field', name: 'nights', label: 'Nights', schema: { type: 'integer', minimum: 1, maximum: 14 }, value: 2 },
            { type: 'field', name: 'pets', label: 'Bringing a pet', schema: { type: 'boolean' }, value: true },
            {
              type: 'field',
              name: 'place',
              label: 'Where to?',
              schema: { type: 'string', enum: ['beach', 'mountains', 'city'], option_labels: ['Beach', 'Mountains', 'City'] },
              value: 'mountains',
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
              schema: {
                type: 'array',
                items: { type: 'string', enum: ['bike', 'boat', 'car'], option_labels: ['Bike', 'Boat', 'Car'] },
              },
              value: ['boat'],
            },
            { type: 'field', name: 'mood', label: 'How excited are you?', schema: { type: 'integer', minimum: 1, maximum: 5 } },
          ],
        },
      };
    }

    let h: PagesHarness;
    let browser: Browser;
    /** The page of each state, made once (the clock moves for lapsed and expired before the rest exist). */
    const urls: Record<string, string> = {};

    beforeAll(async () => {
      [h, browser] = await Promise.all([startPagesHarness(), launchTestBrowser()]);
      const expired = await createLink(h, commitInteraction(), 600);
      h.advance(8 * 86_400_000);
      const lapsed = await createLink(h, commitInteraction(), 600);
      h.advance(601_000);
      urls.expired = expired.pageUrl;
      urls.lapsed = lapsed.pageUrl;
      urls.open = (await createLink(h, everyFieldInteraction())).pageUrl;
      urls.notFound = `${h.url}/s/${'D'.repeat(43)}`;
      urls.ask = (
        await createAskLink(h, {
          question: 'Where should we go on Saturday?',
          details: 'I will check the forecast.',
          fields: [{ name: 'fun', label: 'How fun was last time?', type: 'rating' }],
          respondents: { max: 3 },
        })
      ).pageUrl;
      // Waiting, done and withdrawn: answered once in a throwaway context.
      const { context } = await openWatchedContext(browser, SCREEN_SIZES.phone);
      const answered = async () => {
        const link = await createLink(h, commitInteraction());
        const page = await context.newPage();
        await page.goto(link.pageUrl);
        await page.getByRole('button', { name: 'Approve and commit' }).click();
        await page.getByRole('heading', { level: 1, name: 'Sent — waiting for the next step' }).waitFor();
        await page.close();
        return link;
      };
      const waiting = await answered();
      urls.waiting = waiting.pageUrl;
      const done = await answered();
      await completeLink(h, done.sessionId);
      urls.done = done.pageUrl;
      const withdrawn = await answered();
      await withdrawSession({ ctx: h.ctx, sessionId: withdrawn.sessionId });
      urls.withdrawn = withdrawn.pageUrl;
      await context.close();
    }, 240_000);

    afterAll(async () => {
      await browser?.close();
      await h?.close();
    });

    /** A page after a refused post: the budget not a number (what the browser itself lets through). */
    async function refusedPost(page: Page): Promise<void> {
      await page.goto(urls.open ?? '');
      await page.locator('#f-mood-2').check();
      await page.locator('#f-month').selectOption('feb');
      await page.locator('#f-budget').fill('lots');
      await page.locator('form button[type="submit"]').first().click();
      await page.locator('#error-summary').waitFor();
    }

    const SETTINGS = [
      { name: 'phone, light', options: { ...SCREEN_SIZES.phone, colorScheme: 'light' as const } },
      { name: 'desktop, dark', options: { ...SCREEN_SIZES.desktop, colorScheme: 'dark' as const } },
    ];

    describe.each([
      ['en', 'en-GB'],
      ['de', 'de-DE'],
    ])('axe finds no WCAG 2.2 AA violation (%s)', (tag, locale) => {
      for (const setting of SETTINGS) {
        it(`on every state, ${setting.name}`, SLOW, async () => {
          const { context } = await openWatchedContext(browser, { ...setting.options, locale });
          try {
            const page = await context.newPage();
            const found: string[] = [];
            for (const state of ['open', 'waiting', 'done', 'withdrawn', 'lapsed', 'expired', 'ask', 'notFound']) {
              await page.goto(urls[state] ?? '');
              expect(await page.getAttribute('html', 'lang'), state).toBe(tag);
              found.push(...(await axeViolations(page)).map((line) => `${state}: ${line}`));
            }
            await refusedPost(page);
            found.push(...(await axeViolations(page)).map((line) => `errors: ${line}`));
            expect(found).toEqual([]);
          } finally {
            await context.close();
          }
        });
      }
    });

    describe('the page’s language', () => {
      let context: BrowserContext;
      beforeAll(async () => {
        ({ context } = await openWatchedContext(browser, { ...SCREEN_SIZES.phone, locale: 'de-DE' }));
      });
      afterAll(async () => {
        await context?.close();
      });

      it('a German browser gets German chrome; a German "3,5" is sent as 3.5', SLOW, async () => {
        const link = await createLink(h, everyFieldInteraction());
        const page = await context.newPage();
        const response = await page.goto(link.pageUrl);
        expect(response?.headers()['content-language']).toBe('de');
        expect(await page.getAttribute('html', 'lang')).toBe('de');
        await page.getByLabel('Your name (Pflichtfeld)').waitFor();
        expect(await page.locator('#f-budget').inputValue()).toBe('250,5');
        expect(await page.locator('#f-nights-format').textContent()).toBe('Eine ganze Zahl von 1 bis 14.');
        await screenshot(page, 'answer-de');
        await page.locator('#f-budget').fill('3,5');
        await page.getByRole('radio', { name: '4' }).check();
        await page.getByRole('combobox', { name: /Month/ }).selectOption('feb');
        await page.getByRole('button', { name: 'Absenden' }).click();
        await page.getByRole('heading', { level: 1, name: 'Gesendet – warten auf den nächsten Schritt' }).waitFor();
        const answer = await readSession({ ctx: h.ctx, sessionId: link.sessionId });
        expect(answer.response?.values).toMatchObject({ budget: 3.5, nights: 2, mood: 4 });
      });

      it('after a refused post the error summary takes the focus and says it in German', SLOW, async () => {
        const page = await context.newPage();
        await refusedPost(page);
        await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('error-summary');
        expect(await page.locator('#error-summary h2').textContent()).toBe('Es gibt ein Problem');
        expect(await page.locator('#f-budget-error').textContent()).toBe('Fehler: Bitte geben Sie eine Zahl ein.');
        expect(await page.locator('#f-budget').getAttribute('aria-invalid')).toBe('true');
      });

      it('a form in Slovenian shows Slovenian chrome, whatever the browser asks for', SLOW, async () => {
        const link = await createLink(h, everyFieldInteraction('sl'));
        const { context: english } = await openWatchedContext(browser, { ...SCREEN_SIZES.phone, locale: 'en-US' });
        try {
          const page = await english.newPage();
          await page.goto(link.pageUrl);
          expect(await page.getAttribute('html', 'lang')).toBe('sl');
          await page.getByLabel('Your name (obvezno)').waitFor();
          expect(await page.getByRole('heading', { level: 1 }).getAttribute('lang')).toBe('sl');
          await screenshot(page, 'answer-sl');
        } finally {
          await english.close();
        }
      });

      it('?lang=fr switches to French, and the choice is remembered', SLOW, async () => {
        const link = await createLink(h, everyFieldInteraction());
        const page = await context.newPage();
        await page.goto(`${link.pageUrl}?lang=fr`);
        expect(await page.getAttribute('html', 'lang')).toBe('fr');
        await page.goto(link.pageUrl);
        expect(await page.getAttribute('html', 'lang')).toBe('fr');
        await page.getByRole('button', { name: 'Envoyer' }).waitFor();
      });
    });

    describe('README screenshots', () => {
      /** A form the agent wrote in the person's language, as the README shows it. */
      const written = {
        de: {
          mode: 'interactive',
          locale: 'de',
          title: 'Diesen Commit freigeben?',
          description: 'Die Tests laufen durch. Passen Sie die Nachricht an, wenn Sie möchten.',
          source: {
            kind: 'sess_surface',
            components: [
              {
                type: 'field',
                name: 'message',
                label: 'Commit-Nachricht',
                multiline: true,
                schema: { type: 'string' },
                value: 'Begrüßung mit Vornamen',
              },
              {
                type: 'field',
                name: 'nights',
                label: 'Wie sicher sind Sie?',
                schema: { type: 'integer', minimum: 1, maximum: 5 },
              },
            ],
          },
          actions: [
            { id: 'approve', label: 'Freigeben', intent: 'approve' },
            { id: 'reject', label: 'Ablehnen', intent: 'reject' },
          ],
        },
        sl: {
          mode: 'interactive',
          locale: 'sl',
          title: 'Kam gremo v soboto?',
          description: 'Preverim vremensko napoved in predlagam načrt.',
          source: {
            kind: 'sess_surface',
            components: [
              {
                type: 'field',
                name: 'place',
                label: 'Kam?',
                schema: { type: 'string', enum: ['morje', 'gore'], option_labels: ['Na morje', 'V gore'] },
              },
              { type: 'field', name: 'budget', label: 'Proračun (EUR)', schema: { type: 'number', minimum: 0 }, value: 120.5 },
            ],
          },
        },
      } as const;

      it.skipIf(process.env.SESS_UPDATE_DOCS_SCREENSHOTS !== '1')(
        'writes docs/screenshots/answer-de.png and answer-sl.png',
        SLOW,
        async () => {
          for (const [tag, interaction] of Object.entries(written)) {
            const link = await createLink(h, interaction);
            const { context } = await openWatchedContext(browser, { ...SCREEN_SIZES.phone, deviceScaleFactor: 1 });
            try {
              const page = await context.newPage();
              await page.goto(link.pageUrl);
              expect(await page.getAttribute('html', 'lang')).toBe(tag);
              await page.screenshot({ path: `docs/screenshots/answer-${tag}.png`, fullPage: true });
            } finally {
              await context.close();
            }
          }
        },
      );
    });

    describe('with the keyboard alone', () => {
      /** What has the focus: its name and type, or the button's text. */
      const focused = (page: Page) =>
        page.evaluate(() => {
          const element = document.activeElement as HTMLInputElement | null;
          if (!element || element === document.body) return 'body';
          return element.tagName === 'BUTTON' ? `button:${element.textContent?.trim()}` : `${element.name}:${element.type}`;
        });

      it('answers a form with every field type using Tab, the arrow keys, Space and Enter', SLOW, async () => {
        const { context, problems } = await openWatchedContext(browser, { ...SCREEN_SIZES.phone, locale: 'en-GB' });
        try {
          const link = await createLink(h, everyFieldInteraction());
          const page = await context.newPage();
          await page.goto(link.pageUrl);
          const tab = async (expected: string) => {
            await page.keyboard.press('Tab');
            expect(await focused(page)).toBe(expected);
          };
          // Each field in the order it is drawn; its visible focus is the page's :focus-visible ring.
          await tab('name:text');
          await page.keyboard.press('ControlOrMeta+A');
          await page.keyboard.type('Grace');
          await tab('email:email');
          await page.keyboard.type('grace@example.com');
          await tab('notes:textarea');
          await page.keyboard.type('Window seat.');
          await page.keyboard.press('Enter'); // a new line in the notes, not a post
          await page.keyboard.type('Thanks.');
          await tab('budget:text');
          await page.keyboard.press('ControlOrMeta+A');
          await page.keyboard.type('99.5');
          await tab('nights:text');
          await page.keyboard.press('ControlOrMeta+A');
          await page.keyboard.type('3');
          await tab('pets:checkbox');
          await page.keyboard.press('Space'); // was checked: now not
          // A radio group is one Tab stop on its checked option; the arrows move the choice.
          await tab('place:radio');
          await page.keyboard.press('ArrowDown');
          await tab('month:select-one');
          await page.keyboard.press('ArrowDown');
          await page.keyboard.press('ArrowDown');
          await tab('extras:checkbox');
          await page.keyboard.press('Space'); // bike on
          await tab('extras:checkbox'); // boat (on from the form)
          await tab('extras:checkbox');
          await page.keyboard.press('Space'); // car on
          // The rating is a radio group too: Tab lands on its first star, the arrows choose.
          await tab('mood:radio');
          await page.keyboard.press('ArrowRight');
          await page.keyboard.press('ArrowRight');
          await page.keyboard.press('ArrowRight');
          expect(await focused(page)).toBe('mood:radio');
          await tab('button:Submit');
          await page.keyboard.press('Enter');
          await page.getByRole('heading', { level: 1, name: 'Sent — waiting for the next step' }).waitFor();
          const { response } = await readSession({ ctx: h.ctx, sessionId: link.sessionId });
          expect(response).toMatchObject({
            actionId: 'submit',
            values: {
              name: 'Grace',
              email: 'grace@example.com',
              notes: 'Window seat.\nThanks.',
              budget: 99.5,
              nights: 3,
              pets: false,
              place: 'city',
              extras: ['bike', 'boat', 'car'],
              mood: 4,
            },
          });
          expect(response?.values.month).toBe('feb'); // from the empty first option, two down
          expect(problems).toEqual([]);
        } finally {
          await context.close();
        }
      });

      it('shows a visible focus ring on each kind of control', SLOW, async () => {
        const { context } = await openWatchedContext(browser, { ...SCREEN_SIZES.phone, locale: 'en-GB' });
        try {
          const page = await context.newPage();
          await page.goto(urls.open ?? '');
          const rings: string[] = [];
          for (let i = 0; i < 14; i += 1) {
            await page.keyboard.press('Tab');
            rings.push(
              await page.evaluate(() => {
                const element = document.activeElement as HTMLElement;
                // A rating's input is hidden: its label draws the ring (:has(:focus-visible)).
                const drawn = element.closest('.rating label') ?? element;
                const style = getComputedStyle(drawn);
                return `${(element as HTMLInputElement).name || element.tagName}:${style.outlineStyle}:${parseFloat(style.outlineWidth) >= 2}`;
              }),
            );
          }
          expect(rings.filter((ring) => !/:solid:true$/.test(ring))).toEqual([]);
        } finally {
          await context.close();
        }
      });
    });

    describe('at 320 px wide and at 200 % zoom', () => {
      it('nothing scrolls sideways on the open form, its errors, the Ask landing and a status page', SLOW, async () => {
        // 320 CSS px: a 640 px-wide phone at 200 % zoom is the same layout viewport.
        const { context } = await openWatchedContext(browser, { viewport: { width: 320, height: 640 }, locale: 'de-DE' });
        try {
          const page = await context.newPage();
          const wide: string[] = [];
          for (const state of ['open', 'ask', 'done', 'expired']) {
            await page.goto(urls[state] ?? '');
            if (!(await fitsWidth(page))) wide.push(state);
          }
          await refusedPost(page);
          if (!(await fitsWidth(page))) wide.push('errors');
          expect(wide).toEqual([]);
          // Targets: every button at least 44 px tall, every other control or link at least 24 px.
          await page.goto(urls.open ?? '');
          const small = await page.evaluate(() =>
            [...document.querySelectorAll<HTMLElement>('button, a, input:not([type="hidden"]), select, textarea, .rating label')]
              .filter((element) => element.offsetParent !== null && !element.closest('.rating label, p, li:not(.languages li)'))
              .map((element) => ({ element, box: element.getBoundingClientRect() }))
              .filter(({ element, box }) => {
                const min = element.tagName === 'BUTTON' ? 44 : 24;
                return box.height < min || (element.tagName !== 'A' && box.width < 24);
              })
              .map(({ element }) => element.outerHTML.slice(0, 80)),
          );
          expect(small, JSON.stringify(small)).toEqual([]);
        } finally {
          await context.close();
        }
      });
    });
  },
);
