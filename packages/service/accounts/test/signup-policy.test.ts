import { issueFirstAccountToken, listWorkspacesForUser } from '@sess/accounts';
import { csrfToken } from '@sess/core';
import { signupTokens, users } from '@sess/db';
import { createTestUser, inputValue, signInThroughPages, TestBrowser, type TestUser } from '@sess/testkit';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountsServer, createClock, startAccounts } from './helpers.ts';

const PASSWORD = 'a long enough password';

/**
 * A valid sign-up CSRF token for `browser` even where no sign-up form is shown (closed policy,
 * spent link), minted with the server secret as the page would, so a refusal is the policy's.
 */
async function signupCsrf(server: AccountsServer, browser: TestBrowser): Promise<string> {
  await browser.get('/signin');
  return csrfToken(server.secret, `anon:${browser.cookies.get('sess_csrf')!.value}`, 'signup');
}

/** Signs `owner` in and makes an invite link for their personal workspace through the account page. */
async function makeInvite(server: AccountsServer, owner: TestUser): Promise<string> {
  const { browser } = await signInThroughPages(server.url, owner.email, owner.password);
  const result = await browser.submit('/account', '/account/invites', {});
  expect(result.status).toBe(201);
  const link = inputValue(result.html, 'invite-url') ?? result.html.match(/id="invite-url"[^>]*value="([^"]+)"/)?.[1];
  expect(link).toMatch(/\/signup\?token=[A-Za-z0-9_-]{43}$/);
  return new URL(link!).pathname + new URL(link!).search;
}

describe('SESS_SIGNUP=closed', () => {
  let server: AccountsServer;
  beforeAll(async () => {
    server = await startAccounts({ policy: 'closed' });
  });
  afterAll(() => server.close());

  it('shows no sign-up form and says who creates accounts', async () => {
    const page = await new TestBrowser(server.url).get('/signup');
    expect(page.status).toBe(403);
    expect(page.html).toContain('created by its administrator');
    expect(page.html).not.toContain('Create account</button>');
  });

  it('refuses a posted sign-up and creates nothing', async () => {
    const browser = new TestBrowser(server.url);
    const result = await browser.post('/signup', {
      _csrf: await signupCsrf(server, browser),
      email: 'closed@example.com',
      password: PASSWORD,
    });
    expect(result.status).toBe(403);
    expect(result.html).toContain('created by its administrator');
    expect(await server.database.db.select().from(users).where(eq(users.email, 'closed@example.com'))).toEqual([]);
  });

  it('offers no "Create an account" link on the sign-in page', async () => {
    const page = await new TestBrowser(server.url).get('/signin');
    expect(page.html).not.toContain('Create an account');
  });

  it('still takes a first-account link (single use)', async () => {
    const empty = await startAccounts({ policy: 'closed' });
    try {
      const token = await issueFirstAccountToken(empty.database.db, new Date());
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const browser = new TestBrowser(empty.url);
      const page = await browser.get(`/signup?token=${token}`);
      expect(page.status).toBe(200);
      expect(page.html).toContain('first');
      const created = await browser.submit(`/signup?token=${token}`, '/signup', {
        email: 'first@example.com',
        password: PASSWORD,
      });
      expect(created.status).toBe(303);
      expect(created.location).toBe('/account');
      // Only the hash is stored, and it is spent.
      const [row] = await empty.database.db.select().from(signupTokens);
      expect(row?.tokenHash).not.toBe(token);
      expect(row?.usedAt).toBeInstanceOf(Date);
      const again = new TestBrowser(empty.url);
      expect((await again.get(`/signup?token=${token}`)).status).toBe(410);
      const reused = await again.post('/signup', {
        _csrf: await signupCsrf(empty, again),
        token: token!,
        email: 'second@example.com',
        password: PASSWORD,
      });
      expect(reused.status).toBe(410);
      expect(reused.html).toContain('has been used or has expired');
      expect(await empty.database.db.select().from(users).where(eq(users.email, 'second@example.com'))).toEqual([]);
      // No more first-account links once an account exists.
      expect(await issueFirstAccountToken(empty.database.db, new Date())).toBeNull();
    } finally {
      await empty.close();
    }
  });
});

