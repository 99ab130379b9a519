/*
 * The account pages in the person's language, and accessible (WCAG 2.2 AA, axe-core in the
 * system Chromium): every page and state in English and German, at phone and desktop size, light
 * and dark. Also: German chrome from `Accept-Language: de`, and a signed-in person's pick in the
 * language picker saved to their account and used on their next account page, in another
 * browser whose `Accept-Language` asks for English.
 */
import { users } from '@sess/db';
import { createTestUser, onlyOn } from '@sess/testkit';
import { type AppServer, startAppServer } from '@sess/testkit/app-server';
import { axeViolations, fitsWidth, launchTestBrowser, openWatchedContext, SCREEN_SIZES } from '@sess/testkit/browser';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe.runIf(onlyOn('server: the account pages in two languages, to WCAG AA'))(
  'the account pages in two languages, to WCAG AA',
  () => {
    let server: AppServer;
    let browser: Browser;

    beforeAll(async () => {
      [server, browser] = await Promise.all([startAppServer(), launchTestBrowser()]);
    });
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    const ACCEPT = { en: 'en-US,en;q=0.9', de: 'de-DE,de;q=0.9' } as const;

    async function signIn(page: Page, email: string, password: string): Promise<void> {
      await page.goto(`${server.url}/signin`);
      await page.locator('#email').fill(email);
      await page.locator('#password').fill(password);
      await page.locator('form[action="/signin"] button[type=submit]').click();
      await page.waitForURL(`${server.url}/account`);
    }

    /** The page's violations, each named with the page it is on; and whether it fits the width. */
    async function check(page: Page, name: string): Promise<string[]> {
      const found = (await axeViolations(page)).map((line) => `${name}: ${line}`);
      if (!(await fitsWidth(page))) found.push(`${name}: scrolls sideways`);
      return found;
    }

    describe.each(['en', 'de'] as const)('in %s', (language) => {
      describe.each(['phone', 'desktop'] as const)('at %s size', (size) => {
        it.each(['light', 'dark'] as const)(
          '%s: every account page and state has no WCAG A/AA violation',
          { timeout: 240_000 },
          async (colorScheme) => {
            const { context, problems } = await openWatchedContext(browser, {
              ...SCREEN_SIZES[size],
              colorScheme,
              extraHTTPHeaders: { 'Accept-Language': ACCEPT[language] },
            });
            const found: string[] = [];
            try {
              const page = await context.newPage();
              await page.goto(`${server.url}/signin`);
              expect(await page.getAttribute('html', 'lang')).toBe(language);
              found.push(...(await check(page, 'sign-in')));

              const user = await createTestUser(server.database.db);
              await page.locator('#email').fill(user.email);
              await page.locator('#password').fill('not my password at all');
              await page.locator('form[action="/signin"] button[type=submit]').click();
              await page.locator('#signin-error').waitFor();
              // The error summary has focus after the failed post; the fields point at it.
              expect(await page.evaluate(() => document.activeElement?.id)).toBe('signin-error');
              expect(await page.locator('#password').getAttribute('aria-invalid')).toBe('true');
              found.push(...(await check(page, 'sign-in with error')));

              await page.goto(`${server.url}/signup`);
              found.push(...(await check(page, 'sign-up')));
              await page.locator('#email').fill('not an address');
              await page.locator('#password').fill('short');
              await page.locator('form[action="/signup"] button[type=submit]').click();
              await page.locator('#signup-error').waitFor();
              expect(await page.evaluate(() => document.activeElement?.id)).toBe('signup-error');
              expect(await page.locator('#email').getAttribute('aria-describedby')).toContain('email-error');
              found.push(...(await check(page, 'sign-up with errors')));

              await signIn(page, user.email, user.password);
              expect(await page.getAttribute('html', 'lang')).toBe(language);
              found.push(...(await check(page, 'account')));

              await page.goto(`${server.url}/account/keys`);
              await page.locator('#key-name').fill('laptop');
              await page.locator('form[action="/account/keys"] button[type=submit]').click();
              await page.locator('#new-key').waitFor();
              found.push(...(await check(page, 'API keys with a new key')));

              for (const [path, name] of [
                ['/account/passkeys', 'passkeys'],
                ['/account/assurance', 'assurance'],
                ['/account/webhooks', 'webhooks'],
                ['/account/interactions', 'review'],
              ] as const) {
                await page.goto(`${server.url}${path}`);
                expect(await page.getAttribute('html', 'lang')).toBe(language);
                found.push(...(await check(page, name)));
              }
              // A timeline no one may see: the message page.
              await page.goto(`${server.url}/account/interactions/nothing_here`);
              expect(await page.getAttribute('html', 'lang')).toBe(language);
              found.push(...(await check(page, 'message page')));
              expect(found).toEqual([]);
              expect(problems).toEqual([]);
            } finally {
              await context.close();
            }
          },
        );
      });
    });

    describe('the page language', () => {
      it('shows German chrome from Accept-Language: de', { timeout: 60_000 }, async () => {
        const { context } = await openWatchedContext(browser, {
          ...SCREEN_SIZES.desktop,
          extraHTTPHeaders: { 'Accept-Language': ACCEPT.de },
        });
        try {
          const page = await context.newPage();
          const response = await page.goto(`${server.url}/signin`);
          expect(response?.headers()['content-language']).toBe('de');
          expect(await page.getAttribute('html', 'lang')).toBe('de');
          expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Bei Sess anmelden');
          expect(await page.getByLabel('Passwort').count()).toBe(1);
        } finally {
          await context.close();
        }
      });

      it('saves a signed-in person’s pick and uses it on their next account page, whatever Accept-Language says', {
        timeout: 120_000,
      }, async () => {
        const user = await createTestUser(server.database.db);
        const other = await createTestUser(server.database.db);
        const english = { ...SCREEN_SIZES.desktop, extraHTTPHeaders: { 'Accept-Language': ACCEPT.en } };
        const first = await openWatchedContext(browser, english);
        try {
          const page = await first.context.newPage();
          await signIn(page, user.email, user.password);
          expect(await page.getAttribute('html', 'lang')).toBe('en');
          await page.locator('footer nav a[hreflang="sl"]').click();
          await page.waitForURL(/lang=sl/);
          expect(await page.getAttribute('html', 'lang')).toBe('sl');
        } finally {
          await first.context.close();
        }
        const saved = async (userId: string) =>
          (await server.database.db.select({ locale: users.locale }).from(users).where(eq(users.id, userId)))[0]?.locale;
        expect(await saved(user.userId)).toBe('sl');
        // Scoped to that person: nobody else's choice changed.
        expect(await saved(other.userId)).toBeNull();

        // Another browser: no remembered choice, English asked for; the account page is in Slovenian.
        const second = await openWatchedContext(browser, english);
        try {
          const page = await second.context.newPage();
          await signIn(page, user.email, user.password);
          expect(await page.getAttribute('html', 'lang')).toBe('sl');
          expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Vaš račun');
          // Every page a signed-in person sees follows it: keys, connected apps, the home page.
          for (const path of ['/account/keys', '/account/apps', '/']) {
            await page.goto(`${server.url}${path}`);
            expect(await page.getAttribute('html', 'lang'), path).toBe('sl');
          }
        } finally {
          await second.context.close();
        }
      });
    });
  },
);
