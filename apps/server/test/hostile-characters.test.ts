import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

import { csrfToken, hashSecret } from '@sess/core';
import { queryRows } from '@sess/db';
import {
  CookieJar,
  createTestUser,
  createWorkspaceWithKey,
  findForm,
  sampleSurface,
  signInAndAuthorize,
  TEST_SECRET,
  type TestUser,
  type TestWorkspace,
} from '@sess/testkit';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppServer, startAppServer } from './support/app-server.ts';

/*
 * Characters PostgreSQL cannot store (NUL, an unpaired surrogate) and the ones Sess refuses
 * (controls, noncharacters, bidirectional controls in agent text), thrown at every face that
 * takes text: /v1, the MCP tools, the answer page, OAuth (registration, authorize, token,
 * revoke) and the account forms. Every answer is a clean refusal — never a 5xx, never a
 * retryable error for input that can never succeed — and nothing is written.
 */

const IN_JSON: Array<[string, string]> = [
  ['NUL', '\u0000'],
  ['an unpaired surrogate', '\uD800'],
  ['ESC', '\u001B'],
  ['a noncharacter', '\uFFFF'],
  ['a right-to-left override', '\u202E'],
];
// What a URL or a form post can carry: percent-encoded NUL and ESC, and an encoded lone
// surrogate (invalid UTF-8, which decoders turn into U+FFFD or refuse).
const IN_URL: Array<[string, string]> = [
  ['NUL', '%00'],
  ['ESC', '%1B'],
  ['an encoded lone surrogate', '%ED%A0%80'],
];

let server: AppServer;
let workspace: TestWorkspace;
let user: TestUser;
let mcp: Client;

beforeAll(async () => {
  server = await startAppServer();
  workspace = await createWorkspaceWithKey(server.database.db, { plan: 'enterprise' });
  user = await createTestUser(server.database.db);
  const authorized = await signInAndAuthorize({ baseUrl: server.url, user });
  mcp = new Client({ name: 'hostile-characters', version: '1' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${authorized.tokens.accessToken}` } },
    }),
  );
});
afterAll(async () => {
  await mcp?.close();
  await server?.close();
});

async function count(table: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(server.database.db, sql`select count(*)::int as n from ${sql.identifier(table)}`);
  return Number(row!.n);
}

/** Every row count a refused request must leave alone. */
async function snapshot() {
  const tables = ['form_sessions', 'form_revisions', 'form_answers', 'mcp_handles', 'oauth_clients', 'api_keys', 'users'];
  return Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await count(t)] as const)));
}

function expectNoServerError(response: Response, what: string) {
  expect(response.status, `${what} answered ${response.status}`).toBeLessThan(500);
}

describe('/v1', () => {
  const v1 = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${workspace.apiKey}`,
        'content-type': 'application/json',
        'idempotency-key': crypto.randomUUID(),
        ...headers,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it.each(IN_JSON)('a create with %s in the title is INVALID_ARGUMENTS at /interaction/title, not retryable', async (_, bad) => {
    const before = await snapshot();
    const response = await v1('/v1/sessions', { interaction: { ...sampleSurface(), title: `Approve${bad}` } });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { code: string; field: string; retryable: boolean } };
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/interaction/title', retryable: false });
    expect(await snapshot()).toEqual(before);
  });

  it('a create with an escaped NUL written raw in the JSON text is refused the same way', async () => {
    const text = JSON.stringify({ interaction: sampleSurface() }).replace('Approve this commit?', 'Approve\\u0000');
    const response = await v1('/v1/sessions', text);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { field: string } }).error.field).toBe('/interaction/title');
  });

  it.each(IN_JSON)('an Ask with %s in a choice option is refused at its pointer', async (_, bad) => {
    const response = await v1('/v1/asks', {
      question: 'Where to?',
      fields: [{ name: 'place', label: 'Place', type: 'choice', options: ['Beach', `City${bad}`] }],
      respondents: { max: 2 },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { field: string } }).error.field).toBe('/fields/0/options/1');
  });

  it.each(IN_URL)('%s in an id or a query parameter is a clean 4xx', async (_, bad) => {
    const auth = { authorization: `Bearer ${workspace.apiKey}` };
    for (const path of [
      `/v1/sessions/ses_${bad}`,
      `/v1/asks/ask_${bad}`,
      `/v1/sessions?cursor=${bad}`,
      `/v1/sessions?status=${bad}`,
    ]) {
      const response = await fetch(`${server.url}${path}`, { headers: auth });
      expectNoServerError(response, path);
      expect(response.status).toBeGreaterThanOrEqual(400);
    }
  });
});

