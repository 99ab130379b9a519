/*
 * Passkeys in a real browser (the system Chromium through playwright-core) with a virtual
 * authenticator from the DevTools protocol (WebAuthn.addVirtualAuthenticator: CTAP2, internal,
 * resident keys, user verification), over the whole app. PUBLIC_URL is http://localhost:<port>:
 * WebAuthn takes no IP address as its relying party, and localhost is a secure context.
 * Add a passkey on /account/passkeys, sign out, sign in with it (back to return_to), remove it;
 * the refusals a browser can produce: a device that does not verify its person (refused by the
 * browser, and by Sess when the options are rewritten to ask for less), a replayed
 * assertion, a tampered one, an expired challenge (the app's clock is moved). Another person's
 * credential and the counter are refused below the pages (packages/service/accounts/test/passkeys.test.ts).
 */
import { createTestUser, type TestUser } from '@sess/testkit';
import { type AppServer, startAppServer } from '@sess/testkit/app-server';
import { fitsWidth, launchTestBrowser, openWatchedContext, SCREEN_SIZES, screenshot } from '@sess/testkit/browser';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: AppServer;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startAppServer({ env: ({ port }) => ({ PUBLIC_URL: `http://localhost:${port}` }) }),
    launchTestBrowser(),
  ]);
  origin = server.url.replace('127.0.0.1', 'localhost');
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

interface Device {
  context: BrowserContext;
  page: Page;
  cdp: CDPSession;
  authenticatorId: string;
  problems: string[];
}

/** A browser context with a virtual platform authenticator (user verification as given). */
async function openDevice(size: keyof typeof SCREEN_SIZES, isUserVerified = true): Promise<Device> {
  const { context, problems } = await openWatchedContext(browser, SCREEN_SIZES[size]);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified,
      automaticPresenceSimulation: true,
    },
  });
  return { context, page, cdp, authenticatorId, problems };
}

async function signInWithPassword(page: Page, user: TestUser) {
  await page.goto(`${origin}/signin`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Your account' }).waitFor();
}

async function addPasskey(page: Page, name: string) {
  await page.goto(`${origin}/account/passkeys`);
  await page.getByLabel('Passkey name').fill(name);
  await page.getByRole('button', { name: 'Add a passkey' }).click();
}

function statusOf(page: Page, sectionId: string) {
  return page.locator(`#${sectionId} [role=status]`).textContent();
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByText('You are signed out.').waitFor();
}

describe.each(['phone', 'desktop'] as const)('at %s size', (size) => {
  it('adds a passkey, signs out, signs in with it (back to return_to), then removes it', async () => {
    const user = await createTestUser(server.database.db);
    const device = await openDevice(size);
    const { page } = device;
    try {
      await signInWithPassword(page, user);
      await page.getByRole('link', { name: 'Passkeys' }).click();
      await page.getByRole('heading', { name: 'Passkeys', level: 1 }).waitFor();
      expect(await page.getByText('No passkeys yet.').isVisible()).toBe(true);
      await addPasskey(page, `${size} passkey`);
      await expect.poll(() => page.getByRole('status').first().textContent()).toContain('Your passkey is added.');
      const row = page.getByRole('listitem').filter({ hasText: `${size} passkey` });
      expect(await row.textContent()).toMatch(/Added .* UTC · Last used Never/);
      const { credentials } = await device.cdp.send('WebAuthn.getCredentials', { authenticatorId: device.authenticatorId });
      expect(credentials).toHaveLength(1);
      expect(credentials[0]!.isResidentCredential).toBe(true);
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, `passkeys-${size}-added`);

      await signOut(page);
      const before = (await device.context.cookies()).find((c) => c.name === 'sess_session');
      expect(before).toBeUndefined();
      await page.goto(`${origin}/signin?return_to=${encodeURIComponent('/account/passkeys')}`);
      await screenshot(page, `passkeys-${size}-signin`);
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await page.waitForURL(`${origin}/account/passkeys`);
      const cookie = (await device.context.cookies()).find((c) => c.name === 'sess_session');
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
      expect(await row.textContent()).not.toContain('Last used Never');

      await page.getByRole('button', { name: `Remove ${size} passkey` }).click();
      await expect.poll(() => page.getByRole('status').first().textContent()).toContain('The passkey is removed.');
      expect(await page.getByText('No passkeys yet.').isVisible()).toBe(true);
      // Removed from Sess, it no longer signs in (the device still holds it).
      await signOut(page);
      await page.goto(`${origin}/signin`);
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await expect.poll(() => statusOf(page, 'passkey-signin')).toContain('Sess does not know this passkey.');
      expect(new URL(page.url()).pathname).toBe('/signin');
      expect(device.problems).toEqual([]);
    } finally {
      await device.context.close();
    }
  });
});

