import { authenticateApiKey } from '@sess/accounts';
import { apiKeys } from '@sess/db';
import { createTestUser, createTestWorkspace, inputValue, signInThroughPages, TestBrowser, type TestUser } from '@sess/testkit';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountsServer, createClock, startAccounts } from './helpers.ts';

const clock = createClock();
let server: AccountsServer;
let ann: TestUser;
let bob: TestUser;
let team: { workspaceId: string; name: string };

beforeAll(async () => {
  server = await startAccounts({ now: clock.now });
  ann = await createTestUser(server.database.db, { now: clock.now() });
  bob = await createTestUser(server.database.db, { now: clock.now() });
  // Ann is also a member (not owner) of Bob's team.
  team = await createTestWorkspace(server.database.db, {
    userId: ann.userId,
    name: 'Team <Rocket> & Co',
    role: 'member',
    now: clock.now(),
  });
});
afterAll(() => server.close());

/** The value of the new key shown once on `html`. */
function shownKey(html: string): string | undefined {
  return html.match(/<textarea id="new-key"[^>]*>([^<]+)<\/textarea>/)?.[1];
}

describe('/account', () => {
  it('shows the e-mail, every workspace with its role (escaped), and links to keys and connected apps', async () => {
    const { browser } = await signInThroughPages(server.url, ann.email, ann.password);
    const page = await browser.get('/account');
    expect(page.status).toBe(200);
    expect(page.html).toContain(ann.email);
    expect(page.html).toContain('Team &lt;Rocket&gt; &amp; Co');
    expect(page.html).toMatch(/\(owner\)[\s\S]*\(member\)/);
    expect(page.html).toContain('href="/account/keys"');
    expect(page.html).toContain('href="/account/apps"');
    expect(page.html).toMatch(/<button type="submit" class="secondary">Sign out<\/button>/);
  });
});