describe('MCP tools', () => {
  const toolError = (result: unknown) =>
    (result as { isError?: boolean; structuredContent: { error: { code: string; field?: string; retryable: boolean } } })
      .structuredContent.error;

  it.each(IN_JSON)('sess_ask with %s in the question is INVALID_ARGUMENTS at /question, not retryable', async (_, bad) => {
    const before = await snapshot();
    const result = await mcp.callTool({
      name: 'sess_ask',
      arguments: { question: `Ready${bad}?`, fields: [{ name: 'ok', label: 'OK?', type: 'boolean' }] },
    });
    expect(toolError(result)).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/question', retryable: false });
    expect(await snapshot()).toEqual(before);
  });

  it.each(IN_JSON)('sess_request with %s in a record key names the record, not retryable', async (_, bad) => {
    const surface = sampleSurface();
    (surface.source.components[0] as { fields: Record<string, string> }).fields = { [`file${bad}`]: 'changed' };
    const result = await mcp.callTool({ name: 'sess_request', arguments: { interaction: surface } });
    expect(toolError(result)).toMatchObject({
      code: 'INVALID_ARGUMENTS',
      field: '/interaction/source/components/0/fields',
      retryable: false,
    });
  });

  it.each(IN_JSON)('%s in a handle, a cursor or an event id is a clean refusal, not retryable', async (_, bad) => {
    const calls = [
      { name: 'sess_response', arguments: { handle: `hdl_${bad}`, revision: 1 } },
      { name: 'sess_cancel', arguments: { handle: `hdl_${bad}` } },
      { name: 'sess_list', arguments: { cursor: `c${bad}` } },
      { name: 'sess_complete', arguments: { handle: `hdl_${bad}`, expected_revision: 1, response_event_id: `evt_${bad}` } },
    ];
    for (const call of calls) {
      const error = toolError(await mcp.callTool(call));
      expect(error.retryable, `${call.name}: ${JSON.stringify(error)}`).toBe(false);
      expect(['INVALID_ARGUMENTS', 'HANDLE_NOT_FOUND']).toContain(error.code);
    }
  });
});

