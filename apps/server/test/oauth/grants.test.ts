import { readBrowserSession } from '@sess/accounts';
import { csrfToken } from '@sess/core';
import { oauthGrants, openDatabase, queryRows } from '@sess/db';
import { type AccessTokenVerifier, createAccessTokenVerifier, GRANT_CHANNEL } from '@sess/oauth';
import {
  CookieJar,
  completeAuthorization,
  createTestUser,
  createTestWorkspace,
  findForm,
  listenForMessage,
  onlyOn,
  parseHtmlForms,
  signInAndAuthorize,
  signInTestUser,
  TEST_SECRET,
  type TestUser,
} from '@sess/testkit';
import {
  authorizeUrl,
  type OAuthTestServer,
  registerPublicClient,
  startOAuthTestServer,
  tokenRequest,
} from '@sess/testkit/oauth';
import { messagesFor } from '@sess/web';
import { eq, sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: OAuthTestServer;
let verifier: AccessTokenVerifier;

beforeAll(async () => {
  server = await startOAuthTestServer();
  verifier = createAccessTokenVerifier({ database: server.database, publicUrl: server.url, now: server.clock.now });
});
afterAll(async () => {
  await verifier.close();
  await server.close();
});

async function browserOf(user: TestUser): Promise<CookieJar> {
  const jar = new CookieJar();
  const { cookie } = await signInTestUser(server.database.db, user.userId, server.clock.now());
  jar.cookies.set(cookie.split('=')[0]!, cookie.split('=')[1]!);
  return jar;
}

async function appsPage(jar: CookieJar, path = '/account/apps') {
  const response = await fetch(`${server.url}${path}`, { redirect: 'manual', headers: { cookie: jar.header() } });
  return {
    status: response.status,
    location: response.headers.get('location'),
    headers: response.headers,
    html: await response.text(),
  };
}

async function disconnect(jar: CookieJar, fields: Record<string, string>) {
  const response = await fetch(`${server.url}/account/apps/disconnect`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() },
    body: new URLSearchParams(fields),
  });
  return { status: response.status, location: response.headers.get('location'), html: await response.text() };
}

describe('grants: one per user × workspace × client, with generations', () => {
  it('a new consent for the same client re-issues the grant at generation + 1; the older tokens stop working', async () => {
    const user = await createTestUser(server.database.db);
    const first = await signInAndAuthorize({ baseUrl: server.url, user });
    const firstClaims = decodeJwt(first.tokens.accessToken);
    expect(firstClaims['grant_generation']).toBe(1);
    expect(await verifier.verify(first.tokens.accessToken)).toMatchObject({ ok: true });
    // The same client connects again ("a second computer").
    const second = await signInAndAuthorize({
      baseUrl: server.url,
      user,
      client: { kind: 'existing', clientId: first.clientId, redirectUri: first.redirectUri },
      browser: first.browser,
    });
    const secondClaims = decodeJwt(second.tokens.accessToken);
    expect(secondClaims['grant_id']).toBe(firstClaims['grant_id']);
    expect(secondClaims['grant_generation']).toBe(2);
    await expect
      .poll(async () => (await verifier.verify(first.tokens.accessToken)).ok, { timeout: 1000, interval: 20 })
      .toBe(false);
    expect(await verifier.verify(first.tokens.accessToken)).toEqual({ ok: false, reason: 'grant_revoked' });
    expect(await verifier.verify(second.tokens.accessToken)).toMatchObject({ ok: true, principal: { grantGeneration: 2 } });
    const staleRefresh = await tokenRequest(server, {
      grant_type: 'refresh_token',
      refresh_token: first.tokens.refreshToken,
      client_id: first.clientId,
    });
    expect(staleRefresh.body['error']).toBe('invalid_grant');
    const rows = await server.database.db.select().from(oauthGrants).where(eq(oauthGrants.clientId, first.clientId));
    expect(rows).toHaveLength(1);
  });
});

