import { request as httpRequest } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { hashSecret } from '@sess/core';
import { queryRows } from '@sess/db';
import { createRemoteKeySet, verifyReceipt } from '@sess/receipts';
import {
  CookieJar,
  createTestUser,
  createWorkspaceWithKey,
  findForm,
  sampleAskArguments,
  sampleSurface,
  setFormAssurance,
  signInTestUser,
  type TestUser,
  type TestWorkspace,
} from '@sess/testkit';
import { type AppServer, startAppServer } from '@sess/testkit/app-server';
import { STYLESHEET_PATH } from '@sess/web';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOnPage } from './support/answer-page.ts';

/*
 * Two origins on one process: agents reach PUBLIC_URL (http://localhost:<port>) while answer
 * links point at SESS_LINK_URL (http://127.0.0.1:<port>, standing in for a LAN address). The
 * link Host serves the answer pages, their stylesheet and /healthz; receipts keep PUBLIC_URL as
 * their issuer.
 */

let server: AppServer;
let publicUrl: string;
let linkUrl: string;
let workspace: TestWorkspace;

beforeAll(async () => {
  server = await startAppServer({
    env: ({ port }) => ({ PUBLIC_URL: `http://localhost:${port}`, SESS_LINK_URL: `http://127.0.0.1:${port}` }),
  });
  const port = new URL(server.url).port;
  publicUrl = `http://localhost:${port}`;
  linkUrl = `http://127.0.0.1:${port}`;
  workspace = await createWorkspaceWithKey(server.database.db);
});
afterAll(async () => server?.close());

type Interaction = {
  handle: string;
  humanUrl?: string;
  response?: { eventId: string; verified: boolean; receipt: string };
  state: string;
};
const interactionOf = (result: unknown) =>
  (result as { structuredContent: { interaction: Interaction } }).structuredContent.interaction;

