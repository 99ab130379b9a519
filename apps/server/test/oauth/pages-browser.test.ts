/*
 * The consent and connected-apps pages in a real browser (the system Chromium through
 * playwright-core) at a phone size (390×844) and a desktop size: sign in, consent, Allow (the
 * redirect lands on a loopback callback the test serves, which also proves the consent page's
 * CSP form-action lets Chrome follow the post's redirect), Deny, and Disconnect. Any CSP
 * violation or page error fails the test. Screenshots go to test-results/screenshots/.
 */

import { createAccessTokenVerifier } from '@sess/oauth';
import { createPkcePair, createTestUser, createTestWorkspace, testDriver } from '@sess/testkit';
import {
  fitsWidth,
  launchTestBrowser,
  openWatchedContext,
  SCREEN_SIZES,
  SCREENSHOTS_DIR,
  screenshot,
} from '@sess/testkit/browser';
import {
  authorizeUrl,
  type DocumentServer,
  type OAuthTestServer,
  registerPublicClient,
  startDocumentServer,
  startOAuthTestServer,
  tokenRequest,
} from '@sess/testkit/oauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

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

async function openPage(size: keyof typeof SCREEN_SIZES) {
  const { context, problems } = await openWatchedContext(browser, SCREEN_SIZES[size]);
  return { context, page: await context.newPage(), problems };
}

function shot(page: Page, name: string) {
  return screenshot(page, `oauth-${name}`);
}