describe('refusals', () => {
  it('a device that does not verify its person neither adds a passkey nor signs in', async () => {
    const user = await createTestUser(server.database.db);
    const device = await openDevice('desktop', false);
    const { page, cdp } = device;
    try {
      await signInWithPassword(page, user);
      // The browser itself refuses: the options require user verification.
      await addPasskey(page, 'no verification');
      await expect.poll(() => statusOf(page, 'passkey-register')).toContain('cancelled or timed out');

      // A device that cannot verify at all, and a page talked into asking for less (the options
      // rewritten on their way): the attestation reaches Sess without the UV flag, and Sess refuses.
      await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: device.authenticatorId });
      const { authenticatorId: noUv } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport: 'internal',
          hasResidentKey: true,
          hasUserVerification: false,
          automaticPresenceSimulation: true,
        },
      });
      await page.route('**/account/passkeys/options', async (route) => {
        const options = await (await route.fetch()).json();
        options.authenticatorSelection.userVerification = 'discouraged';
        await route.fulfill({ json: options });
      });
      await addPasskey(page, 'no verification');
      await expect.poll(() => statusOf(page, 'passkey-register')).toContain('Your device did not verify you');
      await page.unrouteAll();
      await page.goto(`${origin}/account/passkeys`);
      expect(await page.getByText('No passkeys yet.').isVisible()).toBe(true);

      // A passkey added from a device that verifies; then that device stops verifying: no sign-in.
      await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: noUv });
      const { authenticatorId: verifying } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport: 'internal',
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          automaticPresenceSimulation: true,
        },
      });
      await addPasskey(page, 'laptop');
      await expect.poll(() => page.getByRole('status').first().textContent()).toContain('Your passkey is added.');
      await signOut(page);
      await cdp.send('WebAuthn.setUserVerified', { authenticatorId: verifying, isUserVerified: false });
      await page.goto(`${origin}/signin`);
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await expect.poll(() => statusOf(page, 'passkey-signin')).toContain('cancelled or timed out');

      // The same passkey on a device without verification, options rewritten: Sess refuses.
      const [credential] = (await cdp.send('WebAuthn.getCredentials', { authenticatorId: verifying })).credentials;
      await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: verifying });
      const { authenticatorId: copy } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport: 'internal',
          hasResidentKey: true,
          hasUserVerification: false,
          automaticPresenceSimulation: true,
        },
      });
      await cdp.send('WebAuthn.addCredential', { authenticatorId: copy, credential: credential! });
      await page.route('**/signin/passkey/options', async (route) => {
        const options = await (await route.fetch()).json();
        options.userVerification = 'discouraged';
        // (Named, as a device without verification will not list its passkeys unasked.)
        options.allowCredentials = [
          { type: 'public-key', id: Buffer.from(credential!.credentialId, 'base64').toString('base64url') },
        ];
        await route.fulfill({ json: options });
      });
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await expect.poll(() => statusOf(page, 'passkey-signin')).toContain('Your device did not verify you');
      await page.unrouteAll();
      expect(new URL(page.url()).pathname).toBe('/signin');
      expect((await device.context.cookies()).some((c) => c.name === 'sess_session')).toBe(false);
      expect(device.problems).toEqual([]);
    } finally {
      await device.context.close();
    }
  });

  it('a replayed, a tampered and a late assertion are refused', async () => {
    const user = await createTestUser(server.database.db);
    const device = await openDevice('desktop');
    const { page } = device;
    try {
      await signInWithPassword(page, user);
      await addPasskey(page, 'laptop');
      await expect.poll(() => page.getByRole('status').first().textContent()).toContain('Your passkey is added.');
      await signOut(page);

      // Tampered: one bit of the signature flipped on its way to Sess.
      await page.goto(`${origin}/signin`);
      await page.route('**/signin/passkey', async (route) => {
        const body = route.request().postDataJSON() as { response: { response: { signature: string } } };
        const signature = Buffer.from(body.response.response.signature, 'base64url');
        signature[signature.length - 1]! ^= 0x01;
        body.response.response.signature = signature.toString('base64url');
        await route.continue({ postData: JSON.stringify(body) });
      });
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await expect.poll(() => statusOf(page, 'passkey-signin')).toContain('signature did not check out');
      await page.unrouteAll();

      // Late: the app's clock moves past the challenge's 5 minutes before the assertion arrives.
      await page.route('**/signin/passkey', async (route) => {
        server.clock.advance(5 * 60 * 1000);
        await route.continue();
      });
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await expect.poll(() => statusOf(page, 'passkey-signin')).toContain('expired or was already used');
      await page.unrouteAll();
      expect((await device.context.cookies()).some((c) => c.name === 'sess_session')).toBe(false);

      // Replayed: the same assertion posted again after it signed in.
      const posted = page.waitForRequest((request) => request.url().endsWith('/signin/passkey'));
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      const request = await posted;
      await page.getByRole('heading', { name: 'Your account' }).waitFor();
      const replay = await device.context.request.post(`${origin}/signin/passkey`, {
        headers: { 'content-type': 'application/json', 'x-csrf-token': (await request.allHeaders())['x-csrf-token']! },
        data: request.postData()!,
      });
      expect(replay.status()).toBe(403);
      expect(await replay.json()).toMatchObject({ error: { code: 'PASSKEY_REFUSED', reason: 'challenge_expired_or_used' } });
      expect(device.problems).toEqual([]);
      // Nothing of a ceremony is logged: no credential id, challenge or e-mail.
      const { credentials } = await device.cdp.send('WebAuthn.getCredentials', { authenticatorId: device.authenticatorId });
      for (const line of server.rawLogs) {
        expect(line).not.toContain(credentials[0]!.credentialId.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''));
        expect(line).not.toContain(user.email);
      }
    } finally {
      await device.context.close();
    }
  });
});
