import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OIDC_CALLBACK_PATH } from '@sess/accounts';
import { userIdentities, users } from '@sess/db';
import { createTestUser } from '@sess/testkit';
import { eq } from 'drizzle-orm';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountsServer, createClock, decodeEntities, startAccounts, TestBrowser } from './helpers.ts';

/** People known to the upstream provider: login name → claims. */
const people = new Map<string, { email: string; email_verified: boolean }>();
const CLIENT_ID = 'sess-test';
const CLIENT_SECRET = 'a-client-secret-for-the-test-provider';

let idp: Server;
let issuer: string;
let provider: Provider;
// Sess's clock starts at the real time (the provider's ID tokens carry real timestamps).
const clock = createClock(new Date().toISOString());
let sess: AccountsServer;
let inviteOnly: AccountsServer;
let wholeApp: AccountsServer;

/** A real OpenID Provider (node-oidc-provider v9) on 127.0.0.1, created once both callbacks are known. */
function createProvider(redirectUris: string[]): Provider {
  const p = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    cookies: { keys: ['test-cookie-key-for-the-provider'] },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx, sub) {
      const person = people.get(sub);
      if (!person) return undefined;
      return { accountId: sub, claims: async () => ({ sub, ...person }) };
    },
  });
  return p;
}

beforeAll(async () => {
  idp = createServer((req, res) => provider.callback()(req, res));
  await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', () => resolve()));
  issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
  const oidc = { issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, name: 'Test IdP' };
  // The account routes alone (with OIDC allowed over http, as the config does outside
  // production), so the per-IP limit on sign-in starts can be raised for this many round trips.
  const limits = { signUpPerIp: 1000, signInPerIp: 1000 };
  sess = await startAccounts({ via: 'routes', now: clock.now, oidc: { ...oidc, allowInsecureRequests: true }, limits });
  inviteOnly = await startAccounts({
    via: 'routes',
    now: clock.now,
    oidc: { ...oidc, allowInsecureRequests: true },
    policy: 'invite',
    limits,
  });
  // And the whole app, configured from OIDC_* variables as `sess serve` would be.
  wholeApp = await startAccounts({ now: clock.now, oidc });
  provider = createProvider([sess, inviteOnly, wholeApp].map((s) => `${s.url}${OIDC_CALLBACK_PATH}`));
});
afterAll(async () => {
  await wholeApp?.close();
  await inviteOnly?.close();
  await sess?.close();
  await new Promise<void>((resolve) => idp.close(() => resolve()));
});

/** The action of the first form on an oidc-provider interaction page. */
function formAction(html: string): string {
  return decodeEntities(html.match(/<form[^>]*action="([^"]+)"/)![1]!);
}

/**
 * Plays a person at the provider: follows redirects from the authorization URL, signs in as
 * `login`, approves (or aborts) consent, and returns the callback URL the provider sends back.
 */
async function actAtProvider(authorizeUrl: string, login: string, options: { abort?: boolean } = {}): Promise<URL> {
  const at = new TestBrowser(issuer);
  let next: string | null = authorizeUrl;
  for (let hop = 0; hop < 12 && next; hop++) {
    const url = new URL(next, issuer);
    if (url.origin !== issuer) return url;
    const page = await at.get(url.pathname + url.search);
    if (page.status >= 300 && page.status < 400) {
      next = page.location;
      continue;
    }
    expect(page.status, page.html.slice(0, 500)).toBe(200);
    const action = formAction(page.html);
    const isLogin = page.html.includes('name="prompt" value="login"');
    if (options.abort && !isLogin) {
      const abortAt = page.html.match(/href="([^"]*\/abort)"/)?.[1] ?? `${action}/abort`;
      next = (await at.get(decodeEntities(abortAt))).location;
      continue;
    }
    const posted = await at.post(action, isLogin ? { prompt: 'login', login, password: 'any' } : { prompt: 'consent' });
    next = posted.location;
  }
  throw new Error('the provider never redirected back');
}

/** Starts "Sign in with Test IdP" on `server` from its sign-in page; returns the provider URL. */
async function startUpstream(browser: TestBrowser, returnTo = '/account') {
  const page = await browser.get(`/signin?return_to=${encodeURIComponent(returnTo)}`);
  const at = page.html.indexOf('action="/signin/oidc"');
  expect(at).toBeGreaterThan(0);
  const csrf = decodeEntities(page.html.slice(at).match(/name="_csrf" value="([^"]+)"/)![1]!);
  const started = await browser.post('/signin/oidc', { _csrf: csrf, return_to: returnTo });
  expect(started.status).toBe(303);
  return new URL(started.location!);
}

