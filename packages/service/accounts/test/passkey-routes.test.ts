/*
 * The passkey routes over real HTTP on both drivers, driven by a software authenticator: CSRF on
 * every post, JSON only, signed-in only where it should be, per-IP limits, rename and remove of
 * one's own passkeys only, and a passkey sign-in that rotates the session like a password one.
 */
import { createTestUser, decodeEntities, TestBrowser, type TestUser } from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountsServer, createClock, startAccounts } from './helpers.ts';
import { SoftAuthenticator } from './soft-authenticator.ts';

const clock = createClock();
let server: AccountsServer;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  server = await startAccounts({ now: clock.now, limits: { passkeyPerIp: 1000 } });
  alice = await createTestUser(server.database.db, { now: clock.now() });
  bob = await createTestUser(server.database.db, { now: clock.now() });
});
afterAll(async () => {
  await server?.close();
});

function attribute(html: string, name: string): string {
  const match = new RegExp(`${name}="([^"]*)"`).exec(html);
  if (!match) throw new Error(`no ${name} in ${html.slice(0, 300)}`);
  return decodeEntities(match[1]!);
}

/** What the JSON routes answer: options, `{ redirect }`, `{ passkey }` or `{ error }`. */
interface JsonAnswer {
  error?: { code: string; reason?: string; field?: string };
  [key: string]: unknown;
}

async function postJson(browser: TestBrowser, path: string, body: unknown, csrf?: string) {
  const response = await fetch(new URL(path, server.url), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: browser.cookieHeader(path),
      ...(csrf ? { 'x-csrf-token': csrf } : {}),
    },
    body: JSON.stringify(body),
    redirect: 'manual',
  });
  return {
    status: response.status,
    json: (await response.json()) as JsonAnswer,
    setCookie: response.headers.getSetCookie(),
  };
}

async function signedIn(user: TestUser): Promise<TestBrowser> {
  const browser = new TestBrowser(server.url);
  const result = await browser.submit('/signin', '/signin', { email: user.email, password: user.password });
  expect(result.status).toBe(303);
  return browser;
}

async function addPasskey(browser: TestBrowser, device: SoftAuthenticator, name: string) {
  const page = await browser.get('/account/passkeys');
  const csrf = attribute(page.html, 'data-csrf');
  const options = await postJson(browser, '/account/passkeys/options', {}, csrf);
  expect(options.status).toBe(200);
  return postJson(browser, '/account/passkeys', { name, response: device.create(options.json as never) }, csrf);
}

describe('adding a passkey', () => {
  it('needs the page’s CSRF token, a session and JSON; a bad name changes nothing', async () => {
    const browser = await signedIn(alice);
    expect((await postJson(browser, '/account/passkeys/options', {})).status).toBe(403);
    expect((await postJson(browser, '/account/passkeys/options', {}, 'forged')).json.error?.code).toBe('FORBIDDEN');
    expect((await postJson(new TestBrowser(server.url), '/account/passkeys/options', {}, 'x')).status).toBe(401);
    const csrf = attribute((await browser.get('/account/passkeys')).html, 'data-csrf');
    const text = await fetch(new URL('/account/passkeys', server.url), {
      method: 'POST',
      headers: { 'content-type': 'text/plain', cookie: browser.cookieHeader('/'), 'x-csrf-token': csrf },
      body: '{}',
    });
    expect(text.status).toBe(415);
    const device = new SoftAuthenticator(server.url);
    const options = await postJson(browser, '/account/passkeys/options', {}, csrf);
    const badName = await postJson(
      browser,
      '/account/passkeys',
      { name: '', response: device.create(options.json as never) },
      csrf,
    );
    expect(badName).toMatchObject({ status: 400, json: { error: { code: 'INVALID_ARGUMENTS', field: '/name' } } });
    expect((await browser.get('/account/passkeys')).html).toContain('No passkeys yet.');
  });

  it('adds named passkeys; refuses a device without user verification with PASSKEY_REFUSED', async () => {
    const browser = await signedIn(alice);
    expect((await addPasskey(browser, new SoftAuthenticator(server.url), 'laptop')).status).toBe(201);
    const noUv = new SoftAuthenticator(server.url);
    noUv.userVerified = false;
    expect(await addPasskey(browser, noUv, 'no uv')).toMatchObject({
      status: 403,
      json: { error: { code: 'PASSKEY_REFUSED', reason: 'no_user_verification' } },
    });
    const page = (await browser.get('/account/passkeys')).html;
    expect(page).toContain('laptop');
    expect(page).not.toContain('no uv');
  });
});

