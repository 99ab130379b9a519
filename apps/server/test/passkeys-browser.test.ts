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
 *
 * A `passkey` form answered end to end: the form's post shows "Confirm with your passkey" (nothing
 * written), the ceremony is bound to the answer, and the answer goes in only with the verified
 * assertion; its receipt carries the credential and the assertion's hash and verifies with
 * @sess/client (minAssurance passkey) and `sess receipt verify --min-assurance passkey`. Refused
 * with nothing stored: a tampered assertion, values changed under it, a replayed one, a late one,
 * another person's credential and a device that does not verify its person.
 */
import { PassThrough, Readable } from 'node:stream';
import { createSessClient } from '@sess/client';
import { formAnswers } from '@sess/db';
import { type FormsRuntime, readSession } from '@sess/forms';
import { createTestFormsRuntime, createTestSession, createTestUser, setFormAssurance, type TestUser } from '@sess/testkit';
import { type AppServer, startAppServer } from '@sess/testkit/app-server';
import { fitsWidth, launchTestBrowser, openWatchedContext, SCREEN_SIZES, screenshot } from '@sess/testkit/browser';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReceiptVerify } from '../src/commands/receipt-verify.ts';

let server: AppServer;
let browser: Browser;
let origin: string;
/** The agent's side (another replica's forms runtime over the same database), for making forms. */
let agent: FormsRuntime;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startAppServer({ env: ({ port }) => ({ PUBLIC_URL: `http://localhost:${port}` }) }),
    launchTestBrowser(),
  ]);
  origin = server.url.replace('127.0.0.1', 'localhost');
  agent = createTestFormsRuntime(server.database, { publicUrl: origin, now: server.clock.now });
});
afterAll(async () => {
  await agent?.close();
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
      expect(await row.textContent()).toMatch(/Added \S.* · Last used Never/);
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

/** A `passkey` form for `user` (the seed's commit approval), made in their own workspace. */
async function passkeyForm(user: TestUser) {
  const created = await createTestSession(agent, user.workspaceId);
  await setFormAssurance(server.database.db, created.sessionId, 'passkey', [user.userId]);
  return { ...created, pageUrl: `${origin}/s/${created.token}` };
}

function storedAnswers(sessionId: string) {
  return server.database.db
    .select({
      assurance: formAnswers.assurance,
      answeredByUserId: formAnswers.answeredByUserId,
      passkeyCredentialId: formAnswers.passkeyCredentialId,
      assertionSha256: formAnswers.assertionSha256,
    })
    .from(formAnswers)
    .where(eq(formAnswers.sessionId, sessionId));
}

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });

/** Fills the form and sends it: the confirm step comes back (nothing is written yet). */
async function sendForm(page: Page, pageUrl: string, message: string) {
  await page.goto(pageUrl);
  await heading(page, 'Approve this commit?').waitFor();
  await page.getByLabel('Commit message').fill(message);
  await page.getByRole('button', { name: 'Approve and commit' }).click();
  await heading(page, 'Confirm with your passkey').waitFor();
}

/** The confirm step's post as the browser sends it (assertion and all), held back from Sess. */
async function captureConfirm(page: Page): Promise<string> {
  let body = '';
  await page.route('**/s/*', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    body = route.request().postData() ?? '';
    await route.abort();
  });
  await page.getByRole('button', { name: 'Confirm with your passkey' }).click();
  await expect.poll(() => body).not.toBe('');
  await page.unrouteAll();
  return body;
}

/** `body` with its `_passkey` assertion (JSON) changed by `change`. */
function withAssertion(body: string, change: (assertion: { response: Record<string, string> }) => void): string {
  const form = new URLSearchParams(body);
  const assertion = JSON.parse(form.get('_passkey')!);
  change(assertion);
  form.set('_passkey', JSON.stringify(assertion));
  return form.toString();
}

/** Posts a confirm step's body as the browser would (its cookies, a form post). */
async function postConfirm(device: Device, pageUrl: string, body: string) {
  const response = await device.context.request.post(pageUrl, {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    data: body,
    maxRedirects: 0,
  });
  return { status: response.status(), text: await response.text() };
}

async function cli(...args: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk) => {
    out += chunk;
  });
  stderr.on('data', (chunk) => {
    err += chunk;
  });
  const code = await runReceiptVerify(args, { stdin: Readable.from([]), stdout, stderr, env: {} });
  return { code, out, err };
}