async function connect(): Promise<Client> {
  const client = new Client({ name: 'sess-test', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${publicUrl}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${workspace.apiKey}` } },
    }),
  );
  return client;
}

function v1(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${publicUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${workspace.apiKey}`,
      'content-type': 'application/json',
      'idempotency-key': crypto.randomUUID(),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** A raw request with any Host header (fetch does not let a caller choose it). */
function withHost(
  host: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  const port = Number(new URL(server.url).port);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, method: init.method ?? 'GET', headers: { ...init.headers, host } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

describe('answer links on SESS_LINK_URL, everything else on PUBLIC_URL', () => {
  it('a tool create gives a link on the link origin; the person answers there; the receipt names PUBLIC_URL and verifies', async () => {
    const client = await connect();
    const created = interactionOf(
      await client.callTool({
        name: 'sess_ask',
        arguments: {
          question: 'Which day?',
          fields: [{ name: 'day', label: 'Day', type: 'choice', options: ['Mon', 'Tue'] }],
        },
      }),
    );
    expect(created.humanUrl).toMatch(new RegExp(`^${linkUrl}/s/[A-Za-z0-9_-]+$`));
    // The form posts with its CSRF token on the link origin, as a phone would.
    const answered = await answerOnPage(created.humanUrl!, { day: 'Tue' });
    expect(answered.status).toBe(303);
    const read = interactionOf(
      await client.callTool({ name: 'sess_response', arguments: { handle: created.handle, revision: 1, wait_ms: 0 } }),
    );
    expect(read.state).toBe('answered');
    expect(read.response?.verified).toBe(true);
    const [, payload] = read.response!.receipt.split('.');
    expect(JSON.parse(Buffer.from(payload!, 'base64url').toString())).toMatchObject({ iss: publicUrl });
    await client.close();
  });

  it('/v1 creates (a session and an Ask) link to the link origin; the receipt verifies against PUBLIC_URL’s JWKS', async () => {
    const created = await v1('POST', '/v1/sessions', { interaction: sampleSurface() });
    expect(created.status).toBe(201);
    const session = (await created.json()) as { sessionId: string; humanUrl: string; revision: number };
    expect(session.humanUrl.startsWith(`${linkUrl}/s/`)).toBe(true);
    const ask = await v1('POST', '/v1/asks', sampleAskArguments({ max: 2 }));
    expect(ask.status).toBe(201);
    const askLink = ((await ask.json()) as { humanUrl: string }).humanUrl;
    expect(askLink.startsWith(`${linkUrl}/s/`)).toBe(true);

    // An Ask's Start on the link origin: a path-only redirect, a host-only cookie that is not Secure (http).
    const landing = await fetch(askLink);
    expect(landing.status).toBe(200);
    const startPath = `${new URL(askLink).pathname}/start`;
    const startForm = findForm(await landing.text(), startPath);
    const started = await fetch(`${linkUrl}${startPath}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: linkUrl },
      body: new URLSearchParams(startForm.fields),
    });
    expect(started.status).toBe(303);
    expect(started.headers.get('location')).toMatch(/^\/s\/[A-Za-z0-9_-]+$/);
    const cookie = started.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^sess_respondent=.*; HttpOnly; SameSite=Lax$/);
    expect(cookie).not.toMatch(/Secure|Domain/);

    expect((await answerOnPage(session.humanUrl, { message: 'Ship it' })).status).toBe(303);
    const got = await v1('GET', `/v1/sessions/${session.sessionId}`);
    const body = (await got.json()) as {
      response: { eventId: string; receipt: string };
      revision: number;
      surfaceSha256: string;
    };
    const verified = await verifyReceipt(body.response.receipt, {
      keys: createRemoteKeySet(`${publicUrl}/.well-known/jwks.json`),
      issuer: publicUrl,
      expected: {
        workspaceId: workspace.workspaceId,
        sessionId: session.sessionId,
        revision: body.revision,
        eventId: body.response.eventId,
        surfaceSha256: body.surfaceSha256,
      },
    });
    expect(verified).toMatchObject({ ok: true, claims: { iss: publicUrl } });
  });

  it('old links keep working on PUBLIC_URL', async () => {
    const created = (await (await v1('POST', '/v1/sessions', { interaction: sampleSurface() })).json()) as {
      humanUrl: string;
    };
    const onPublic = created.humanUrl.replace(linkUrl, publicUrl);
    const page = await fetch(onPublic);
    expect(page.status).toBe(200);
    expect((await answerOnPage(onPublic, { message: 'Ship it' })).status).toBe(303);
  });

  it.each(['account', 'passkey'] as const)(
    'an %s form opened on the link origin (no session cookie there) goes to its page on PUBLIC_URL, answered signed in',
    async (level) => {
      const created = (await (await v1('POST', '/v1/sessions', { interaction: sampleSurface() })).json()) as {
        sessionId: string;
        humanUrl: string;
      };
      await setFormAssurance(server.database.db, created.sessionId, level, [workspace.userId]);
      const { cookie } = await signInTestUser(server.database.db, workspace.userId);
      const token = new URL(created.humanUrl).pathname.split('/')[2]!;
      const onLink = await fetch(created.humanUrl, { redirect: 'manual', headers: { cookie } });
      expect(onLink.status).toBe(303);
      expect(onLink.headers.get('location')).toBe(`${publicUrl}/s/${token}`);
      // A post on the link origin answers nothing either: it is sent to the same page.
      const posted = await fetch(created.humanUrl, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'message=x&_revision=1&_csrf=x',
      });
      expect([303, 403]).toContain(posted.status);
      // Nor does a passkey confirmation posted there (no session: no ceremony can be verified).
      const confirmed = await fetch(created.humanUrl, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'message=x&_revision=1&_csrf=x&_passkey=%7B%7D',
      });
      expect([303, 403]).toContain(confirmed.status);
      const onPublic = await fetch(`${publicUrl}/s/${token}`, { redirect: 'manual', headers: { cookie } });
      expect(onPublic.status).toBe(200);
      const withoutCookie = await fetch(`${publicUrl}/s/${token}`, { redirect: 'manual' });
      expect(withoutCookie.headers.get('location')).toBe(`/signin?return_to=${encodeURIComponent(`/s/${token}`)}`);
      const read = (await (await v1('GET', `/v1/sessions/${created.sessionId}`)).json()) as { state: string };
      expect(read.state).toBe('waiting');
    },
  );

  it('the link Host serves the stylesheet and health, and refuses accounts, OAuth, /mcp and /v1 without a cookie', async () => {
    expect((await fetch(`${linkUrl}/healthz`)).status).toBe(200);
    const css = await fetch(`${linkUrl}${STYLESHEET_PATH}`);
    expect(css.status).toBe(200);
    for (const path of ['/account', '/signin', '/signup', '/', '/oauth/authorize?client_id=x']) {
      const page = await fetch(`${linkUrl}${path}`, { headers: { accept: 'text/html' }, redirect: 'manual' });
      expect(page.status, path).toBe(404);
      expect(page.headers.get('set-cookie'), path).toBeNull();
      expect(page.headers.get('content-security-policy'), path).toMatch(/default-src 'none'/);
      expect(await page.text(), path).toContain(`This address serves answer links only; your Sess is at ${publicUrl}.`);
    }
    const signIn = await fetch(`${linkUrl}/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      body: 'email=a%40b.example&password=x',
      redirect: 'manual',
    });
    expect(signIn.status).toBe(404);
    expect(signIn.headers.get('set-cookie')).toBeNull();
    for (const [method, path] of [
      ['POST', '/mcp'],
      ['GET', '/v1/sessions'],
      ['GET', '/.well-known/jwks.json'],
      ['GET', '/.well-known/oauth-authorization-server'],
      ['POST', '/oauth/token'],
    ] as const) {
      const answer = await fetch(`${linkUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${workspace.apiKey}`, 'content-type': 'application/json' },
        ...(method === 'POST' ? { body: '{}' } : {}),
      });
      expect(answer.status, path).toBe(404);
      expect(await answer.json(), path).toEqual({
        error: {
          code: 'NOT_FOUND',
          message: `This address serves answer links only; your Sess is at ${publicUrl}.`,
          retryable: false,
        },
      });
    }
    // The same Host written differently (upper case) is the same origin.
    const shouting = await withHost(new URL(linkUrl).host.toUpperCase(), '/account', { headers: { accept: 'text/html' } });
    expect(shouting.status).toBe(404);
    // PUBLIC_URL's Host still serves the rest.
    expect((await fetch(`${publicUrl}/signin`)).status).toBe(200);
    expect((await fetch(`${publicUrl}/.well-known/jwks.json`)).status).toBe(200);
  });
});

/*
 * The link origin as a closed boundary: every route the app registers is requested on it. The
 * ones below answer there as on PUBLIC_URL; every other one is the link host's 404. And it reads
 * no session: a browser whose SESS_LINK_URL is PUBLIC_URL's host on another port sends it
 * PUBLIC_URL's session cookie (cookies ignore ports), so every request here carries one too.
 */
describe('the link origin serves the answer pages, the stylesheet and /healthz, and reads no session', () => {
  /** What the README says the link origin serves: the answer pages (`/s/…`), the stylesheet, health. */
  const servedOnLink = (method: string, path: string) =>
    path.startsWith('/s/') || (method === 'GET' && (path === STYLESHEET_PATH || path === '/healthz'));
  const refusal = () => `This address serves answer links only; your Sess is at ${publicUrl}.`;
  /** One request of the walk: a route's pattern made concrete, with a form body for a post. */
  type Probe = { method: string; path: string; body?: string; type?: string };

  let person: TestUser;
  /** The Cookie header of a browser signed in on PUBLIC_URL through the real sign-in page. */
  let signedIn: string;
  let sessionToken: string;

  beforeAll(async () => {
    person = await createTestUser(server.database.db);
    const jar = new CookieJar();
    const page = await fetch(`${publicUrl}/signin`);
    jar.store(page);
    const form = findForm(await page.text(), '/signin');
    const posted = await fetch(`${publicUrl}/signin`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() },
      body: new URLSearchParams({ ...form.fields, email: person.email, password: person.password }),
    });
    expect(posted.status).toBe(303);
    jar.store(posted);
    sessionToken = jar.cookies.get('sess_session')!;
    expect(sessionToken).toBeTruthy();
    signedIn = jar.header();
  });

  const lastSeen = async () => {
    const [row] = await queryRows<{ last_seen_at: string }>(
      server.database.db,
      sql`select last_seen_at from browser_sessions where token_hash = ${hashSecret(sessionToken)}`,
    );
    return new Date(row!.last_seen_at).toISOString();
  };

  async function request(
    origin: string,
    path: string,
    init: { method?: string; accept?: string; cookie?: string; body?: BodyInit; type?: string },
  ) {
    const response = await fetch(`${origin}${path}`, {
      method: init.method ?? 'GET',
      redirect: 'manual',
      headers: {
        accept: init.accept ?? 'text/html',
        ...(init.cookie ? { cookie: init.cookie } : {}),
        ...(init.body === undefined ? {} : { 'content-type': init.type ?? 'application/x-www-form-urlencoded' }),
      },
      ...(init.body === undefined ? {} : { body: init.body }),
    });
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      setCookies: response.headers.getSetCookie(),
      location: response.headers.get('location'),
      text: await response.text(),
    };
  }

  it('every registered route: the served ones answer as on PUBLIC_URL, the rest are the link host’s 404; no cookie set, no session read', async () => {
    const created = (await (await v1('POST', '/v1/sessions', { interaction: sampleSurface() })).json()) as { humanUrl: string };
    const token = new URL(created.humanUrl).pathname.slice('/s/'.length);
    const patterns = [...new Set(server.routes.map((r) => `${r.method} ${r.path}`))];
    // What is served there, exactly: the README's list (and what link-host.ts lets through).
    expect(patterns.filter((p) => servedOnLink(...(p.split(' ') as [string, string]))).sort()).toEqual([
      'ALL /s/*',
      `GET ${STYLESHEET_PATH}`,
      'GET /healthz',
      'GET /s/:token',
      'GET /s/:token/receipt',
      'GET /s/:token/wait',
      'POST /s/:token',
      'POST /s/:token/extend',
      'POST /s/:token/start',
    ]);
    // The walk reaches the rest of the app: accounts, OAuth, /mcp, /v1, the review page, the web app.
    expect(patterns).toEqual(
      expect.arrayContaining([
        'ALL /mcp',
        'GET /account',
        'GET /readyz',
        'GET /v1/sessions',
        'GET /manifest.webmanifest',
        'GET /sw.js',
      ]),
    );
    const probes = new Map<string, Probe>();
    for (const pattern of patterns) {
      const [method, route] = pattern.split(' ') as [string, string];
      const path = route
        .replace(':token', token)
        .replace(/:[A-Za-z]+/g, 'x')
        .replace(/\*$/, 'x');
      for (const m of method === 'ALL' ? ['GET', 'POST'] : [method]) {
        probes.set(`${m} ${path}`, { method: m, path, ...(m === 'POST' ? { body: 'x=1' } : {}) });
      }
    }
    // The errors of the answer pages: a wait that returns at once, a body too large, one not a form.
    const extras: Probe[] = [
      { method: 'GET', path: `/s/${token}/wait?revision=1&state=expired` },
      { method: 'POST', path: `/s/${token}`, body: `x=${'a'.repeat(1024 * 1024)}` },
      { method: 'POST', path: `/s/${token}`, body: '{}', type: 'application/json' },
    ];
    // Reading a live session moves its last-seen time once a minute: past that, a read would show.
    server.clock.advance(120_000);
    const seenBefore = await lastSeen();
    let served = 0;
    for (const probe of [...probes.values(), ...extras]) {
      const what = `${probe.method} ${probe.path.slice(0, 80)}`;
      const init = { method: probe.method, body: probe.body, type: probe.type };
      const anonymous = await request(linkUrl, probe.path, init);
      const withSession = await request(linkUrl, probe.path, { ...init, cookie: signedIn });
      const jsonWithSession = await request(linkUrl, probe.path, { ...init, cookie: signedIn, accept: 'application/json' });
      for (const answer of [anonymous, withSession, jsonWithSession]) {
        expect(answer.setCookies, what).toEqual([]);
        expect(answer.text, what).not.toContain(person.email);
      }
      if (servedOnLink(probe.method, probe.path.split('?')[0]!)) {
        served++;
        const onPublic = await request(publicUrl, probe.path, init);
        for (const answer of [anonymous, withSession]) {
          expect(answer.text, what).not.toContain(refusal());
          expect([answer.status, answer.type], what).toEqual([onPublic.status, onPublic.type]);
        }
      } else {
        for (const answer of [anonymous, withSession]) {
          expect(answer.status, what).toBe(404);
          expect(answer.type, what).toMatch(/^text\/html/);
          expect(answer.text, what).toContain(refusal());
        }
        expect(jsonWithSession.status, what).toBe(404);
        expect(JSON.parse(jsonWithSession.text), what).toEqual({
          error: { code: 'NOT_FOUND', message: refusal(), retryable: false },
        });
      }
    }
    expect(served).toBe(13);
    expect(await lastSeen()).toBe(seenBefore);
    // The same cookie on PUBLIC_URL is read (and touched): the check above could see a read.
    expect((await request(publicUrl, '/account', { cookie: signedIn })).status).toBe(200);
    expect(await lastSeen()).toBe(server.clock.now().toISOString());
  });

  it('the answer page references only what the link origin serves, and no web app; answering with a session cookie sets none', async () => {
    const created = (await (await v1('POST', '/v1/sessions', { interaction: sampleSurface() })).json()) as { humanUrl: string };
    const link = new URL(created.humanUrl);
    server.clock.advance(120_000);
    const seenBefore = await lastSeen();
    const references = async (html: string) => {
      expect(html).not.toMatch(/rel="(manifest|icon|apple-touch-icon)"|serviceWorker|\/sw\.js/);
      const paths: string[] = [];
      for (const [, reference] of html.matchAll(/\s(?:href|src)="([^"#][^"]*)"/g)) {
        const url = new URL(reference!.replaceAll('&amp;', '&'), linkUrl);
        expect(url.origin, reference).toBe(new URL(linkUrl).origin);
        const got = await request(linkUrl, `${url.pathname}${url.search}`, { cookie: signedIn });
        expect(got.status, url.pathname).toBeLessThan(400);
        // No session or credential: at most the language a picker link chose (a preference).
        const expected = url.searchParams.has('lang') ? [expect.stringMatching(/^sess_lang=[a-z]{2}; /)] : [];
        expect(got.setCookies, url.pathname).toEqual(expected);
        paths.push(url.pathname);
      }
      return paths;
    };
    const open = await request(linkUrl, link.pathname, { cookie: signedIn });
    expect(open.status).toBe(200);
    expect(await references(open.text)).toContain(STYLESHEET_PATH);

    const form = findForm(open.text, link.pathname);
    const body = new URLSearchParams(form.fields);
    body.set('message', 'Ship it');
    const buttonName = Object.keys(form.buttons)[0]!;
    body.set(buttonName, form.buttons[buttonName]![0]!);
    const answered = await request(linkUrl, link.pathname, { method: 'POST', body, cookie: signedIn });
    expect(answered.status).toBe(303);
    expect(answered.setCookies).toEqual([]);
    const done = await request(linkUrl, link.pathname, { cookie: signedIn });
    expect(done.status).toBe(200);
    // The done page offers the receipt: a download on the link origin.
    expect(await references(done.text)).toContain(`${link.pathname}/receipt`);
    expect(done.text).not.toContain(person.email);
    expect(await lastSeen()).toBe(seenBefore);
  });

  it('the one cookie it sets is an Ask’s sess_respondent, scoped to the Ask’s path, and it is still read next to a session cookie', async () => {
    const ask = (await (await v1('POST', '/v1/asks', sampleAskArguments({ max: 2 }))).json()) as { humanUrl: string };
    const askPath = new URL(ask.humanUrl).pathname;
    const landing = await request(linkUrl, askPath, { cookie: signedIn });
    expect(landing.status).toBe(200);
    const startForm = findForm(landing.text, `${askPath}/start`);
    const started = await request(linkUrl, `${askPath}/start`, {
      method: 'POST',
      body: new URLSearchParams(startForm.fields),
      cookie: signedIn,
    });
    expect(started.status).toBe(303);
    expect(started.setCookies).toHaveLength(1);
    const [, own] = /^sess_respondent=([A-Za-z0-9_-]+);/.exec(started.setCookies[0]!) ?? [];
    expect(started.setCookies[0]).toMatch(
      new RegExp(`^sess_respondent=${own}; Path=${askPath}; Max-Age=\\d+; HttpOnly; SameSite=Lax$`),
    );
    expect(started.location).toBe(`/s/${own}`);
    // Back on the Ask's link with both cookies: the page's own still sends this browser to its page.
    const again = await request(linkUrl, askPath, { cookie: `${signedIn}; sess_respondent=${own}` });
    expect(again.status).toBe(303);
    expect(again.location).toBe(`/s/${own}`);
    expect(again.setCookies).toEqual([]);
  });
});