/** The whole round trip; resolves with Sess's answer to the callback. */
async function signInUpstream(
  server: AccountsServer,
  login: string,
  returnTo = '/account',
  browser = new TestBrowser(server.url),
) {
  const authorize = await startUpstream(browser, returnTo);
  const callback = await actAtProvider(authorize.toString(), login);
  const result = await browser.get(callback.pathname + callback.search);
  return { browser, result, authorize, callback };
}

describe('sign-in with an upstream OpenID provider (oidc-provider, real HTTP)', () => {
  it('shows "Sign in with Test IdP" on the sign-in page', async () => {
    const page = await new TestBrowser(sess.url).get('/signin');
    expect(page.html).toMatch(/<button type="submit" class="secondary wide">Sign in with Test IdP<\/button>/);
  });

  it('sends the browser to the provider with PKCE S256, state and nonce, keeping them in a signed, short-lived cookie', async () => {
    const browser = new TestBrowser(sess.url);
    const authorize = await startUpstream(browser);
    expect(authorize.origin).toBe(issuer);
    expect(authorize.searchParams.get('response_type')).toBe('code');
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.searchParams.get('state')).toBeTruthy();
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    expect(authorize.searchParams.get('scope')).toBe('openid email');
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${sess.url}${OIDC_CALLBACK_PATH}`);
    const cookie = browser.setCookies.find((c) => c.startsWith('sess_oidc='))!;
    expect(cookie).toMatch(/; Path=\/signin\/oidc; Max-Age=600; HttpOnly; SameSite=Lax/);
    // The verifier never leaves in the URL.
    expect(authorize.toString()).not.toContain(
      JSON.parse(Buffer.from(cookie.split('=')[1]!.split('.')[0]!, 'base64url').toString()).codeVerifier,
    );
  });

  it('creates an account for a new, verified e-mail (open policy) and lands on return_to', async () => {
    people.set('new-person', { email: 'New.Person@Upstream.example', email_verified: true });
    const { browser, result, callback } = await signInUpstream(sess, 'new-person', '/account/keys');
    expect(callback.searchParams.get('iss')).toBe(issuer);
    expect(result.status).toBe(303);
    expect(result.location).toBe('/account/keys');
    expect(browser.setCookies.some((c) => /^sess_oidc=; Path=\/signin\/oidc; Max-Age=0/.test(c))).toBe(true);
    const [user] = await sess.database.db.select().from(users).where(eq(users.email, 'new.person@upstream.example'));
    expect(user?.passwordHash).toBeNull();
    const [identity] = await sess.database.db.select().from(userIdentities).where(eq(userIdentities.userId, user!.id));
    expect(identity).toMatchObject({ issuer, subject: 'new-person' });
    expect((await browser.get('/account')).html).toContain('new.person@upstream.example');
  });

  it('links to the existing account with the same verified e-mail, then recognises the identity even if the e-mail changes', async () => {
    const existing = await createTestUser(sess.database.db, { email: 'has-password@example.com' });
    people.set('linker', { email: 'HAS-PASSWORD@example.com', email_verified: true });
    const first = await signInUpstream(sess, 'linker');
    expect(first.result.status).toBe(303);
    const rows = await sess.database.db.select().from(userIdentities).where(eq(userIdentities.subject, 'linker'));
    expect(rows.map((r) => r.userId)).toEqual([existing.userId]);
    people.set('linker', { email: 'renamed@example.com', email_verified: false });
    const second = await signInUpstream(sess, 'linker');
    expect(second.result.status).toBe(303);
    expect((await second.browser.get('/account')).html).toContain('has-password@example.com');
  });

  it('refuses an unverified e-mail (no link, no account)', async () => {
    people.set('unverified', { email: 'unverified@example.com', email_verified: false });
    const { result } = await signInUpstream(sess, 'unverified');
    expect(result.status).toBe(403);
    expect(result.html).toContain('did not share a verified email address');
    expect(await sess.database.db.select().from(users).where(eq(users.email, 'unverified@example.com'))).toEqual([]);
  });

  it('under SESS_SIGNUP=invite, signs in a known e-mail but creates no account for an unknown one', async () => {
    people.set('stranger', { email: 'stranger@example.com', email_verified: true });
    const refused = await signInUpstream(inviteOnly, 'stranger');
    expect(refused.result.status).toBe(403);
    expect(refused.result.html).toContain('new accounts need an invite');
    expect(await inviteOnly.database.db.select().from(users).where(eq(users.email, 'stranger@example.com'))).toEqual([]);
    await createTestUser(inviteOnly.database.db, { email: 'member@example.com' });
    people.set('member', { email: 'member@example.com', email_verified: true });
    const allowed = await signInUpstream(inviteOnly, 'member');
    expect(allowed.result.status).toBe(303);
  });

  it('refuses a callback whose state was tampered with', async () => {
    people.set('tamper', { email: 'tamper@example.com', email_verified: true });
    const browser = new TestBrowser(sess.url);
    const authorize = await startUpstream(browser);
    const callback = await actAtProvider(authorize.toString(), 'tamper');
    callback.searchParams.set('state', 'not-the-state');
    const result = await browser.get(callback.pathname + callback.search);
    expect(result.status).toBe(502);
    expect(browser.sessionToken()).toBeUndefined();
  });

  it('refuses a callback without the state cookie (another browser, or a replay after success)', async () => {
    people.set('replay', { email: 'replay@example.com', email_verified: true });
    const { callback, browser } = await signInUpstream(sess, 'replay');
    const replay = await browser.get(callback.pathname + callback.search);
    expect(replay.status).toBe(400);
    expect(replay.html).toContain('Sign-in expired');
    const other = await new TestBrowser(sess.url).get(callback.pathname + callback.search);
    expect(other.status).toBe(400);
  });

  it('refuses a state cookie older than 10 minutes', async () => {
    people.set('slow', { email: 'slow@example.com', email_verified: true });
    const browser = new TestBrowser(sess.url);
    const authorize = await startUpstream(browser);
    const callback = await actAtProvider(authorize.toString(), 'slow');
    clock.advance(10 * 60 * 1000 + 1000);
    try {
      const result = await browser.get(callback.pathname + callback.search);
      expect(result.status).toBe(400);
      expect(browser.sessionToken()).toBeUndefined();
    } finally {
      clock.advance(-(10 * 60 * 1000 + 1000));
    }
  });

  it('refuses a forged state cookie', async () => {
    people.set('forger', { email: 'forger@example.com', email_verified: true });
    const browser = new TestBrowser(sess.url);
    const authorize = await startUpstream(browser);
    const callback = await actAtProvider(authorize.toString(), 'forger');
    const sealed = browser.cookies.get('sess_oidc')!.value;
    const [payload] = sealed.split('.');
    const state = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    state.returnTo = '/account/keys';
    browser.cookies.set('sess_oidc', {
      value: `${Buffer.from(JSON.stringify(state)).toString('base64url')}.${sealed.split('.')[1]}`,
      path: '/signin/oidc',
    });
    const result = await browser.get(callback.pathname + callback.search);
    expect(result.status).toBe(400);
  });

  it('tells the person when they cancelled at the provider', async () => {
    people.set('canceller', { email: 'canceller@example.com', email_verified: true });
    const browser = new TestBrowser(sess.url);
    const authorize = await startUpstream(browser);
    const callback = await actAtProvider(authorize.toString(), 'canceller', { abort: true });
    expect(callback.searchParams.get('error')).toBe('access_denied');
    const result = await browser.get(callback.pathname + callback.search);
    expect(result.status).toBe(400);
    expect(result.html).toContain('Sign-in cancelled');
  });

  it('refuses to start without the CSRF token', async () => {
    const browser = new TestBrowser(sess.url);
    await browser.get('/signin');
    const result = await browser.post('/signin/oidc', { return_to: '/account' });
    expect(result.status).toBe(403);
    expect(result.location).toBeNull();
  });

  it('keeps return_to safe through the round trip', async () => {
    people.set('redirector', { email: 'redirector@example.com', email_verified: true });
    const browser = new TestBrowser(sess.url);
    const page = await browser.get('/signin');
    const at = page.html.indexOf('action="/signin/oidc"');
    const csrf = decodeEntities(page.html.slice(at).match(/name="_csrf" value="([^"]+)"/)![1]!);
    const started = await browser.post('/signin/oidc', { _csrf: csrf, return_to: '//evil.com' });
    const callback = await actAtProvider(started.location!, 'redirector');
    const result = await browser.get(callback.pathname + callback.search);
    expect(result.location).toBe('/account');
  });

  it('works end to end in the whole app configured from OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET', async () => {
    people.set('configured', { email: 'configured@example.com', email_verified: true });
    const page = await new TestBrowser(wholeApp.url).get('/signin');
    expect(page.html).toContain('Sign in with Test IdP');
    const { result, browser } = await signInUpstream(wholeApp, 'configured');
    expect(result.status).toBe(303);
    expect((await browser.get('/account')).html).toContain('configured@example.com');
  });
});