describe.each(['phone', 'desktop'] as const)('a passkey form at %s size', (size) => {
  it('is confirmed with the passkey; the receipt names it and verifies at passkey (client and CLI)', async () => {
    const user = await createTestUser(server.database.db);
    const device = await openDevice(size);
    const { page } = device;
    try {
      await signInWithPassword(page, user);
      await addPasskey(page, `${size} passkey`);
      await expect.poll(() => page.getByRole('status').first().textContent()).toContain('Your passkey is added.');
      const form = await passkeyForm(user);

      await sendForm(page, form.pageUrl, 'Ship it, confirmed');
      expect(await page.getByText('Ship it, confirmed').isVisible()).toBe(true);
      expect(await page.getByText('Approve and commit').isVisible()).toBe(true);
      expect(await storedAnswers(form.sessionId)).toEqual([]);
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, `passkey-answer-confirm-${size}`);

      await page.getByRole('button', { name: 'Confirm with your passkey' }).click();
      await heading(page, 'Sent — waiting for the next step').waitFor();
      expect(await page.getByText('confirmed with your passkey').isVisible()).toBe(true);
      const { credentials } = await device.cdp.send('WebAuthn.getCredentials', { authenticatorId: device.authenticatorId });
      const credentialId = Buffer.from(credentials[0]!.credentialId, 'base64').toString('base64url');
      const [stored] = await storedAnswers(form.sessionId);
      expect(stored).toMatchObject({ assurance: 'passkey', answeredByUserId: user.userId, passkeyCredentialId: credentialId });
      expect(stored!.assertionSha256).toMatch(/^[0-9a-f]{64}$/);

      // The respondent's own download is the receipt, with the passkey's claims.
      const download = await device.context.request.get(`${form.pageUrl}/receipt`);
      expect(download.status()).toBe(200);
      const receipt = await download.text();
      const claims = JSON.parse(Buffer.from(receipt.split('.')[1]!, 'base64url').toString('utf8'));
      expect(claims).toMatchObject({
        assurance: 'passkey',
        passkey_credential_id: credentialId,
        assertion_sha256: stored!.assertionSha256,
      });

      const { response, surfaceSha256 } = await readSession({
        ctx: { runtime: agent, workspaceId: user.workspaceId },
        sessionId: form.sessionId,
      });
      expect(response!.receipt).toBe(receipt);
      const client = createSessClient({ origin, apiKey: 'sess_unused_for_verification', receiptIssuer: origin });
      const verified = await client.receipts.verifyResponse({
        response: response!,
        sessionId: form.sessionId,
        revision: 1,
        surfaceSha256,
        workspaceId: user.workspaceId,
        minAssurance: 'passkey',
      });
      expect(verified).toMatchObject({
        assurance: 'passkey',
        passkeyCredentialId: credentialId,
        assertionSha256: stored!.assertionSha256,
        values: { message: 'Ship it, confirmed' },
      });
      const checked = await cli(receipt, '--jwks', `${origin}/.well-known/jwks.json`, '--min-assurance', 'passkey');
      expect(checked.code).toBe(0);
      expect(checked.out).toContain('passkey (');
      expect(checked.out).toContain(credentialId);
      expect(checked.out).toContain(`sha256:${stored!.assertionSha256}`);
      expect(device.problems).toEqual([]);
    } finally {
      await device.context.close();
    }
  });
});

