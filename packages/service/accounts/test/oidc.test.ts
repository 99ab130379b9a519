import { OIDC_CALLBACK_PATH } from '@sess/accounts';
import { userIdentities, users } from '@sess/db';
import {
  createTestUser,
  decodeEntities,
  signInUpstream,
  startTestIdp,
  startUpstreamSignIn,
  TestBrowser,
  type TestIdp,
} from '@sess/testkit';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountsServer, createClock, startAccounts } from './helpers.ts';

let idp: TestIdp;
// Sess's clock starts at the real time (the provider's ID tokens carry real timestamps).
const clock = createClock(new Date().toISOString());
let sess: AccountsServer;
let inviteOnly: AccountsServer;

beforeAll(async () => {
  idp = await startTestIdp();
  const oidc = { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, name: 'Test IdP' };
  // The account routes alone, with OIDC allowed over http (as the config does outside
  // production) and the per-IP limit on sign-in starts raised for this many round trips. The
  // whole app configured from OIDC_* variables is apps/server's accounts-oidc test.
  const limits = { signUpPerIp: 1000, signInPerIp: 1000 };
  sess = await startAccounts({ now: clock.now, oidc: { ...oidc, allowInsecureRequests: true }, limits });
  inviteOnly = await startAccounts({
    now: clock.now,
    oidc: { ...oidc, allowInsecureRequests: true },
    policy: 'invite',
    limits,
  });
  idp.allowRedirects([sess, inviteOnly].map((s) => `${s.url}${OIDC_CALLBACK_PATH}`));
});
afterAll(async () => {
  await inviteOnly?.close();
  await sess?.close();
  await idp?.close();
});

