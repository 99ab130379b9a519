import {
  CookieJar,
  completeAuthorization,
  createTestUser,
  createTestWorkspace,
  findForm,
  signInTestUser,
  type TestUser,
} from '@sess/testkit';
import {
  authorizeUrl,
  credentials,
  issuedFor,
  type OAuthTestServer,
  registerPublicClient,
  startOAuthTestServer,
} from '@sess/testkit/oauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: OAuthTestServer;
let user: TestUser;
let client: { clientId: string; redirectUri: string };
let signedIn: CookieJar;

beforeAll(async () => {
  server = await startOAuthTestServer();
  user = await createTestUser(server.database.db);
  const registered = await registerPublicClient(server, ['https://app.example/cb', 'http://localhost/callback']);
  client = { clientId: registered.clientId, redirectUri: 'https://app.example/cb' };
  signedIn = new CookieJar();
  const { cookie } = await signInTestUser(server.database.db, user.userId, server.clock.now());
  const [name, value] = cookie.split('=');
  signedIn.cookies.set(name!, value!);
});
afterAll(async () => server.close());

/** GET an authorization URL as the signed-in person, without following redirects. */
async function visit(url: string, jar = signedIn) {
  const response = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
  return {
    status: response.status,
    location: response.headers.get('location'),
    headers: response.headers,
    html: await response.text(),
  };
}

describe('errors before the redirect URI is trusted are shown on a page, never redirected', () => {
  it.each([
    ['unknown client_id', { client_id: 'cli_doesnotexist' }, 'not registered'],
    ['no client_id', { client_id: undefined }, 'no client_id'],
    [
      'an unregistered redirect_uri, with an error elsewhere too',
      { redirect_uri: 'https://evil.example/cb', response_type: 'token' },
      'not one this app registered',
    ],
    ['no redirect_uri while several are registered', { redirect_uri: undefined }, 'no redirect_uri'],
    ['client_id twice', { client_id: undefined, 'client_id&client_id': 'x' }, 'client_id'],
  ] as const)('%s', async (_name, overrides, text) => {
    let url = authorizeUrl(server, client, overrides as Record<string, string | undefined>);
    if ('client_id&client_id' in overrides) url += `&client_id=${client.clientId}&client_id=${client.clientId}`;
    const { status, location, html, headers } = await visit(url);
    expect(status).toBe(400);
    expect(location).toBeNull();
    expect(headers.get('content-type')).toMatch(/^text\/html/);
    expect(html).toContain(text);
    expect(html).not.toContain('evil.example');
    expect(await issuedFor(server.database.db, client.clientId)).toMatchObject({ codes: 0 });
  });
});

describe('redirect URI parser tricks never match a registration', () => {
  it.each([
    'https://app.example/cb/',
    'https://app.example/cb?extra=1',
    'https://app.example:443/cb',
    'https://APP.EXAMPLE/cb',
    'HTTPS://app.example/cb',
    'https://app.example/x/../cb',
    'https://app.example/./cb',
    'https://user@app.example/cb',
    'https://app.example.evil.example/cb',
    'http://app.example/cb',
    'https://app.example:8443/cb',
    'http://LOCALHOST:5000/callback',
    'http://127.0.0.1:5000/callback',
    'http://127.000.000.001:5000/callback',
    'http://localhost:5000/x/../callback',
    'http://user@localhost:5000/callback',
    'http://localhost:5000/callback#frag',
  ])('%s → error page, no redirect', async (redirectUri) => {
    const { status, location, html } = await visit(authorizeUrl(server, { ...client, redirectUri }));
    expect(status).toBe(400);
    expect(location).toBeNull();
    expect(html).toContain('not one this app registered');
  });

  it('a loopback registration matches any port (RFC 8252 §7.3)', async () => {
    const { status, html } = await visit(authorizeUrl(server, { ...client, redirectUri: 'http://localhost:49152/callback' }));
    expect(status).toBe(200);
    expect(html).toContain('Allow');
  });
});

