import { request as httpRequest } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createRemoteKeySet, verifyReceipt } from '@sess/receipts';
import { createWorkspaceWithKey, findForm, sampleAskArguments, sampleSurface, type TestWorkspace } from '@sess/testkit';
import { type AppServer, startAppServer } from '@sess/testkit/app-server';
import { STYLESHEET_PATH } from '@sess/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOnPage } from './support/answer-page.ts';

/*
 * Two origins on one process: agents reach PUBLIC_URL (http://localhost:<port>) while answer
 * links point at SESS_LINK_URL (http://127.0.0.1:<port>, standing in for a LAN address). The
 * link Host serves the answer pages and nothing else; receipts keep PUBLIC_URL as their issuer.
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