describe('connected apps and Disconnect', () => {
  it('lists the app with its redirect host, workspace and permissions; Disconnect revokes it at once', async () => {
    const user = await createTestUser(server.database.db);
    const connected = await signInAndAuthorize({
      baseUrl: server.url,
      user,
      client: {
        kind: 'dcr',
        metadata: { client_name: 'Cursor', redirect_uris: ['https://www.cursor.com/agents/mcp/oauth/callback'] },
      },
    });
    const jar = await browserOf(user);
    const page = await appsPage(jar);
    expect(page.status).toBe(200);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.html).toContain('Cursor');
    expect(page.html).toContain('(unverified name)');
    expect(page.html).toContain('www.cursor.com');
    expect(page.html).toContain('workspace');
    expect(page.html).toContain('Disconnect');
    const form = findForm(page.html, '/account/apps/disconnect');
    expect(await verifier.verify(connected.tokens.accessToken)).toMatchObject({ ok: true });

    const done = await disconnect(jar, form.fields);
    expect(done.status).toBe(303);
    expect(done.location).toBe('/account/apps?disconnected=1');
    await expect
      .poll(async () => (await verifier.verify(connected.tokens.accessToken)).ok, { timeout: 1000, interval: 20 })
      .toBe(false);
    expect(await verifier.verify(connected.tokens.accessToken)).toEqual({ ok: false, reason: 'grant_revoked' });
    await expect(connected.refresh()).rejects.toThrow(/invalid_grant/);
    const after = await appsPage(jar, done.location!);
    expect(after.html).toContain('Disconnected.');
    expect(after.html).not.toContain('www.cursor.com');
    const [grant] = await server.database.db.select().from(oauthGrants).where(eq(oauthGrants.clientId, connected.clientId));
    expect(grant).toMatchObject({ revokedAt: expect.any(Date), generation: 2 });
  });

  it('"Last used" is the last use of the app\'s access token at /mcp, not its sign-in', async () => {
    const user = await createTestUser(server.database.db);
    const connected = await signInAndAuthorize({
      baseUrl: server.url,
      user,
      client: { kind: 'dcr', metadata: { client_name: 'Zed', redirect_uris: ['https://zed.example/callback'] } },
    });
    const jar = await browserOf(user);
    const shown = async () => /<dt>Last used<\/dt>\s*<dd>([^<]*)<\/dd>/.exec((await appsPage(jar)).html)?.[1];
    const signedIn = await shown();
    expect(signedIn).toMatch(/ \(UTC\)$/);
    server.clock.advance(30 * 60_000);
    const later = messagesFor('en').dateTime(server.clock.now());
    expect(later).not.toBe(signedIn);
    // Any authenticated request to /mcp uses the token (a GET is then 405, after the token is checked).
    const used = await fetch(`${server.url}/mcp`, { headers: { authorization: `Bearer ${connected.tokens.accessToken}` } });
    expect(used.status).toBe(405);
    await expect.poll(shown, { timeout: 5_000, interval: 20 }).toBe(later);
  });

  it('one row per app × workspace, only grants that were used; Disconnect revokes every grant of its row', async () => {
    const user = await createTestUser(server.database.db);
    const team = await createTestWorkspace(server.database.db, { userId: user.userId, name: 'Design team' });
    const claudeCode = (redirect: string) => ({
      kind: 'dcr' as const,
      metadata: { client_name: 'Claude Code', redirect_uris: [redirect] },
    });
    // Claude Code registers anew on each computer: two registrations, both used, in the personal workspace…
    const laptop = await signInAndAuthorize({
      baseUrl: server.url,
      user,
      workspaceId: user.workspaceId,
      client: claudeCode('http://127.0.0.1:9/callback'),
    });
    const desktop = await signInAndAuthorize({
      baseUrl: server.url,
      user,
      workspaceId: user.workspaceId,
      client: claudeCode('http://localhost:9/callback'),
      browser: laptop.browser,
    });
    // …one more registration in the team workspace…
    const inTeam = await signInAndAuthorize({
      baseUrl: server.url,
      user,
      workspaceId: team.workspaceId,
      client: claudeCode('http://127.0.0.1:9/callback'),
      browser: laptop.browser,
    });
    // …and two consents whose codes never reached the token endpoint: one of another app, one of Claude Code.
    const unusedApp = await registerPublicClient(server, ['http://127.0.0.1:9/callback'], 'Abandoned tool');
    const unusedClaude = await registerPublicClient(server, ['http://127.0.0.1:9/callback'], 'Claude Code');
    for (const client of [unusedApp, unusedClaude]) {
      const outcome = await completeAuthorization({
        baseUrl: server.url,
        authorizationUrl: authorizeUrl(server, { clientId: client.clientId, redirectUri: client.redirectUris[0]! }),
        user,
        browser: laptop.browser,
        workspaceId: user.workspaceId,
      });
      expect(outcome.callback?.searchParams.get('code')).toBeTruthy();
    }
    const grantOf = async (clientId: string) =>
      (await server.database.db.select().from(oauthGrants).where(eq(oauthGrants.clientId, clientId)))[0]!;
    expect((await grantOf(unusedApp.clientId)).revokedAt).toBeNull();

    const jar = await browserOf(user);
    const page = await appsPage(jar);
    const forms = parseHtmlForms(page.html).filter((form) => form.action === '/account/apps/disconnect');
    expect(forms.map((form) => form.fields['workspace_id']).sort()).toEqual([user.workspaceId, team.workspaceId].sort());
    expect(new Set(forms.map((form) => form.fields['app']))).toEqual(new Set(['dcr:Claude Code']));
    expect(page.html).not.toContain('Abandoned tool');
    expect(page.html.match(/<h2 id="app-\d+">/g)).toHaveLength(2);

    const personal = forms.find((form) => form.fields['workspace_id'] === user.workspaceId)!;
    const done = await disconnect(jar, personal.fields);
    expect(done.status).toBe(303);
    // Every grant of Claude Code in the personal workspace is revoked, the unused one included…
    for (const clientId of [laptop.clientId, desktop.clientId, unusedClaude.clientId]) {
      expect((await grantOf(clientId)).revokedAt).toBeInstanceOf(Date);
    }
    await expect
      .poll(async () => (await verifier.verify(desktop.tokens.accessToken)).ok, { timeout: 1000, interval: 20 })
      .toBe(false);
    expect(await verifier.verify(laptop.tokens.accessToken)).toMatchObject({ ok: false });
    // …and nothing else: the team workspace's row and the other app stay.
    expect(await verifier.verify(inTeam.tokens.accessToken)).toMatchObject({ ok: true });
    expect((await grantOf(unusedApp.clientId)).revokedAt).toBeNull();
    const after = parseHtmlForms((await appsPage(jar)).html).filter((form) => form.action === '/account/apps/disconnect');
    expect(after.map((form) => form.fields['workspace_id'])).toEqual([team.workspaceId]);
    // The same row posted again has nothing left to disconnect.
    expect((await disconnect(jar, personal.fields)).status).toBe(404);
  });

  it("a re-consent whose new code was never exchanged is not listed (the previous generation's tokens are dead)", async () => {
    const user = await createTestUser(server.database.db);
    const first = await signInAndAuthorize({ baseUrl: server.url, user });
    const outcome = await completeAuthorization({
      baseUrl: server.url,
      authorizationUrl: authorizeUrl(server, { clientId: first.clientId, redirectUri: first.redirectUri }),
      user,
      browser: first.browser,
    });
    expect(outcome.callback?.searchParams.get('code')).toBeTruthy();
    const page = await appsPage(await browserOf(user));
    expect(page.html).toContain('No apps are connected');
  });

  it('without the CSRF token nothing changes', async () => {
    const user = await createTestUser(server.database.db);
    const connected = await signInAndAuthorize({ baseUrl: server.url, user });
    const jar = await browserOf(user);
    const form = findForm((await appsPage(jar)).html, '/account/apps/disconnect');
    const refused = await disconnect(jar, { ...form.fields, _csrf: 'forged' });
    expect(refused.status).toBe(403);
    expect(await verifier.verify(connected.tokens.accessToken)).toMatchObject({ ok: true });
  });

  it("another person cannot disconnect someone else's app (404), and sees only their own", async () => {
    const owner = await createTestUser(server.database.db);
    const connected = await signInAndAuthorize({ baseUrl: server.url, user: owner });
    const grantId = decodeJwt(connected.tokens.accessToken)['grant_id'] as string;
    const stranger = await createTestUser(server.database.db);
    const jar = await browserOf(stranger);
    expect((await appsPage(jar)).html).toContain('No apps are connected');
    // The stranger's page has no form for it; forge one with a valid CSRF token of their own session.
    const session = await readBrowserSession(server.database.db, jar.header(), server.clock.now());
    const ownerForm = findForm((await appsPage(await browserOf(owner))).html, '/account/apps/disconnect');
    const refused = await disconnect(jar, {
      _csrf: csrfToken(TEST_SECRET, session!.sessionId, 'oauth:disconnect'),
      app: ownerForm.fields['app']!,
      workspace_id: ownerForm.fields['workspace_id']!,
    });
    expect(refused.status).toBe(404);
    const [grant] = await server.database.db.select().from(oauthGrants).where(eq(oauthGrants.id, grantId));
    expect(grant!.revokedAt).toBeNull();
    expect(await verifier.verify(connected.tokens.accessToken)).toMatchObject({ ok: true });
  });

  it('asks a person who is not signed in to sign in first', async () => {
    const page = await appsPage(new CookieJar());
    expect(page.status).toBe(303);
    expect(page.location).toBe('/signin?return_to=%2Faccount%2Fapps');
    const post = await disconnect(new CookieJar(), { app: 'dcr:x', workspace_id: 'ws_x', _csrf: 'x' });
    expect(post.status).toBe(303);
  });
});