describe('the answer page', () => {
  it.each(IN_URL)('%s in a link is the plain 404 page', async (_, bad) => {
    const response = await fetch(`${server.url}/s/${bad}`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('text/html');
  });
});

describe('OAuth', () => {
  const register = (metadata: Record<string, unknown>) =>
    fetch(`${server.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/callback'], token_endpoint_auth_method: 'none', ...metadata }),
    });

  it.each(IN_JSON)(
    'registration with %s in client_name is invalid_client_metadata naming it; nothing is stored',
    async (_, bad) => {
      const before = await snapshot();
      const response = await register({ client_name: `App${bad}` });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: string; error_description: string };
      expect(body.error).toBe('invalid_client_metadata');
      expect(body.error_description).toContain('client_name');
      expect(await snapshot()).toEqual(before);
    },
  );

  it.each(IN_JSON)('registration with %s in a redirect URI or another field is refused', async (_, bad) => {
    for (const metadata of [
      { redirect_uris: [`http://127.0.0.1:9/cb${bad}`] },
      { client_uri: `https://app.example/${bad}` },
      { contacts: [`a${bad}@example.com`] },
      { software_id: `id${bad}` },
    ]) {
      const response = await register(metadata);
      expect(response.status, JSON.stringify(metadata)).toBe(400);
      expect(((await response.json()) as { error: string }).error).toBe('invalid_client_metadata');
    }
  });

  it.each(IN_URL)(
    '%s in client_id or redirect_uri is a 400 page; in any other parameter an invalid_request back to the verified redirect URI',
    async (_, bad) => {
      const registered = (await (await register({ client_name: 'Probe' })).json()) as { client_id: string };
      const base = {
        response_type: 'code',
        client_id: registered.client_id,
        redirect_uri: 'http://127.0.0.1:9/callback',
        code_challenge: 'x'.repeat(43),
        code_challenge_method: 'S256',
        state: 'st',
        scope: 'sess:interact',
        resource: `${server.url}/mcp`,
      };
      const before = await snapshot();
      for (const name of Object.keys(base)) {
        const query = Object.entries(base)
          .map(([k, v]) => `${k}=${encodeURIComponent(v)}${k === name ? bad : ''}`)
          .join('&');
        const response = await fetch(`${server.url}/oauth/authorize?${query}`, { redirect: 'manual' });
        expectNoServerError(response, `authorize with a bad ${name}`);
        if (name === 'client_id' || name === 'redirect_uri') {
          // Before the redirect URI is verified, an error is a page, never a redirect.
          expect(response.status, `authorize with a bad ${name}`).toBe(400);
          expect(response.headers.get('location')).toBeNull();
        } else {
          expect([302, 303], `authorize with a bad ${name}`).toContain(response.status);
          const location = new URL(response.headers.get('location')!, server.url);
          if (bad === '%ED%A0%80' && location.pathname === '/signin') continue; // U+FFFD passed every check
          expect(`${location.origin}${location.pathname}`).toBe('http://127.0.0.1:9/callback');
          // NUL and ESC are refused as such; an invalid UTF-8 sequence decodes to U+FFFD, which is
          // a character like any other, so the parameter's own check answers (or sign-in is asked).
          const error = location.searchParams.get('error');
          if (bad === '%ED%A0%80') expect(error, `authorize with a bad ${name}`).toBeTruthy();
          else expect(error, `authorize with a bad ${name}`).toBe('invalid_request');
          expect(location.searchParams.get('code')).toBeNull();
        }
      }
      expect(await snapshot()).toEqual(before);
    },
  );

  it.each(IN_URL)('%s in any token or revocation parameter is a 4xx JSON error', async (_, bad) => {
    const forms = [
      `grant_type=authorization_code&code=c${bad}&code_verifier=${'v'.repeat(43)}&client_id=x&redirect_uri=http://127.0.0.1:9/callback`,
      `grant_type=authorization_code&code=c&code_verifier=${'v'.repeat(43)}&client_id=x${bad}`,
      `grant_type=refresh_token&refresh_token=r${bad}&client_id=x`,
      `grant_type=authorization_code${bad}`,
    ];
    for (const body of forms) {
      const response = await fetch(`${server.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      expectNoServerError(response, body);
      expect(response.headers.get('content-type')).toContain('application/json');
    }
    const revoked = await fetch(`${server.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=t${bad}&client_id=x${bad}`,
    });
    expectNoServerError(revoked, 'revoke');
  });
});

describe('account pages', () => {
  /** Loads `page` in a fresh (or the given) cookie jar and posts its form to `action` with `fields`. */
  async function submit(page: string, action: string, fields: Record<string, string>, jar = new CookieJar()) {
    const loaded = await fetch(`${server.url}${page}`, { headers: { cookie: jar.header() } });
    jar.store(loaded);
    const form = findForm(await loaded.text(), action);
    const response = await fetch(`${server.url}${action}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() },
      body: new URLSearchParams({ ...form.fields, ...fields }),
    });
    jar.store(response);
    return response;
  }

  it.each(IN_JSON.filter(([name]) => name !== 'an unpaired surrogate'))(
    'sign-in and sign-up with %s in the e-mail answer with the page and an error, never a 500',
    async (_, bad) => {
      const before = await snapshot();
      const signIn = await submit('/signin', '/signin', { email: `a${bad}@example.com`, password: 'correct horse battery' });
      expectNoServerError(signIn, 'sign-in');
      expect(signIn.status).toBeGreaterThanOrEqual(400);
      const signUp = await submit('/signup', '/signup', { email: `new${bad}@example.com`, password: 'correct horse battery' });
      expect(signUp.status).toBe(400);
      expect(await signUp.text()).toContain('Enter an email address such as name@example.com.');
      expect(await snapshot()).toEqual(before);
    },
  );

  it.each(IN_JSON.filter(([name]) => name !== 'an unpaired surrogate'))(
    'an API key named with %s is refused on the page; no key is made',
    async (_, bad) => {
      const jar = new CookieJar();
      const signedIn = await submit('/signin', '/signin', { email: user.email, password: user.password }, jar);
      expect(signedIn.status).toBe(303);
      const before = await snapshot();
      const response = await submit('/account/keys', '/account/keys', { name: `Laptop${bad}` }, jar);
      expect(response.status).toBe(400);
      expect(await snapshot()).toEqual(before);
    },
  );

  it.each(IN_URL)('%s in the id of a key, an app or an interaction to act on is a clean refusal', async (_, bad) => {
    const jar = new CookieJar();
    expect((await submit('/signin', '/signin', { email: user.email, password: user.password }, jar)).status).toBe(303);
    // The forms' CSRF tokens, made as the pages make them (one per purpose and browser session).
    const [row] = await queryRows<{ id: string }>(
      server.database.db,
      sql`select id from browser_sessions where token_hash = ${hashSecret(jar.cookies.get('sess_session')!)}`,
    );
    const csrf = (purpose: string) => csrfToken(TEST_SECRET, row!.id, purpose);
    const before = await snapshot();
    const posts: Array<[string, string]> = [
      [`/account/keys/key_${bad}/revoke`, `_csrf=${csrf('api-keys:revoke')}`],
      ['/account/apps/disconnect', `_csrf=${csrf('oauth:disconnect')}&app=dcr:App${bad}&workspace_id=ws_${bad}`],
      ['/account/interactions/retire', `_csrf=${csrf('mcp:retire')}&handle=hdl_${bad}`],
    ];
    for (const [path, body] of posts) {
      const response = await fetch(`${server.url}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() },
        body,
      });
      // Past the CSRF check (403 would mean the request never reached the id), refused cleanly.
      expect([303, 400, 404], `${path} answered ${response.status}`).toContain(response.status);
    }
    expect(await snapshot()).toEqual(before);
  });

  it.each(IN_URL)('%s in return_to or a query parameter still serves the page', async (_, bad) => {
    for (const path of [`/signin?return_to=/account${bad}`, `/signup?token=t${bad}`, `/signin?return_to=${bad}`]) {
      const response = await fetch(`${server.url}${path}`, { redirect: 'manual' });
      expectNoServerError(response, path);
    }
  });
});
