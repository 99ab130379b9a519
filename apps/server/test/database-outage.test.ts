import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type Database, migrate, openDatabase, queryRows } from '@sess/db';
import {
  type AuthorizedTestClient,
  CookieJar,
  createTestUser,
  createWorkspaceWithKey,
  findForm,
  onlyOn,
  type PrivateCluster,
  sampleSurface,
  signInAndAuthorize,
  startPrivateCluster,
  type TestDatabase,
  type TestUser,
  type TestWorkspace,
} from '@sess/testkit';
import { type AppServer, startAppServer } from '@sess/testkit/app-server';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pageText } from './support/answer-page.ts';

/*
 * A database outage, end to end: the real app on a PostgreSQL server of this test's own (a
 * private cluster on its own port, never the shared one), which the test stops and starts while
 * the app keeps running. While it is down every face says "unavailable, try again" (503 with
 * Retry-After, in its own wire shape); once it is back everything works again without restarting
 * the app, and nothing was half-written. How soon each face answers while the database is down is
 * bench/outage's figure (beside /healthz in the same run), not a test's.
 *
 * PostgreSQL only: PGlite is in-process and cannot be stopped under the app; its closed state is
 * covered at the end of this file.
 */

const onPostgres = onlyOn('server: PostgreSQL stops under the app');

type Interaction = { handle: string; revision: number; state: string; humanUrl?: string };
type ToolError = { code: string; message: string; retryable: boolean };
const interactionOf = (result: unknown) =>
  (result as { structuredContent: { interaction: Interaction } }).structuredContent.interaction;
const toolErrorOf = (result: unknown) => {
  const r = result as { isError?: boolean; structuredContent: { error: ToolError } };
  expect(r.isError).toBe(true);
  return r.structuredContent.error;
};

