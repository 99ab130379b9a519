/*
 * The consent, connected-apps and OAuth error pages and the home page in the person's language,
 * in a real browser (the system Chromium through playwright-core): English and German (chosen by
 * the browser's Accept-Language), at a phone size (390×844) and a desktop size (1280×800), light
 * and dark, each with no WCAG 2.2 AA violation axe-core can find and nothing scrolling sideways.
 * Then: the consent page's language links keep the authorization request; `?lang=es` on the
 * consent page still completes the flow with Allow ("Permitir"); the consent page holds at
 * 320 px; the Copy button's status is spoken in the page's language from a live region.
 */

import { SESSION_COOKIE } from '@sess/accounts';
import { createPkcePair, createTestUser, onlyOn, signInTestUser } from '@sess/testkit';
import { axeViolations, fitsWidth, launchTestBrowser, openWatchedContext, SCREEN_SIZES, screenshot } from '@sess/testkit/browser';
import {
  authorizeUrl,
  type DocumentServer,
  type OAuthTestServer,
  registerPublicClient,
  startDocumentServer,
  startOAuthTestServer,
  tokenRequest,
} from '@sess/testkit/oauth';
import { messagesFor } from '@sess/web';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe.runIf(onlyOn('server: the OAuth and home pages in two languages, to WCAG AA'))(
  'the OAuth and home pages in two languages, to WCAG AA',
  () => {
    let server: OAuthTestServer;
    let callbacks: DocumentServer;
    let browser: Browser;
    const received: URL[] = [];

    beforeAll(async () => {
      [server, callbacks, browser] = await Promise.all([startOAuthTestServer(), startDocumentServer(), launchTestBrowser()]);
      callbacks.route('/callback', (request, response) => {
        received.push(new URL(request.url!, callbacks.url));
        response.writeHead(200, { 'content-type': 'text/html' }).end('<title>Callback</title><h1>Back in the app</h1>');
      });
    });
    afterAll(async () => {
      await browser?.close();
      await callbacks?.close();
      await server?.close();
    });

    /** A browser context signed in as a new user (no sign-in page: that page is another area's). */
    async function signedInContext(options: BrowserContextOptions) {
      const user = await createTestUser(server.database.db);
      const { cookie } = await signInTestUser(server.database.db, user.userId, server.clock.now());
      const { context, problems } = await openWatchedContext(browser, options);
      await context.addCookies([{ name: SESSION_COOKIE, value: cookie.slice(SESSION_COOKIE.length + 1), url: server.url }]);
      return { context, problems, page: await context.newPage() };
    }

    /** The page checked as a person meets it: its language, no axe violation, nothing scrolling sideways. */
    async function checkPage(page: Page, language: string, name: string) {
      expect(await page.locator('html').getAttribute('lang')).toBe(language);
      expect(await axeViolations(page)).toEqual([]);
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, `oauth-language-${name}`);
    }

    describe.each(['en', 'de'] as const)('in %s', (language) => {
      const m = messagesFor(language);
      describe.each(['phone', 'desktop'] as const)('at %s size', (size) => {
        it.each(['light', 'dark'] as const)(
          '%s: consent, Allow, connected apps (one app), the error page and the home page pass axe',
          { timeout: 120_000 },
          async (scheme) => {
            const { context, problems, page } = await signedInContext({
              ...SCREEN_SIZES[size],
              colorScheme: scheme,
              extraHTTPHeaders: { 'Accept-Language': `${language},en;q=0.5` },
            });
            const name = `${language}-${size}-${scheme}`;
            try {
              const redirectUri = `${callbacks.url}/callback`;
              const client = await registerPublicClient(server, [redirectUri], 'Claude');
              const pkce = createPkcePair();
              await page.goto(authorizeUrl(server, { clientId: client.clientId, redirectUri, challenge: pkce.challenge }));
              const title = m.t('oauth.consent.title', { app: `Claude ${m.t('oauth.client.unverified')}` });
              expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(title);
              await checkPage(page, language, `consent-${name}`);
              const allow = page.getByRole('button', { name: m.t('oauth.consent.allow'), exact: true });
              const box = (await allow.boundingBox())!;
              expect(box.height).toBeGreaterThanOrEqual(44);
              await allow.click();
              await expect.poll(() => page.url()).toMatch(new RegExp(`^${redirectUri}\\?`));
              // The connected-apps page lists the apps that used their grant: the app takes its tokens.
              const tokens = await tokenRequest(server, {
                grant_type: 'authorization_code',
                code: received.at(-1)!.searchParams.get('code')!,
                code_verifier: pkce.verifier,
                redirect_uri: redirectUri,
                client_id: client.clientId,
              });
              expect(tokens.status).toBe(200);

              await page.goto(`${server.url}/account/apps`);
              expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(m.t('oauth.apps.title'));
              expect(await page.getByText(m.t('oauth.apps.some', { count: 1 })).isVisible()).toBe(true);
              await checkPage(page, language, `connected-apps-${name}`);

              await page.goto(authorizeUrl(server, { clientId: client.clientId, redirectUri: 'https://evil.example/cb' }));
              expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(m.t('oauth.error.requestTitle'));
              await checkPage(page, language, `error-${name}`);

              await page.goto(`${server.url}/`);
              expect(await page.getByRole('heading', { level: 2, name: m.t('home.connect.title') }).isVisible()).toBe(true);
              await checkPage(page, language, `home-${name}`);
              expect(problems).toEqual([]);
            } finally {
              await context.close();
            }
          },
        );
      });
    });

    it('the consent page’s German link keeps the authorization request; ?lang=es shows Spanish and Allow still completes the flow', {
      timeout: 120_000,
    }, async () => {
      const { context, problems, page } = await signedInContext(SCREEN_SIZES.phone);
      try {
        const redirectUri = `${callbacks.url}/callback`;
        const client = await registerPublicClient(server, [redirectUri], 'Cursor');
        const pkce = createPkcePair();
        const url = authorizeUrl(server, { clientId: client.clientId, redirectUri, challenge: pkce.challenge });
        await page.goto(url);
        const german = new URL((await page.getByRole('link', { name: 'Deutsch' }).getAttribute('href'))!, server.url);
        for (const name of ['client_id', 'redirect_uri', 'state', 'code_challenge', 'code_challenge_method', 'resource']) {
          expect(german.searchParams.get(name), name).toBe(new URL(url).searchParams.get(name));
        }
        expect(german.searchParams.get('lang')).toBe('de');

        await page.goto(`${url}&lang=es`);
        const es = messagesFor('es');
        expect(await page.locator('html').getAttribute('lang')).toBe('es');
        expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
          es.t('oauth.consent.title', { app: `Cursor ${es.t('oauth.client.unverified')}` }),
        );
        await page.getByRole('button', { name: es.t('oauth.consent.allow'), exact: true }).click();
        await expect.poll(() => page.url()).toMatch(new RegExp(`^${redirectUri}\\?`));
        const callback = received.at(-1)!;
        expect(callback.searchParams.get('state')).toBe('state-123');
        const tokens = await tokenRequest(server, {
          grant_type: 'authorization_code',
          code: callback.searchParams.get('code')!,
          code_verifier: pkce.verifier,
          redirect_uri: redirectUri,
          client_id: client.clientId,
        });
        expect(tokens.status).toBe(200);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('at 320 px the German consent page and home page scroll only downwards', { timeout: 120_000 }, async () => {
      const { context, problems, page } = await signedInContext({
        viewport: { width: 320, height: 640 },
        extraHTTPHeaders: { 'Accept-Language': 'de' },
      });
      try {
        const redirectUri = `${callbacks.url}/callback`;
        const client = await registerPublicClient(server, [redirectUri], 'Ein Werkzeug mit einem recht langen Namen');
        await page.goto(authorizeUrl(server, { clientId: client.clientId, redirectUri }));
        expect(await page.locator('html').getAttribute('lang')).toBe('de');
        expect(await fitsWidth(page)).toBe(true);
        await page.goto(`${server.url}/`);
        for (const summary of await page.locator('details.client > summary').all()) await summary.click();
        expect(await fitsWidth(page)).toBe(true);
        await screenshot(page, 'oauth-language-home-de-320');
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('the Copy button’s status is said in the page’s language, from a live region', { timeout: 120_000 }, async () => {
      const { context, problems } = await openWatchedContext(browser, {
        ...SCREEN_SIZES.desktop,
        extraHTTPHeaders: { 'Accept-Language': 'de' },
      });
      try {
        await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
        const page = await context.newPage();
        await page.goto(`${server.url}/`);
        const de = messagesFor('de');
        const status = page.locator('#mcp-url-status');
        expect(await status.getAttribute('role')).toBe('status');
        expect(await status.getAttribute('aria-live')).toBe('polite');
        await page.getByRole('button', { name: de.t('home.connect.copy'), exact: true }).click();
        await expect.poll(() => status.textContent()).toBe(de.t('home.connect.copied'));
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${server.url}/mcp`);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });
  },
);