async function signIn(page: Page, user: { email: string; password: string }) {
  await expect.poll(() => page.getByLabel('Email').isVisible()).toBe(true);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

describe.each(['phone', 'desktop'] as const)('at %s size', (size) => {
  it('sign in, the consent page with a workspace picker, Allow → back to the app with a code; then Disconnect', async () => {
    const user = await createTestUser(server.database.db);
    const team = await createTestWorkspace(server.database.db, { userId: user.userId, name: 'Design team' });
    const redirectUri = `${callbacks.url}/callback`;
    const client = await registerPublicClient(server, [redirectUri], 'Claude');
    const pkce = createPkcePair();
    const { context, page, problems } = await openPage(size);
    try {
      await page.goto(authorizeUrl(server, { clientId: client.clientId, redirectUri, challenge: pkce.challenge }));
      await signIn(page, user);
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).textContent())
        .toMatch(/Allow Claude \(unverified name\) to use Sess\?/);
      const picker = page.getByRole('group', { name: 'Workspace' });
      expect(await picker.getByRole('radio').count()).toBe(2);
      expect(await page.getByText('sends you back to this computer').isVisible()).toBe(true);
      expect(await fitsWidth(page)).toBe(true);
      await shot(page, `consent-${size}`);

      await page.getByRole('radio', { name: 'Design team' }).check();
      await page.getByRole('button', { name: 'Allow' }).click();
      await expect.poll(() => page.url()).toMatch(new RegExp(`^${redirectUri}\\?`));
      expect(await page.getByRole('heading', { name: 'Back in the app' }).isVisible()).toBe(true);
      const callback = received.at(-1)!;
      expect(callback.searchParams.get('state')).toBe('state-123');
      expect(callback.searchParams.get('iss')).toBe(server.url);
      const tokens = await tokenRequest(server, {
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
        code_verifier: pkce.verifier,
        redirect_uri: redirectUri,
        client_id: client.clientId,
      });
      expect(tokens.status).toBe(200);
      const verifier = createAccessTokenVerifier({ database: server.database, publicUrl: server.url, now: server.clock.now });
      try {
        expect(await verifier.verify(tokens.body['access_token'] as string)).toMatchObject({
          ok: true,
          principal: { workspaceId: team.workspaceId },
        });

        await page.goto(`${server.url}/account/apps`);
        expect(await page.getByRole('heading', { level: 1, name: 'Connected apps' }).isVisible()).toBe(true);
        expect(await page.getByText('Design team').isVisible()).toBe(true);
        expect(await fitsWidth(page)).toBe(true);
        await shot(page, `connected-apps-${size}`);
        await page.getByRole('button', { name: 'Disconnect Claude' }).click();
        await expect.poll(() => page.getByRole('status').textContent()).toContain('Disconnected');
        await shot(page, `connected-apps-disconnected-${size}`);
        await expect
          .poll(async () => (await verifier.verify(tokens.body['access_token'] as string)).ok, { timeout: 1000, interval: 20 })
          .toBe(false);
      } finally {
        await verifier.close();
      }
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('Deny sends the person back with access_denied; an unregistered redirect shows an error page', async () => {
    const user = await createTestUser(server.database.db);
    const redirectUri = `${callbacks.url}/callback`;
    const client = await registerPublicClient(server, [redirectUri], 'Some tool');
    const { context, page, problems } = await openPage(size);
    try {
      await page.goto(authorizeUrl(server, { clientId: client.clientId, redirectUri }));
      await signIn(page, user);
      await expect.poll(() => page.getByRole('button', { name: 'Deny' }).isVisible()).toBe(true);
      await page.getByRole('button', { name: 'Deny' }).click();
      await expect.poll(() => page.url()).toContain('error=access_denied');

      await page.goto(authorizeUrl(server, { clientId: client.clientId, redirectUri: 'https://evil.example/cb' }));
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('This connection request cannot be used');
      expect(page.url().startsWith(server.url)).toBe(true);
      expect(await fitsWidth(page)).toBe(true);
      await shot(page, `error-${size}`);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

it('at 390×844 the consent page of a self-registered app shows Allow without scrolling, and "(unverified name)" once', async () => {
  const user = await createTestUser(server.database.db);
  // The longest usual case: two workspaces to choose from and a this-computer warning.
  await createTestWorkspace(server.database.db, { userId: user.userId, name: 'Design team' });
  const redirectUri = `${callbacks.url}/callback`;
  const client = await registerPublicClient(server, [redirectUri], 'Claude Code');
  const { context, page, problems } = await openPage('phone');
  try {
    await page.goto(authorizeUrl(server, { clientId: client.clientId, redirectUri }));
    await signIn(page, user);
    const allow = page.getByRole('button', { name: 'Allow' });
    await expect.poll(() => allow.isVisible()).toBe(true);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const box = (await allow.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(844);
    expect(await page.getByText('sends you back to this computer').isVisible()).toBe(true);
    const text = (await page.locator('body').textContent()) ?? '';
    expect(text.match(/\(unverified name\)/g)).toHaveLength(1);
    expect(await fitsWidth(page)).toBe(true);
    await page.screenshot({ path: `${SCREENSHOTS_DIR}/${testDriver()}-oauth-consent-fold-phone.png` });
    expect(problems).toEqual([]);
  } finally {
    await context.close();
  }
});

it('the consent page refuses to be framed', async () => {
  const user = await createTestUser(server.database.db);
  const redirectUri = `${callbacks.url}/callback`;
  const client = await registerPublicClient(server, [redirectUri]);
  const { context, page } = await openPage('desktop');
  try {
    await page.goto(authorizeUrl(server, { clientId: client.clientId, redirectUri }));
    await signIn(page, user);
    await expect.poll(() => page.getByRole('button', { name: 'Allow' }).isVisible()).toBe(true);
    const consentUrl = page.url();
    // An attacker page (another origin: the callback server) framing the consent page.
    callbacks.route('/frame', (_request, response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end(`<iframe id="f" src="${consentUrl}"></iframe>`),
    );
    await page.goto(`${callbacks.url}/frame`);
    await page.waitForTimeout(300);
    const frame = page.frames().find((f) => f !== page.mainFrame());
    const framedAllow = frame ? await frame.getByRole('button', { name: 'Allow' }).count() : 0;
    expect(framedAllow).toBe(0);
  } finally {
    await context.close();
  }
});