describe('errors after the redirect URI is trusted go back to it with state and iss', () => {
  it.each([
    ['PKCE missing', { code_challenge: undefined, code_challenge_method: undefined }, 'invalid_request'],
    ['PKCE plain', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['PKCE method missing (would mean plain)', { code_challenge_method: undefined }, 'invalid_request'],
    ['a challenge that is not a SHA-256', { code_challenge: 'short' }, 'invalid_request'],
    ['response_type token', { response_type: 'token' }, 'unsupported_response_type'],
    ['no response_type', { response_type: undefined }, 'invalid_request'],
    ['resource for another audience', { resource: 'https://other.example/mcp' }, 'invalid_target'],
    ['resource on our origin but another path', { resource: `PLACEHOLDER/other` }, 'invalid_target'],
    ['a malformed scope', { scope: 'sess:interact "x"' }, 'invalid_scope'],
    ['prompt=none (consent is always asked)', { prompt: 'none' }, 'consent_required'],
  ] as const)('%s → %s', async (_name, overrides, error) => {
    const fixed = Object.fromEntries(
      Object.entries(overrides).map(([k, v]) => [k, typeof v === 'string' ? v.replace('PLACEHOLDER', server.url) : v]),
    );
    const { status, location } = await visit(authorizeUrl(server, client, fixed));
    expect(status).toBe(303);
    const callback = new URL(location!);
    expect(`${callback.origin}${callback.pathname}`).toBe('https://app.example/cb');
    expect(callback.searchParams.get('error')).toBe(error);
    expect(callback.searchParams.get('state')).toBe('state-123');
    expect(callback.searchParams.get('iss')).toBe(server.url);
    expect(callback.searchParams.get('code')).toBeNull();
    expect(await issuedFor(server.database.db, client.clientId)).toMatchObject({ codes: 0 });
  });

  it('resource: our own in upper-case scheme/host is accepted; a trailing slash is another resource', async () => {
    const upper = server.url.replace('http://', 'HTTP://').replace('127.0.0.1', '127.0.0.1');
    expect((await visit(authorizeUrl(server, client, { resource: `${upper}/mcp` }))).status).toBe(200);
    const slash = await visit(authorizeUrl(server, client, { resource: `${server.url}/mcp/` }));
    expect(new URL(slash.location!).searchParams.get('error')).toBe('invalid_target');
  });

  it('a missing state is not invented: the error comes back without one', async () => {
    const { location } = await visit(authorizeUrl(server, client, { state: undefined, code_challenge_method: 'plain' }));
    const callback = new URL(location!);
    expect(callback.searchParams.get('error')).toBe('invalid_request');
    expect(callback.searchParams.has('state')).toBe(false);
    expect(callback.searchParams.get('iss')).toBe(server.url);
  });

  it('a repeated parameter is refused', async () => {
    const { location } = await visit(`${authorizeUrl(server, client)}&scope=sess:interact`);
    expect(new URL(location!).searchParams.get('error')).toBe('invalid_request');
  });

  it('prompt=none when not signed in → login_required', async () => {
    const { location } = await visit(authorizeUrl(server, client, { prompt: 'none' }), new CookieJar());
    expect(new URL(location!).searchParams.get('error')).toBe('login_required');
  });
});

describe('sign-in, then consent', () => {
  it('a person who is not signed in is sent to /signin with return_to, then comes back to the consent page', async () => {
    const url = authorizeUrl(server, client);
    const first = await visit(url, new CookieJar());
    expect(first.status).toBe(303);
    const signin = new URL(first.location!, server.url);
    expect(signin.pathname).toBe('/signin');
    expect(signin.searchParams.get('return_to')).toBe(url.slice(server.url.length));
    const outcome = await completeAuthorization({ baseUrl: server.url, authorizationUrl: url, user: credentials(user) });
    expect(outcome.consentHtml).toContain('Allow');
    expect(outcome.callback!.searchParams.get('code')).toBeTruthy();
  });

  it('the consent page names the client (unverified), the redirect host, what it may do, and cannot be framed', async () => {
    const { status, html, headers } = await visit(authorizeUrl(server, client));
    expect(status).toBe(200);
    expect(html).toContain('Test app');
    expect(html).toContain('(unverified name)');
    expect(html).toContain('app.example');
    expect(html).toContain('Send you forms and questions');
    expect(html).toContain(user.email);
    expect(headers.get('x-frame-options')).toBe('DENY');
    const csp = headers.get('content-security-policy')!;
    expect(csp).toContain("frame-ancestors 'none'");
    // Chrome applies form-action to the redirect after the post: our origin and the client's target only.
    expect(csp).toContain("form-action 'self' https://app.example;");
    expect(headers.get('cache-control')).toBe('no-store');
  });

  it('a loopback redirect gets a warning and a form-action for that port', async () => {
    const { html, headers } = await visit(authorizeUrl(server, { ...client, redirectUri: 'http://localhost:49152/callback' }));
    expect(html).toContain('sends you back to this computer');
    expect(headers.get('content-security-policy')).toContain("form-action 'self' http://localhost:49152;");
  });

  it('a person in several workspaces picks one; the grant is in that workspace', async () => {
    const person = await createTestUser(server.database.db);
    const team = await createTestWorkspace(server.database.db, { userId: person.userId, name: 'Team Rocket' });
    const url = authorizeUrl(server, client);
    const outcome = await completeAuthorization({
      baseUrl: server.url,
      authorizationUrl: url,
      user: credentials(person),
      workspaceId: team.workspaceId,
    });
    expect(outcome.consentHtml).toContain('Team Rocket');
    const form = findForm(outcome.consentHtml!, '/oauth/authorize');
    expect(form.radios['workspace_id']!.values).toEqual([person.workspaceId, team.workspaceId]);
    expect(outcome.callback!.searchParams.get('code')).toBeTruthy();
  });
});

describe('the consent form', () => {
  async function consentForm(jar = signedIn) {
    const { html } = await visit(authorizeUrl(server, client), jar);
    return findForm(html, '/oauth/authorize');
  }
  async function post(fields: Record<string, string>, jar = signedIn) {
    const response = await fetch(`${server.url}/oauth/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() },
      body: new URLSearchParams(fields),
    });
    return { status: response.status, location: response.headers.get('location'), html: await response.text() };
  }

  it('without the CSRF token: refused on a page, nothing issued', async () => {
    const fresh = await registerPublicClient(server, ['https://app.example/cb']);
    const target = { clientId: fresh.clientId, redirectUri: 'https://app.example/cb' };
    const { html } = await visit(authorizeUrl(server, target));
    const form = findForm(html, '/oauth/authorize');
    for (const csrf of [undefined, '', 'forged']) {
      const fields: Record<string, string> = { ...form.fields, decision: 'allow' };
      if (csrf === undefined) delete fields._csrf;
      else fields._csrf = csrf;
      const result = await post(fields);
      expect(result.status).toBe(403);
      expect(result.location).toBeNull();
    }
    expect(await issuedFor(server.database.db, fresh.clientId)).toEqual({ grants: 0, codes: 0, refreshTokens: 0 });
  });

  it("a CSRF token from another request or another person's session does not work", async () => {
    const form = await consentForm();
    const other = await createTestUser(server.database.db);
    const otherJar = new CookieJar();
    const { cookie } = await signInTestUser(server.database.db, other.userId, server.clock.now());
    otherJar.cookies.set(cookie.split('=')[0]!, cookie.split('=')[1]!);
    expect((await post({ ...form.fields, decision: 'allow' }, otherJar)).status).toBe(403);
    const tampered = new URLSearchParams(form.fields['request']);
    tampered.set('state', 'another-state');
    expect((await post({ ...form.fields, request: tampered.toString(), decision: 'allow' })).status).toBe(403);
  });

  it('Deny sends access_denied with state and iss, and issues nothing', async () => {
    const fresh = await registerPublicClient(server, ['https://app.example/cb']);
    const outcome = await completeAuthorization({
      baseUrl: server.url,
      authorizationUrl: authorizeUrl(server, { clientId: fresh.clientId, redirectUri: 'https://app.example/cb' }),
      user: credentials(user),
      browser: signedIn,
      decision: 'deny',
    });
    expect(outcome.callback!.searchParams.get('error')).toBe('access_denied');
    expect(outcome.callback!.searchParams.get('state')).toBe('state-123');
    expect(outcome.callback!.searchParams.get('iss')).toBe(server.url);
    expect(await issuedFor(server.database.db, fresh.clientId)).toEqual({ grants: 0, codes: 0, refreshTokens: 0 });
  });

  it('another workspace (one the person is not in) is refused, nothing issued', async () => {
    const fresh = await registerPublicClient(server, ['https://app.example/cb']);
    const stranger = await createTestUser(server.database.db);
    const { html } = await visit(authorizeUrl(server, { clientId: fresh.clientId, redirectUri: 'https://app.example/cb' }));
    const form = findForm(html, '/oauth/authorize');
    const result = await post({ ...form.fields, workspace_id: stranger.workspaceId, decision: 'allow' });
    expect(result.status).toBe(400);
    expect(result.html).toContain('Choose one of your workspaces');
    expect(await issuedFor(server.database.db, fresh.clientId)).toEqual({ grants: 0, codes: 0, refreshTokens: 0 });
  });

  it('a post without a session is sent to sign in, and a post with neither Allow nor Deny is refused', async () => {
    const form = await consentForm();
    const anonymous = await post({ ...form.fields, decision: 'allow' }, new CookieJar());
    expect(anonymous.status).toBe(303);
    expect(anonymous.location).toMatch(/^\/signin\?return_to=/);
    expect((await post({ ...form.fields, decision: 'maybe' })).status).toBe(400);
  });

  it('a consent post whose request was altered to another redirect URI is shown a page, never redirected', async () => {
    const form = await consentForm();
    const altered = new URLSearchParams(form.fields['request']);
    altered.set('redirect_uri', 'https://evil.example/cb');
    const result = await post({ ...form.fields, request: altered.toString(), decision: 'allow' });
    expect(result.status).toBe(400);
    expect(result.location).toBeNull();
  });
});