describe('sign-in with an upstream OpenID provider (oidc-provider, real HTTP)', () => {
  it('shows "Sign in with Test IdP" on the sign-in page', async () => {
    const page = await new TestBrowser(sess.url).get('/signin');
    expect(page.html).toMatch(/<button type="submit" class="secondary wide">Sign in with Test IdP<\/button>/);
  });

  it('sends the browser to the provider with PKCE S256, state and nonce, keeping them in a signed, short-lived cookie', async () => {
    const browser = new TestBrowser(sess.url);
    const authorize = await startUpstreamSignIn(browser);
    expect(authorize.origin).toBe(idp.issuer);
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
    idp.people.set('new-person', { email: 'New.Person@Upstream.example', email_verified: true });
    const { browser, result, callback } = await signInUpstream(idp, sess.url, 'new-person', '/account/keys');
    expect(callback.searchParams.get('iss')).toBe(idp.issuer);
    expect(result.status).toBe(303);
    expect(result.location).toBe('/account/keys');
    expect(browser.setCookies.some((c) => /^sess_oidc=; Path=\/signin\/oidc; Max-Age=0/.test(c))).toBe(true);
    const [user] = await sess.database.db.select().from(users).where(eq(users.email, 'new.person@upstream.example'));
    expect(user?.passwordHash).toBeNull();
    const [identity] = await sess.database.db.select().from(userIdentities).where(eq(userIdentities.userId, user!.id));
    expect(identity).toMatchObject({ issuer: idp.issuer, subject: 'new-person' });
    expect((await browser.get('/account')).html).toContain('new.person@upstream.example');
  });

  it('links to the existing account with the same verified e-mail, then recognises the identity even if the e-mail changes', async () => {
    const existing = await createTestUser(sess.database.db, { email: 'has-password@example.com' });
    idp.people.set('linker', { email: 'HAS-PASSWORD@example.com', email_verified: true });
    const first = await signInUpstream(idp, sess.url, 'linker');
    expect(first.result.status).toBe(303);
    const rows = await sess.database.db.select().from(userIdentities).where(eq(userIdentities.subject, 'linker'));
    expect(rows.map((r) => r.userId)).toEqual([existing.userId]);
    idp.people.set('linker', { email: 'renamed@example.com', email_verified: false });
    const second = await signInUpstream(idp, sess.url, 'linker');
    expect(second.result.status).toBe(303);
    expect((await second.browser.get('/account')).html).toContain('has-password@example.com');
  });

  it('refuses an unverified e-mail (no link, no account)', async () => {
    idp.people.set('unverified', { email: 'unverified@example.com', email_verified: false });
    const { result } = await signInUpstream(idp, sess.url, 'unverified');
    expect(result.status).toBe(403);
    expect(result.html).toContain('did not share a verified email address');
    expect(await sess.database.db.select().from(users).where(eq(users.email, 'unverified@example.com'))).toEqual([]);
  });

  it('under SESS_SIGNUP=invite, signs in a known e-mail but creates no account for an unknown one', async () => {
    idp.people.set('stranger', { email: 'stranger@example.com', email_verified: true });
    const refused = await signInUpstream(idp, inviteOnly.url, 'stranger');
    expect(refused.result.status).toBe(403);
    expect(refused.result.html).toContain('new accounts need an invite');
    expect(await inviteOnly.database.db.select().from(users).where(eq(users.email, 'stranger@example.com'))).toEqual([]);
    await createTestUser(inviteOnly.database.db, { email: 'member@example.com' });
    idp.people.set('member', { email: 'member@example.com', email_verified: true });
    const allowed = await signInUpstream(idp, inviteOnly.url, 'member');
    expect(allowed.result.status).toBe(303);
  });

  it('refuses a callback whose state was tampered with', async () => {
    idp.people.set('tamper', { email: 'tamper@example.com', email_verified: true });
    const browser = new TestBrowser(sess.url);
    const authorize = await startUpstreamSignIn(browser);
    const callback = await idp.actAtProvider(authorize.toString(), 'tamper');
    callback.searchParams.set('state', 'not-the-state');
    const result = await browser.get(callback.pathname + callback.search);
    expect(result.status).toBe(502);
    expect(browser.sessionToken()).toBeUndefined();
  });

  it('refuses a callback without the state cookie (another browser, or a replay after success)', async () => {
    idp.people.set('replay', { email: 'replay@example.com', email_verified: true });
    const { callback, browser } = await signInUpstream(idp, sess.url, 'replay');
    const replay = await browser.get(callback.pathname + callback.search);
    expect(replay.status).toBe(400);
    expect(replay.html).toContain('Sign-in expired');
    const other = await new TestBrowser(sess.url).get(callback.pathname + callback.search);
    expect(other.status).toBe(400);
  });

  it('refuses a state cookie older than 10 minutes', async () => {
    idp.people.set('slow', { email: 'slow@example.com', email_verified: true });
    const browser = new TestBrowser(sess.url);
    const authorize = await startUpstreamSignIn(browser);
    const callback = await idp.actAtProvider(authorize.toString(), 'slow');
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
    idp.people.set('forger', { email: 'forger@example.com', email_verified: true });
    const browser = new TestBrowser(sess.url);
    const authorize = await startUpstreamSignIn(browser);
    const callback = await idp.actAtProvider(authorize.toString(), 'forger');
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
    idp.people.set('canceller', { email: 'canceller@example.com', email_verified: true });
    const browser = new TestBrowser(sess.url);
    const authorize = await startUpstreamSignIn(browser);
    const callback = await idp.actAtProvider(authorize.toString(), 'canceller', { abort: true });
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
    idp.people.set('redirector', { email: 'redirector@example.com', email_verified: true });
    const browser = new TestBrowser(sess.url);
    const page = await browser.get('/signin');
    const at = page.html.indexOf('action="/signin/oidc"');
    const csrf = decodeEntities(page.html.slice(at).match(/name="_csrf" value="([^"]+)"/)![1]!);
    const started = await browser.post('/signin/oidc', { _csrf: csrf, return_to: '//evil.com' });
    const callback = await idp.actAtProvider(started.location!, 'redirector');
    const result = await browser.get(callback.pathname + callback.search);
    expect(result.location).toBe('/account');
  });
});