describe.runIf(onPostgres)('PostgreSQL stops and starts under the running app (a private cluster)', () => {
  let cluster: PrivateCluster | undefined;
  let unavailable: string | undefined;
  let opened: Database;
  let server: AppServer;
  let workspace: TestWorkspace;
  let user: TestUser;
  let oauth: AuthorizedTestClient;
  let mcp: Client;
  let linkUrl: URL;
  let answerForm: URLSearchParams;
  let signInForm: { jar: CookieJar; body: URLSearchParams };

  const v1 = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${workspace.apiKey}`, 'content-type': 'application/json', ...init.headers },
    });
  const createOnV1 = (key: string) =>
    v1('/v1/sessions', {
      method: 'POST',
      headers: { 'idempotency-key': key },
      body: JSON.stringify({ interaction: sampleSurface('Deploy during the outage?') }),
    });
  const postAnswer = () =>
    fetch(linkUrl, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: linkUrl.origin },
      body: answerForm,
    });
  const refresh = () =>
    fetch(oauth.discovery.tokenEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: oauth.tokens.refreshToken,
        client_id: oauth.clientId,
      }),
    });
  const postSignIn = () =>
    fetch(`${server.url}/signin`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: signInForm.jar.header(), origin: server.url },
      body: signInForm.body,
    });
  const skipWithout = (ctx: { skip: (note?: string) => void }) => {
    if (!cluster) ctx.skip(`no private PostgreSQL cluster here: ${unavailable}`);
  };

  beforeAll(async () => {
    const made = await startPrivateCluster();
    if ('unavailable' in made) {
      unavailable = made.unavailable;
      return;
    }
    cluster = made;
    const admin = postgres(cluster.url(), { max: 1, onnotice: () => {} });
    await admin.unsafe('create database sess_outage');
    await admin.end();
    const url = cluster.url('sess_outage');
    opened = await openDatabase({ url, poolMax: 10 });
    await migrate(opened.db);
    const database: TestDatabase = { ...opened, url, destroy: () => opened.close() };
    server = await startAppServer({ database });

    workspace = await createWorkspaceWithKey(opened.db, { plan: 'pro' });
    const created = await createOnV1('before-the-outage');
    expect(created.status).toBe(201);
    linkUrl = new URL(((await created.json()) as { humanUrl: string }).humanUrl);
    const page = await fetch(linkUrl);
    expect(page.status).toBe(200);
    const form = findForm(await page.text(), linkUrl.pathname);
    answerForm = new URLSearchParams(form.fields);
    answerForm.set('message', 'Ship it after the outage');
    answerForm.set(Object.keys(form.buttons)[0]!, 'approve');

    user = await createTestUser(opened.db);
    oauth = await signInAndAuthorize({ baseUrl: server.url, user });
    mcp = new Client({ name: 'outage-test', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${oauth.tokens.accessToken}` } },
      }),
    );
    // A first tool call while the database is up: the access token and its grant are verified
    // and cached, as on any busy server, so calls during the outage reach the tools.
    expect(interactionOf(await mcp.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface() } })).state).toBe(
      'waiting',
    );

    const jar = new CookieJar();
    const signInPage = await fetch(`${server.url}/signin`);
    jar.store(signInPage);
    const signIn = findForm(await signInPage.text(), '/signin');
    signInForm = { jar, body: new URLSearchParams({ ...signIn.fields, email: user.email, password: user.password }) };
  }, 180_000);

  afterAll(async () => {
    await mcp?.close().catch(() => {});
    await server?.close();
    await cluster?.destroy();
  }, 60_000);

  describe('while PostgreSQL is stopped', () => {
    beforeAll(async () => {
      if (cluster) await cluster.stop();
    }, 60_000);

    it('/v1 create: 503 SESS_UNAVAILABLE, retryable, with Retry-After', async (ctx) => {
      skipWithout(ctx);
      const response = await createOnV1('during-the-outage');
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(await response.json()).toMatchObject({ error: { code: 'SESS_UNAVAILABLE', retryable: true } });
      // Failure after failure, each a 503 (postgres.js's own backoff would grow to 20 s by the
      // seventh, past the test's time; bench/outage measures each).
      for (let i = 0; i < 12; i++) expect((await v1('/v1/sessions')).status).toBe(503);
    });

    it('an MCP create: a retryable SESS_UNAVAILABLE tool error that says nothing was created', async (ctx) => {
      skipWithout(ctx);
      const error = toolErrorOf(await mcp.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface() } }));
      expect(error).toMatchObject({ code: 'SESS_UNAVAILABLE', retryable: true });
      expect(error.message).toMatch(/nothing was created/);
    });

    it('an MCP read: a retryable tool error, nothing changed', async (ctx) => {
      skipWithout(ctx);
      const listed = toolErrorOf(await mcp.callTool({ name: 'sess_list', arguments: {} }));
      expect(listed).toMatchObject({ code: 'STATE_STORE_ERROR', retryable: true });
    });

    it('the answer page, GET and POST: the HTML 503 "briefly unavailable" page with Retry-After, never a 500', async (ctx) => {
      skipWithout(ctx);
      for (const [name, request] of [
        ['pageGet', () => fetch(linkUrl)],
        ['pagePost', postAnswer],
      ] as const) {
        const response = await request();
        expect(response.status, name).toBe(503);
        expect(response.headers.get('retry-after')).toBe('5');
        expect(response.headers.get('content-type')).toMatch(/^text\/html/);
        expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
        expect(pageText(await response.text())).toContain('Sess is briefly unavailable, try again in a moment.');
      }
    });

    it('/readyz: 503, database unreachable', async (ctx) => {
      skipWithout(ctx);
      const response = await fetch(`${server.url}/readyz`);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ status: 'database unreachable' });
    });

    it('the OAuth token endpoint: 503 temporarily_unavailable (JSON, no-store, Retry-After)', async (ctx) => {
      skipWithout(ctx);
      const response = await refresh();
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.json()).toEqual({
        error: 'temporarily_unavailable',
        error_description: 'Sess is briefly unavailable. Try again in a moment.',
      });
    });

    it('the sign-in post, the account page and the authorization page: the HTML 503 page', async (ctx) => {
      skipWithout(ctx);
      const authorize = new URL(oauth.discovery.authorizationEndpoint);
      authorize.search = new URLSearchParams({
        response_type: 'code',
        client_id: oauth.clientId,
        redirect_uri: oauth.redirectUri,
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
        state: 'outage',
      }).toString();
      for (const [name, request] of [
        ['signInPost', postSignIn],
        ['accountPage', () => fetch(`${server.url}/account`, { headers: { cookie: oauth.browser.header() } })],
        ['authorizePage', () => fetch(authorize, { headers: { cookie: oauth.browser.header() }, redirect: 'manual' })],
      ] as const) {
        const response = await request();
        expect(response.status, name).toBe(503);
        expect(response.headers.get('retry-after'), name).toBe('5');
        expect(pageText(await response.text()), name).toContain('Sess is briefly unavailable');
      }
    });
  });

  describe('after PostgreSQL starts again (the app was not restarted)', () => {
    beforeAll(async () => {
      if (!cluster) return;
      await cluster.start();
      // Ready again, without a restart (the pool's reconnect backoff is capped at one second).
      await vi.waitFor(
        async () => {
          const status = (await fetch(`${server.url}/readyz`)).status;
          if (status !== 200) throw new Error(`/readyz is ${status}`);
        },
        { timeout: 15_000, interval: 100 },
      );
    }, 60_000);

    it('/v1 create works, with the key the failed attempt used', async (ctx) => {
      skipWithout(ctx);
      const response = await createOnV1('during-the-outage');
      expect(response.status).toBe(201);
    });

    it('the MCP tools work', async (ctx) => {
      skipWithout(ctx);
      const created = interactionOf(await mcp.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface() } }));
      expect(created.state).toBe('waiting');
      const listed = (await mcp.callTool({ name: 'sess_list', arguments: {} })) as {
        structuredContent: { interactions: unknown[] };
      };
      expect(listed.structuredContent.interactions).toHaveLength(2);
    });

    it('the answer page takes the answer, the token endpoint refreshes, sign-in signs in', async (ctx) => {
      skipWithout(ctx);
      expect((await fetch(linkUrl)).status).toBe(200);
      expect((await postAnswer()).status).toBe(303);
      const refreshed = await refresh();
      expect(refreshed.status).toBe(200);
      expect((await postSignIn()).status).toBe(303);
    });

    it('nothing is half-written: every handle has its session, none is left in doubt', async (ctx) => {
      skipWithout(ctx);
      const orphans = await queryRows<{ handle: string; state: string }>(
        opened.db,
        sql`select h.handle, h.state from mcp_handles h
             left join form_sessions s on s.id = coalesce(h.session_id, h.ask_id)
            where s.id is null or h.state in ('create_intent', 'create_unknown')`,
      );
      expect(orphans).toEqual([]);
      const sessions = await queryRows<{ n: number }>(
        opened.db,
        sql`select count(*)::int as n from form_sessions where workspace_id = ${workspace.workspaceId}`,
      );
      // Before the outage, and the retry after it; the attempt during it left nothing.
      expect(sessions[0]!.n).toBe(2);
    });
  });
});

const onPglite = onlyOn('server: PGlite closed under the app');
describe.runIf(onPglite)('PGlite closed under the running app', () => {
  let server: AppServer;
  let workspace: TestWorkspace;
  beforeAll(async () => {
    server = await startAppServer();
    workspace = await createWorkspaceWithKey(server.database.db);
    await server.database.close();
  });
  afterAll(() => server?.close());

  it('/v1 create is 503 SESS_UNAVAILABLE with Retry-After, /readyz 503', async () => {
    const response = await fetch(`${server.url}/v1/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${workspace.apiKey}`, 'content-type': 'application/json', 'idempotency-key': 'k1' },
      body: JSON.stringify({ interaction: sampleSurface() }),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await response.json()).toMatchObject({ error: { code: 'SESS_UNAVAILABLE', retryable: true } });
    expect((await fetch(`${server.url}/readyz`)).status).toBe(503);
  });
});