describe('a passkey form refuses, with nothing stored', () => {
  it('a tampered assertion, values changed under it, a replayed and a late one; then the honest one', async () => {
    const user = await createTestUser(server.database.db);
    const device = await openDevice('desktop');
    const { page } = device;
    try {
      await signInWithPassword(page, user);
      await addPasskey(page, 'laptop');
      await expect.poll(() => page.getByRole('status').first().textContent()).toContain('Your passkey is added.');
      const form = await passkeyForm(user);

      // Tampered: one bit of the signature flipped.
      await sendForm(page, form.pageUrl, 'Ship it');
      const tampered = withAssertion(await captureConfirm(page), (assertion) => {
        const signature = Buffer.from(assertion.response.signature!, 'base64url');
        signature[signature.length - 1]! ^= 0x01;
        assertion.response.signature = signature.toString('base64url');
      });
      const refusedTamper = await postConfirm(device, form.pageUrl, tampered);
      expect(refusedTamper.status).toBe(403);
      expect(refusedTamper.text).toContain('Confirm with your passkey');
      expect(refusedTamper.text).toContain('signature did not check out');

      // Values changed under a good assertion (its binding names the other answer), then that
      // very assertion replayed as it was: its challenge is spent.
      await sendForm(page, form.pageUrl, 'Ship it');
      const honest = await captureConfirm(page);
      const changed = new URLSearchParams(honest);
      changed.set('message', 'Ship something else');
      const refusedChange = await postConfirm(device, form.pageUrl, changed.toString());
      expect(refusedChange.status).toBe(403);
      expect(refusedChange.text).toContain('made for something else');
      const replayed = await postConfirm(device, form.pageUrl, honest);
      expect(replayed.status).toBe(403);
      expect(replayed.text).toContain('expired or was already used');

      // Late: the clock passes the challenge's 5 minutes before the assertion arrives.
      await sendForm(page, form.pageUrl, 'Ship it');
      const late = await captureConfirm(page);
      server.clock.advance(5 * 60 * 1000 + 1);
      const refusedLate = await postConfirm(device, form.pageUrl, late);
      expect(refusedLate.status).toBe(403);
      expect(refusedLate.text).toContain('expired or was already used');
      expect(await storedAnswers(form.sessionId)).toEqual([]);

      // The refused step is shown again with its message, and the honest confirmation still works.
      await sendForm(page, form.pageUrl, 'Ship it');
      await page.getByRole('button', { name: 'Confirm with your passkey' }).click();
      await heading(page, 'Sent — waiting for the next step').waitFor();
      expect(await storedAnswers(form.sessionId)).toMatchObject([{ assurance: 'passkey' }]);
      // Nothing of a ceremony is logged: no credential id, link or e-mail.
      const { credentials } = await device.cdp.send('WebAuthn.getCredentials', { authenticatorId: device.authenticatorId });
      const credentialId = Buffer.from(credentials[0]!.credentialId, 'base64').toString('base64url');
      for (const line of server.rawLogs) {
        expect(line).not.toContain(credentialId);
        expect(line).not.toContain(form.token);
        expect(line).not.toContain(user.email);
      }
    } finally {
      await device.context.close();
    }
  });

  it("another person's passkey is refused, and the confirm step says why", async () => {
    const person = await createTestUser(server.database.db);
    const other = await createTestUser(server.database.db);
    const mine = await openDevice('desktop');
    const theirs = await openDevice('desktop');
    try {
      await signInWithPassword(theirs.page, other);
      await addPasskey(theirs.page, 'their phone');
      await expect.poll(() => theirs.page.getByRole('status').first().textContent()).toContain('Your passkey is added.');
      await signInWithPassword(mine.page, person);
      await addPasskey(mine.page, 'my laptop');
      await expect.poll(() => mine.page.getByRole('status').first().textContent()).toContain('Your passkey is added.');
      const form = await passkeyForm(person);

      // The device holds only the other person's passkey, and the page is talked into offering any.
      const [their] = (await theirs.cdp.send('WebAuthn.getCredentials', { authenticatorId: theirs.authenticatorId })).credentials;
      await mine.cdp.send('WebAuthn.clearCredentials', { authenticatorId: mine.authenticatorId });
      await mine.cdp.send('WebAuthn.addCredential', { authenticatorId: mine.authenticatorId, credential: their! });
      await sendForm(mine.page, form.pageUrl, 'Ship it');
      await mine.page.evaluate(() => {
        const confirm = document.getElementById('passkey-confirm')!;
        confirm.dataset.options = JSON.stringify({ ...JSON.parse(confirm.dataset.options!), allowCredentials: [] });
      });
      await mine.page.getByRole('button', { name: 'Confirm with your passkey' }).click();
      await mine.page.getByText('This passkey belongs to another account.').waitFor();
      await heading(mine.page, 'Confirm with your passkey').waitFor();
      expect(await storedAnswers(form.sessionId)).toEqual([]);
      expect(await fitsWidth(mine.page)).toBe(true);
      await screenshot(mine.page, 'passkey-answer-refused-desktop');
    } finally {
      await mine.context.close();
      await theirs.context.close();
    }
  });

  it('a device that does not verify its person: refused by the browser, and by Sess when asked for less', async () => {
    const user = await createTestUser(server.database.db);
    const device = await openDevice('desktop');
    const { page, cdp } = device;
    try {
      await signInWithPassword(page, user);
      await addPasskey(page, 'laptop');
      await expect.poll(() => page.getByRole('status').first().textContent()).toContain('Your passkey is added.');
      const form = await passkeyForm(user);

      await cdp.send('WebAuthn.setUserVerified', { authenticatorId: device.authenticatorId, isUserVerified: false });
      await sendForm(page, form.pageUrl, 'Ship it');
      await page.getByRole('button', { name: 'Confirm with your passkey' }).click();
      await expect.poll(() => page.locator('#passkey-confirm [role=status]').textContent()).toContain('cancelled or timed out');

      // The same passkey on a device without verification, the options rewritten to ask for less.
      const [credential] = (await cdp.send('WebAuthn.getCredentials', { authenticatorId: device.authenticatorId })).credentials;
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
      await cdp.send('WebAuthn.addCredential', { authenticatorId: noUv, credential: credential! });
      await page.evaluate(() => {
        const confirm = document.getElementById('passkey-confirm')!;
        confirm.dataset.options = JSON.stringify({ ...JSON.parse(confirm.dataset.options!), userVerification: 'discouraged' });
      });
      await page.getByRole('button', { name: 'Confirm with your passkey' }).click();
      await page.getByText('Your device did not verify you').waitFor();
      expect(await storedAnswers(form.sessionId)).toEqual([]);
    } finally {
      await device.context.close();
    }
  });

  it('an account without a passkey is sent to add one; nothing is stored', async () => {
    const user = await createTestUser(server.database.db);
    const device = await openDevice('phone');
    const { page } = device;
    try {
      await signInWithPassword(page, user);
      const form = await passkeyForm(user);
      await page.goto(form.pageUrl);
      await page.getByRole('button', { name: 'Approve and commit' }).click();
      await heading(page, 'Add a passkey to answer').waitFor();
      await page.getByRole('link', { name: 'Add a passkey' }).click();
      await page.waitForURL(`${origin}/account/passkeys`);
      expect(await storedAnswers(form.sessionId)).toEqual([]);
    } finally {
      await device.context.close();
    }
  });
});