describe('rename and remove', () => {
  it('only one’s own passkeys, only with the form’s token', async () => {
    const aliceBrowser = await signedIn(alice);
    const bobBrowser = await signedIn(bob);
    expect((await addPasskey(bobBrowser, new SoftAuthenticator(server.url), 'bob key')).status).toBe(201);
    const bobPage = (await bobBrowser.get('/account/passkeys')).html;
    const removeAction = /action="(\/account\/passkeys\/[^"]+\/remove)"/.exec(bobPage)![1]!;
    const renameAction = removeAction.replace(/\/remove$/, '/rename');
    const bobCsrf = (action: string) => {
      const at = bobPage.indexOf(`action="${action}"`);
      return /name="_csrf" value="([^"]*)"/.exec(bobPage.slice(at))![1]!;
    };
    // Alice, with her own valid tokens, cannot touch Bob's passkey.
    const alicePage = (await aliceBrowser.get('/account/passkeys')).html;
    const aliceToken = (suffix: string) => {
      const at = alicePage.search(new RegExp(`action="/account/passkeys/[^"]+/${suffix}"`));
      return /name="_csrf" value="([^"]*)"/.exec(alicePage.slice(at))![1]!;
    };
    expect((await aliceBrowser.post(removeAction, { _csrf: aliceToken('remove') })).status).toBe(404);
    expect((await aliceBrowser.post(renameAction, { _csrf: aliceToken('rename'), name: 'mine now' })).status).toBe(404);
    // Bob without the token: nothing changes.
    expect((await bobBrowser.post(removeAction, { _csrf: 'forged' })).status).toBe(403);
    const renamed = await bobBrowser.post(renameAction, { _csrf: bobCsrf(renameAction), name: 'bob phone' });
    expect(renamed.status).toBe(200);
    expect(renamed.html).toContain('bob phone');
    const removed = await bobBrowser.post(removeAction, { _csrf: bobCsrf(removeAction) });
    expect(removed.status).toBe(200);
    expect(removed.html).toContain('No passkeys yet.');
  });
});

describe('signing in with a passkey', () => {
  it('needs the sign-in page’s token; then rotates the session and goes to return_to', async () => {
    const device = new SoftAuthenticator(server.url);
    const owner = await signedIn(alice);
    expect((await addPasskey(owner, device, 'phone')).status).toBe(201);

    const browser = new TestBrowser(server.url);
    const signInPage = (await browser.get('/signin?return_to=/account/keys')).html;
    const csrf = attribute(signInPage, 'data-csrf');
    expect((await postJson(browser, '/signin/passkey/options', {})).status).toBe(403);
    expect((await postJson(new TestBrowser(server.url), '/signin/passkey/options', {}, csrf)).status).toBe(403);
    const options = await postJson(browser, '/signin/passkey/options', {}, csrf);
    const response = device.get(options.json as never, device.credentials[0]!);
    const done = await postJson(browser, '/signin/passkey', { response, return_to: '//evil.example/' }, csrf);
    expect(done.status).toBe(200);
    expect(done.json).toEqual({ redirect: '/account' });
    expect(done.setCookie.join('\n')).toMatch(/^sess_session=[A-Za-z0-9_-]{43};.*HttpOnly/m);
    // The same assertion again: refused (its challenge is spent), nothing set.
    const again = await postJson(browser, '/signin/passkey', { response, return_to: '/account' }, csrf);
    expect(again).toMatchObject({
      status: 403,
      json: { error: { code: 'PASSKEY_REFUSED', reason: 'challenge_expired_or_used' } },
    });
    expect(again.setCookie).toEqual([]);
  });

  it('limits ceremony posts per IP', async () => {
    const limited = await startAccounts({ now: clock.now, database: server.database, limits: { passkeyPerIp: 2 } });
    try {
      const browser = new TestBrowser(limited.url);
      const csrf = attribute((await browser.get('/signin')).html, 'data-csrf');
      const post = () =>
        fetch(new URL('/signin/passkey/options', limited.url), {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: browser.cookieHeader('/'), 'x-csrf-token': csrf },
          body: '{}',
        });
      expect((await post()).status).toBe(200);
      expect((await post()).status).toBe(200);
      const third = await post();
      expect(third.status).toBe(429);
      expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      await limited.close();
    }
  });
});