describe('first-account link', () => {
  it('is single-use even when posted twice, and dies once any account exists', async () => {
    const server = await startAccounts({ policy: 'invite' });
    try {
      const first = await issueFirstAccountToken(server.database.db, new Date());
      const second = await issueFirstAccountToken(server.database.db, new Date());
      const a = new TestBrowser(server.url);
      const pageA = await a.get(`/signup?token=${first}`);
      const b = new TestBrowser(server.url);
      const pageB = await b.get(`/signup?token=${second}`);
      const post = (browser: TestBrowser, html: string, token: string, email: string) =>
        browser.post('/signup', { _csrf: inputValue(html, '_csrf')!, token, email, password: PASSWORD, return_to: '/account' });
      const [ra, rb] = await Promise.all([
        post(a, pageA.html, first!, 'one@example.com'),
        post(b, pageB.html, second!, 'two@example.com'),
      ]);
      // Two links, printed by two starts: only one makes "the first" account.
      expect([ra.status, rb.status].sort()).toEqual([303, 410]);
      expect(await server.database.db.select().from(users)).toHaveLength(1);
      // Replaying the winning link fails too.
      const winner = { token: ra.status === 303 ? first! : second! };
      const late = new TestBrowser(server.url);
      const replay = await late.post('/signup', {
        _csrf: await signupCsrf(server, late),
        token: winner.token,
        email: 'three@example.com',
        password: PASSWORD,
      });
      expect(replay.status).toBe(410);
      expect(await server.database.db.select().from(users)).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('expires after 24 hours', async () => {
    const clock = createClock();
    const server = await startAccounts({ policy: 'closed', now: clock.now });
    try {
      const token = await issueFirstAccountToken(server.database.db, clock.now());
      clock.advance(24 * 60 * 60 * 1000 + 1);
      expect((await new TestBrowser(server.url).get(`/signup?token=${token}`)).status).toBe(410);
    } finally {
      await server.close();
    }
  });
});

describe('SESS_SIGNUP=invite', () => {
  const clock = createClock();
  let server: AccountsServer;
  let owner: TestUser;
  beforeAll(async () => {
    server = await startAccounts({ policy: 'invite', now: clock.now });
    owner = await createTestUser(server.database.db, { now: clock.now() });
  });
  afterAll(() => server.close());

  it('refuses sign-up without a link', async () => {
    const page = await new TestBrowser(server.url).get('/signup');
    expect(page.status).toBe(403);
    expect(page.html).toContain('needs an invite link');
  });

  it('an invite link creates an account that also joins the inviting workspace, once', async () => {
    const path = await makeInvite(server, owner);
    const browser = new TestBrowser(server.url);
    const page = await browser.get(path);
    expect(page.status).toBe(200);
    expect(page.html).toContain('You were invited.');
    const created = await browser.submit(path, '/signup', { email: 'invited@example.com', password: PASSWORD });
    expect(created.status).toBe(303);
    const [user] = await server.database.db.select().from(users).where(eq(users.email, 'invited@example.com'));
    const workspaces = await listWorkspacesForUser(server.database.db, user!.id);
    expect(workspaces.map((w) => w.role)).toEqual(['owner', 'member']);
    expect(workspaces[1]!.id).toBe(owner.workspaceId);
    // The account page lists both.
    const account = await browser.get('/account');
    expect(account.html).toContain('invited&#39;s workspace');
    expect(account.html).toContain(workspaces[1]!.name.replace(/'/g, '&#39;'));
    // Spent.
    expect((await new TestBrowser(server.url).get(path)).status).toBe(410);
  });

  it('a bad sign-up through an invite keeps the link usable', async () => {
    const path = await makeInvite(server, owner);
    const browser = new TestBrowser(server.url);
    const bad = await browser.submit(path, '/signup', { email: 'invited2@example.com', password: 'short' });
    expect(bad.status).toBe(400);
    expect(inputValue(bad.html, 'token')).toBe(new URLSearchParams(path.split('?')[1]).get('token'));
    const good = await browser.post('/signup', {
      _csrf: inputValue(bad.html, '_csrf')!,
      token: inputValue(bad.html, 'token')!,
      return_to: '/account',
      email: 'invited2@example.com',
      password: PASSWORD,
    });
    expect(good.status).toBe(303);
  });

  it('an invite expires after 7 days', async () => {
    const path = await makeInvite(server, owner);
    clock.advance(7 * 24 * 60 * 60 * 1000 + 1);
    expect((await new TestBrowser(server.url).get(path)).status).toBe(410);
  });

  it('nobody can make an invite for a workspace they do not own', async () => {
    const stranger = await createTestUser(server.database.db, { now: clock.now() });
    const { browser } = await signInThroughPages(server.url, stranger.email, stranger.password);
    const page = await browser.get('/account');
    const result = await browser.post('/account/invites', {
      _csrf: inputValue(page.html, '_csrf', page.html.indexOf('/account/invites'))!,
      workspace_id: owner.workspaceId,
    });
    expect(result.status).toBe(404);
    expect(await server.database.db.select().from(signupTokens).where(eq(signupTokens.createdBy, stranger.userId))).toEqual([]);
  });

  it('refuses an invite post without its CSRF token', async () => {
    const { browser } = await signInThroughPages(server.url, owner.email, owner.password);
    const result = await browser.post('/account/invites', { workspace_id: owner.workspaceId });
    expect(result.status).toBe(403);
  });
});