describe('/account/keys', () => {
  it('creates a key, shows it once, lists it by prefix, and the key works', async () => {
    const { browser } = await signInThroughPages(server.url, ann.email, ann.password);
    const created = await browser.submit('/account/keys', '/account/keys', { name: 'laptop' });
    expect(created.status).toBe(201);
    const key = shownKey(created.html)!;
    expect(key).toMatch(/^sess_[A-Za-z0-9_-]{43}$/);
    expect(created.html).toContain('shown only this once');
    const principal = await authenticateApiKey({ db: server.database.db, now: clock.now }, key);
    expect(principal?.workspaceId).toBe(ann.workspaceId);
    const list = await browser.get('/account/keys');
    expect(shownKey(list.html)).toBeUndefined();
    expect(list.html).not.toContain(key);
    expect(list.html).toContain(`${key.slice(0, 12)}…`);
    expect(list.html).toContain('laptop');
    // The use is recorded by a write the request does not wait for.
    await expect
      .poll(async () => (await browser.get('/account/keys')).html)
      .toMatch(/Last used <time datetime="2026-06-01T10:00:00.000Z">Jun 1, 2026, 10:00 AM \(UTC\)<\/time>/);
  });

  it('offers only the workspaces the person owns', async () => {
    const { browser } = await signInThroughPages(server.url, ann.email, ann.password);
    const page = await browser.get('/account/keys');
    expect(page.html).toContain(`value="${ann.workspaceId}"`);
    expect(page.html).not.toContain(`value="${team.workspaceId}"`);
    const form = {
      _csrf: inputValue(page.html, '_csrf', page.html.indexOf('action="/account/keys"'))!,
      name: 'sneaky',
      workspace_id: team.workspaceId,
    };
    const refused = await browser.post('/account/keys', form);
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('Choose one of your workspaces.');
    expect(await server.database.db.select().from(apiKeys).where(eq(apiKeys.workspaceId, team.workspaceId))).toEqual([]);
  });

  it('refuses an empty name with aria-invalid on the field', async () => {
    const { browser } = await signInThroughPages(server.url, ann.email, ann.password);
    const result = await browser.submit('/account/keys', '/account/keys', { name: '   ' });
    expect(result.status).toBe(400);
    expect(result.html).toMatch(
      /<input id="key-name"[^>]*aria-invalid="true"[^>]*aria-describedby="key-name-hint key-name-error"/,
    );
  });

  it('revokes a key: it is marked, and it stops working', async () => {
    const { browser } = await signInThroughPages(server.url, ann.email, ann.password);
    const created = await browser.submit('/account/keys', '/account/keys', { name: 'to revoke' });
    const key = shownKey(created.html)!;
    const [row] = await server.database.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.prefix, key.slice(0, 12)));
    const revoked = await browser.submit('/account/keys', `/account/keys/${row!.id}/revoke`, {});
    expect(revoked.status).toBe(200);
    expect(revoked.html).toContain('The key is revoked.');
    expect(revoked.html).toMatch(/Revoked <time datetime="2026-06-01T/);
    expect(await authenticateApiKey({ db: server.database.db, now: clock.now }, key)).toBeNull();
  });

  it('cannot revoke another person’s key (404, key still works)', async () => {
    const { browser: bobs } = await signInThroughPages(server.url, bob.email, bob.password);
    const created = await bobs.submit('/account/keys', '/account/keys', { name: 'bob key' });
    const key = shownKey(created.html)!;
    const [row] = await server.database.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.prefix, key.slice(0, 12)));
    const { browser: anns } = await signInThroughPages(server.url, ann.email, ann.password);
    const page = await anns.get('/account/keys');
    expect(page.html).not.toContain('bob key');
    const csrf = inputValue(page.html, '_csrf', page.html.indexOf('action="/account/keys"'))!;
    // Ann's own create token is for another purpose; take a revoke token from one of her rows.
    const own = await anns.submit('/account/keys', '/account/keys', { name: 'ann key' });
    const revokeCsrf = inputValue(own.html, '_csrf', own.html.indexOf('/revoke"'))!;
    expect(revokeCsrf).not.toBe(csrf);
    const attempt = await anns.post(`/account/keys/${row!.id}/revoke`, { _csrf: revokeCsrf });
    expect(attempt.status).toBe(404);
    expect(await authenticateApiKey({ db: server.database.db, now: clock.now }, key)).not.toBeNull();
  });

  it('refuses create and revoke without their CSRF token', async () => {
    const { browser } = await signInThroughPages(server.url, ann.email, ann.password);
    expect((await browser.post('/account/keys', { name: 'no csrf', workspace_id: ann.workspaceId })).status).toBe(403);
    const created = await browser.submit('/account/keys', '/account/keys', { name: 'keep me' });
    const [row] = await server.database.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.prefix, shownKey(created.html)!.slice(0, 12)));
    expect((await browser.post(`/account/keys/${row!.id}/revoke`, {})).status).toBe(403);
    // A create token does not revoke.
    const createCsrf = inputValue(created.html, '_csrf', created.html.indexOf('action="/account/keys"'))!;
    expect((await browser.post(`/account/keys/${row!.id}/revoke`, { _csrf: createCsrf })).status).toBe(403);
    const [still] = await server.database.db.select().from(apiKeys).where(eq(apiKeys.id, row!.id));
    expect(still?.revokedAt).toBeNull();
  });

  it('sends a signed-out browser to sign in', async () => {
    const page = await new TestBrowser(server.url).get('/account/keys');
    expect(page.status).toBe(303);
    expect(page.location).toBe('/signin?return_to=%2Faccount%2Fkeys');
    const post = await new TestBrowser(server.url).post('/account/keys/key_x/revoke', { name: 'x' });
    expect(post.status).toBe(303);
    expect(post.location).toBe('/signin?return_to=%2Faccount%2Fkeys');
    const invite = await new TestBrowser(server.url).post('/account/invites', {});
    expect(invite.location).toBe('/signin?return_to=%2Faccount');
  });
});