describe('revocation seen by a second replica', () => {
  it.runIf(onlyOn('oauth: a second replica sees Disconnect'))(
    'as soon as the Disconnect notification reaches it (second openDatabase on the same PostgreSQL)',
    async () => {
      const replica = await openDatabase({ url: server.database.url!, poolMax: 2 });
      const remote = createAccessTokenVerifier({ database: replica, publicUrl: server.url, now: server.clock.now });
      try {
        const user = await createTestUser(server.database.db);
        const connected = await signInAndAuthorize({ baseUrl: server.url, user });
        const grantId = decodeJwt(connected.tokens.accessToken)['grant_id'] as string;
        expect(await remote.verify(connected.tokens.accessToken)).toMatchObject({ ok: true });
        expect(await remote.verify(connected.tokens.accessToken)).toMatchObject({ ok: true }); // warm cache
        const jar = await browserOf(user);
        const form = findForm((await appsPage(jar)).html, '/account/apps/disconnect');
        const heard = await listenForMessage(replica.bus, GRANT_CHANNEL, grantId);
        expect((await disconnect(jar, form.fields)).status).toBe(303);
        await heard();
        // The cached grant (its 60 s have not passed on the verifier's clock) is gone with the notification.
        expect(await remote.verify(connected.tokens.accessToken)).toEqual({ ok: false, reason: 'grant_revoked' });
      } finally {
        await remote.close();
        await replica.close();
      }
    },
  );

  it.runIf(onlyOn('oauth: the grant cache drops on bus reconnect'))(
    'drops its grant cache when the bus reconnects (a missed notification cannot keep a revoked grant alive)',
    async () => {
      const replica = await openDatabase({ url: server.database.url!, poolMax: 2 });
      const remote = createAccessTokenVerifier({ database: replica, publicUrl: server.url, now: server.clock.now });
      try {
        const user = await createTestUser(server.database.db);
        const connected = await signInAndAuthorize({ baseUrl: server.url, user });
        const grantId = decodeJwt(connected.tokens.accessToken)['grant_id'] as string;
        expect(await remote.verify(connected.tokens.accessToken)).toMatchObject({ ok: true });
        // A revocation whose notification never arrives (written without NOTIFY):
        await server.database.db
          .update(oauthGrants)
          .set({ revokedAt: new Date(), generation: sql`${oauthGrants.generation} + 1` })
          .where(eq(oauthGrants.id, grantId));
        expect(await remote.verify(connected.tokens.accessToken)).toMatchObject({ ok: true }); // still cached
        // Kill the replica's LISTEN connection; the bus reconnects and tells the verifier.
        await queryRows(
          server.database.db,
          sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'sess-listen' and datname = current_database()`,
        );
        await expect
          .poll(async () => (await remote.verify(connected.tokens.accessToken)).ok, { timeout: 5000, interval: 50 })
          .toBe(false);
      } finally {
        await remote.close();
        await replica.close();
      }
    },
  );

  it.runIf(onlyOn('oauth: a second verifier on one PGlite'))(
    'PGlite (one in-process connection): a second verifier on the same database sees Disconnect on its notification',
    async () => {
      const second = createAccessTokenVerifier({ database: server.database, publicUrl: server.url, now: server.clock.now });
      try {
        const user = await createTestUser(server.database.db);
        const connected = await signInAndAuthorize({ baseUrl: server.url, user });
        const grantId = decodeJwt(connected.tokens.accessToken)['grant_id'] as string;
        expect(await second.verify(connected.tokens.accessToken)).toMatchObject({ ok: true });
        const jar = await browserOf(user);
        const form = findForm((await appsPage(jar)).html, '/account/apps/disconnect');
        const heard = await listenForMessage(server.database.bus, GRANT_CHANNEL, grantId);
        await disconnect(jar, form.fields);
        await heard();
        expect(await second.verify(connected.tokens.accessToken)).toEqual({ ok: false, reason: 'grant_revoked' });
      } finally {
        await second.close();
      }
    },
  );
});
