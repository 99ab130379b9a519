import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deleteClient, PINNED_CLIENT_METADATA_DOCUMENTS } from '@sess/oauth';
import { completeAuthorization, createPkcePair, createTestUser, type TestUser } from '@sess/testkit';
import {
  authorizeUrl,
  credentials,
  type OAuthTestServer,
  register,
  startOAuthTestServer,
  tokenRequest,
} from '@sess/testkit/oauth';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * What real clients do, one fixture each (from the clients' own code, issue trackers and users'
 * reports). Each fixture goes all the way to working tokens.
 */

let server: OAuthTestServer;
let user: TestUser;
let documents: Server;
let documentsUrl: string;
const served = new Map<string, unknown>();

beforeAll(async () => {
  server = await startOAuthTestServer();
  user = await createTestUser(server.database.db);
  documents = createServer((request, response) => {
    const document = served.get(request.url ?? '');
    response.writeHead(document ? 200 : 404, { 'content-type': 'application/json' });
    response.end(JSON.stringify(document ?? {}));
  });
  await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
  documentsUrl = `http://127.0.0.1:${(documents.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => documents.close(() => resolve()));
  await server.close();
});

/** authorize (as the client sends it) → sign in → Allow → callback → token request. */
async function connect(input: {
  clientId: string;
  redirectUri: string;
  clientSecret?: string;
  secretBy?: 'basic' | 'post';
  scope?: string | undefined;
  resource?: string | undefined;
}) {
  const pkce = createPkcePair();
  const url = authorizeUrl(
    server,
    { clientId: input.clientId, redirectUri: input.redirectUri, challenge: pkce.challenge, state: 'xyz' },
    {
      ...('scope' in input ? { scope: input.scope } : {}),
      ...('resource' in input ? { resource: input.resource } : {}),
    },
  );
  const outcome = await completeAuthorization({ baseUrl: server.url, authorizationUrl: url, user: credentials(user) });
  expect(outcome.callback, outcome.text).not.toBeNull();
  const callback = outcome.callback!;
  expect(`${callback.protocol}//${callback.host}${callback.pathname}`).toBe(new URL(input.redirectUri).href.split('?')[0]);
  expect(callback.searchParams.get('state')).toBe('xyz');
  expect(callback.searchParams.get('iss')).toBe(server.url);
  const params: Record<string, string> = {
    grant_type: 'authorization_code',
    code: callback.searchParams.get('code')!,
    code_verifier: pkce.verifier,
    redirect_uri: input.redirectUri,
  };
  const headers: Record<string, string> = {};
  if (input.clientSecret && input.secretBy === 'basic')
    headers.authorization = `Basic ${Buffer.from(`${input.clientId}:${input.clientSecret}`).toString('base64')}`;
  else params.client_id = input.clientId;
  if (input.clientSecret && input.secretBy !== 'basic') params.client_secret = input.clientSecret;
  const tokens = await tokenRequest(server, params, headers);
  expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
  return tokens.body as { access_token: string; refresh_token: string; scope: string; expires_in: number };
}

describe('Claude Code', () => {
  it('CIMD document with port-less loopback redirects, used from a random port (pinned copy when the fetch fails)', async () => {
    const clientId = 'https://claude.ai/oauth/claude-code-client-metadata';
    const tokens = await connect({ clientId, redirectUri: 'http://localhost:54321/callback' });
    expect(decodeJwt(tokens.access_token).client_id).toBe(clientId);
    // The test flag never fetches off the machine, so the live fetch failed and the pinned copy was used.
    expect(server.logs).toContainEqual(expect.objectContaining({ event: 'oauth.cimd.pinned_used', clientId, level: 'warn' }));
    // 127.0.0.1 form too, on another port.
    await connect({ clientId, redirectUri: 'http://127.0.0.1:61000/callback' });
  });
});

describe('claude.ai / Claude Desktop', () => {
  it('DCR with the claude.ai and claude.com callbacks, client_secret_post (as observed in 2026), scope=claudeai', async () => {
    const { status, body } = await register(server, {
      client_name: 'Claude',
      redirect_uris: ['https://claude.ai/api/mcp/auth_callback', 'https://claude.com/api/mcp/auth_callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    });
    expect(status).toBe(201);
    const clientSecret = body['client_secret'] as string;
    const tokens = await connect({
      clientId: body['client_id'] as string,
      clientSecret,
      secretBy: 'post',
      redirectUri: 'https://claude.ai/api/mcp/auth_callback',
      scope: 'claudeai',
    });
    expect(tokens.scope).toBe('sess:interact');
    await connect({
      clientId: body['client_id'] as string,
      clientSecret,
      secretBy: 'post',
      redirectUri: 'https://claude.com/api/mcp/auth_callback',
      scope: undefined,
    });
  });

  it('CIMD (pinned Claude document) with the claude.ai callback', async () => {
    const clientId = 'https://claude.ai/oauth/mcp-oauth-client-metadata';
    expect(PINNED_CLIENT_METADATA_DOCUMENTS.has(clientId)).toBe(true);
    await connect({ clientId, redirectUri: 'https://claude.ai/api/mcp/auth_callback' });
    expect(server.logs).toContainEqual(expect.objectContaining({ event: 'oauth.cimd.pinned_used', clientId }));
  });

  it('a deleted DCR client gets invalid_client with 401 (Claude then registers again)', async () => {
    const { body } = await register(server, {
      client_name: 'Claude',
      redirect_uris: ['https://claude.ai/api/mcp/auth_callback'],
      token_endpoint_auth_method: 'none',
    });
    const clientId = body['client_id'] as string;
    const tokens = await connect({ clientId, redirectUri: 'https://claude.ai/api/mcp/auth_callback' });
    await deleteClient(server.database.db, clientId);
    const refreshed = await tokenRequest(server, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    });
    expect(refreshed.status).toBe(401);
    expect(refreshed.body).toMatchObject({ error: 'invalid_client' });
    expect(refreshed.headers.get('content-type')).toMatch(/^application\/json/);
  });
});

describe('Cursor', () => {
  it('registers three redirect URIs in one DCR request and can use each', async () => {
    const redirectUris = [
      'cursor://anysphere.cursor-mcp/oauth/callback',
      'https://www.cursor.com/agents/mcp/oauth/callback',
      'http://localhost:8787/callback',
    ];
    const { status, body } = await register(server, {
      client_name: 'Cursor',
      redirect_uris: redirectUris,
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    });
    expect(status).toBe(201);
    expect(body['redirect_uris']).toEqual(redirectUris);
    for (const redirectUri of redirectUris) await connect({ clientId: body['client_id'] as string, redirectUri });
  });
});

describe('Cline', () => {
  it.each([
    'vscode://saoudrizwan.claude-dev/mcp-auth/callback/4a7b9c0d1e2f',
    'http://127.0.0.1:43117/mcp-auth/callback/4a7b9c0d1e2f',
  ])('DCR with %s, scope "openid profile" (older builds) granted as the supported subset', async (redirectUri) => {
    const { status, body } = await register(server, {
      client_name: 'Cline',
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      scope: 'openid profile',
    });
    expect(status).toBe(201);
    const tokens = await connect({ clientId: body['client_id'] as string, redirectUri, scope: 'openid profile' });
    expect(tokens.scope).toBe('sess:interact');
  });
});

describe('ChatGPT', () => {
  it('DCR with a per-connector callback https://chatgpt.com/connector/oauth/<id>', async () => {
    const redirectUri = 'https://chatgpt.com/connector/oauth/c_6f1e2d3c4b5a';
    const { body } = await register(server, {
      client_name: 'ChatGPT',
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: 'none',
    });
    const tokens = await connect({ clientId: body['client_id'] as string, redirectUri });
    expect(decodeJwt(tokens.access_token).aud).toBe(`${server.url}/mcp`);
  });

  it('CIMD with the stable https://chatgpt.com/connector_platform_oauth_redirect (we emit and advertise iss)', async () => {
    const clientId = `${documentsUrl}/oauth/chatgpt/client.json`;
    served.set('/oauth/chatgpt/client.json', {
      client_id: clientId,
      client_name: 'ChatGPT',
      redirect_uris: ['https://chatgpt.com/connector_platform_oauth_redirect'],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    });
    await connect({ clientId, redirectUri: 'https://chatgpt.com/connector_platform_oauth_redirect' });
  });
});

describe('Grok', () => {
  it('DCR public client with https://grok.com/connectors-oauth-exchange-code/, no resource parameter (legacy)', async () => {
    const redirectUri = 'https://grok.com/connectors-oauth-exchange-code/';
    const { body } = await register(
      server,
      { client_name: 'Grok', redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' },
      '/register',
    );
    const tokens = await connect({ clientId: body['client_id'] as string, redirectUri, resource: undefined });
    expect(decodeJwt(tokens.access_token).aud).toBe(`${server.url}/mcp`);
  });
});

describe('refresh tokens', () => {
  it('are issued without offline_access, and a client that asks for every listed scope gets them', async () => {
    const { body } = await register(server, {
      redirect_uris: ['https://app.example/cb'],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code'],
    });
    const tokens = await connect({
      clientId: body['client_id'] as string,
      redirectUri: 'https://app.example/cb',
      scope: 'sess:interact',
    });
    expect(tokens.refresh_token).toMatch(/^sess_rt_/);
    const refreshed = await tokenRequest(server, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: body['client_id'] as string,
    });
    expect(refreshed.status).toBe(200);
  });
});