describe('/mcp with a Host it does not serve', () => {
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  const mcpHeaders = (bearer: string) => ({
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${bearer}`,
  });

  it('403 names the hosts it serves and PUBLIC_URL, and the refused Host is logged', async () => {
    const port = new URL(server.url).port;
    const refused = await withHost('evil.example', '/mcp', {
      method: 'POST',
      headers: mcpHeaders(workspace.apiKey),
      body: initialize,
    });
    expect(refused.status).toBe(403);
    expect(refused.headers['cache-control']).toBe('no-store');
    const message = (JSON.parse(refused.text) as { error: { message: string } }).error.message;
    expect(message).toBe(
      `Forbidden: Host 'evil.example' is not served here; this server answers for localhost:${port}, localhost, [::1]. localhost:${port} is PUBLIC_URL's host: set PUBLIC_URL to the address your client uses.`,
    );
    expect(server.logs).toContainEqual(expect.objectContaining({ event: 'mcp.http.wrong_host', host: 'evil.example' }));
  });

  it('a long Host is cut to 100 characters in the answer and the log', async () => {
    const long = `${'a'.repeat(250)}.example`;
    const refused = await withHost(long, '/mcp', { method: 'POST', headers: mcpHeaders(workspace.apiKey), body: initialize });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain(`Host '${'a'.repeat(100)}…' is not served here`);
    expect(server.logs).toContainEqual(expect.objectContaining({ event: 'mcp.http.wrong_host', host: `${'a'.repeat(100)}…` }));
  });

  it('the other loopback names are still served outside production', async () => {
    const served = await withHost('localhost', '/mcp', {
      method: 'POST',
      headers: mcpHeaders(workspace.apiKey),
      body: initialize,
    });
    expect(served.status).toBe(200);
  });
});
