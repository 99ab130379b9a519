import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAccessTokenVerifier } from '@sess/oauth';
import { completeAuthorization, createTestOAuthClient, createTestUser, signInAndAuthorize } from '@sess/testkit';
import { credentials, type OAuthTestServer, startOAuthTestServer } from '@sess/testkit/oauth';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Plain http on 127.0.0.1: oauth4webapi refuses it unless told, request by request.
const insecure = { [oauth.allowInsecureRequests]: true } as const;
const REDIRECT = 'http://127.0.0.1:9/callback';

let server: OAuthTestServer;
let documents: Server;
let documentsUrl: string;
const served = new Map<string, unknown>();

beforeAll(async () => {
  server = await startOAuthTestServer();
  documents = createServer((request, response) => {
    const document = served.get(request.url ?? '');
    response.writeHead(document ? 200 : 404, { 'content-type': 'application/json', 'cache-control': 'max-age=300' });
    response.end(document ? JSON.stringify(document) : '{}');
  });
  await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
  documentsUrl = `http://127.0.0.1:${(documents.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => documents.close(() => resolve()));
  await server.close();
});

/** Discovery the strict way: resource metadata first, then the AS metadata it names. */
async function discover() {
  const resource = new URL(`${server.url}/mcp`);
  const rs = await oauth.processResourceDiscoveryResponse(resource, await oauth.resourceDiscoveryRequest(resource, insecure));
  expect(rs.authorization_servers).toEqual([server.url]);
  const issuer = new URL(rs.authorization_servers![0]!);
  const as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
  );
  return { resource, as };
}

/** authorize → sign in → Allow (form posts) → validated callback → code exchange. */
async function authorizeAndExchange(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  clientAuth: oauth.ClientAuth,
  redirectUri: string,
  resource: URL,
  user: { email: string; password: string },
) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.searchParams.set('client_id', client.client_id);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', as.scopes_supported!.join(' '));
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('resource', resource.href);
  const outcome = await completeAuthorization({ baseUrl: server.url, authorizationUrl: url.href, user });
  expect(outcome.callback, outcome.text).not.toBeNull();
  // Checks state and iss (RFC 9207) exactly, and that no error came back.
  const params = oauth.validateAuthResponse(as, client, outcome.callback!, state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, redirectUri, verifier, {
    additionalParameters: { resource: resource.href },
    ...insecure,
  });
  expect(response.headers.get('cache-control')).toBe('no-store');
  return oauth.processAuthorizationCodeResponse(as, client, response);
}

describe('the whole flow with oauth4webapi as a strict client', () => {
  it('discovers, registers (DCR), signs in, allows, exchanges, refreshes and revokes', async () => {
    const user = await createTestUser(server.database.db);
    const { resource, as } = await discover();
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    expect(as.authorization_response_iss_parameter_supported).toBe(true);
    const registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        {
          client_name: 'Strict client',
          redirect_uris: [REDIRECT],
          token_endpoint_auth_method: 'none',
          application_type: 'native',
          grant_types: ['authorization_code', 'refresh_token'],
        },
        insecure,
      ),
    );
    const client: oauth.Client = { client_id: registered.client_id, token_endpoint_auth_method: 'none' };
    const tokens = await authorizeAndExchange(as, client, oauth.None(), REDIRECT, resource, credentials(user));
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'sess:interact' });
    expect(tokens.refresh_token).toMatch(/^sess_rt_/);

    const header = decodeProtectedHeader(tokens.access_token);
    expect(header).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    const claims = decodeJwt(tokens.access_token);
    expect(claims).toMatchObject({
      iss: server.url,
      aud: `${server.url}/mcp`,
      sub: user.userId,
      client_id: registered.client_id,
      workspace_id: user.workspaceId,
      scope: 'sess:interact',
      grant_generation: 1,
    });
    expect(claims.exp! - claims.iat!).toBeLessThanOrEqual(3600);
    expect(claims.jti).toMatch(/^at_/);

    const verifier = createAccessTokenVerifier({ database: server.database, publicUrl: server.url, now: server.clock.now });
    try {
      const verified = await verifier.verify(tokens.access_token);
      expect(verified).toEqual({
        ok: true,
        principal: {
          workspaceId: user.workspaceId,
          principalId: user.userId,
          clientId: registered.client_id,
          grantId: claims['grant_id'],
          grantGeneration: 1,
          scopes: ['sess:interact'],
          expiresAt: claims.exp,
        },
      });

      const refreshed = await oauth.processRefreshTokenResponse(
        as,
        client,
        await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, insecure),
      );
      expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
      expect(refreshed.access_token).not.toBe(tokens.access_token);
      expect(await verifier.verify(refreshed.access_token)).toMatchObject({ ok: true });

      await oauth.processRevocationResponse(
        await oauth.revocationRequest(as, client, oauth.None(), refreshed.refresh_token!, insecure),
      );
      await expect
        .poll(async () => (await verifier.verify(refreshed.access_token)).ok, { timeout: 1000, interval: 20 })
        .toBe(false);
      expect(await verifier.verify(refreshed.access_token)).toEqual({ ok: false, reason: 'grant_revoked' });
      const after = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshed.refresh_token!, insecure);
      await expect(oauth.processRefreshTokenResponse(as, client, after)).rejects.toMatchObject({ error: 'invalid_grant' });
    } finally {
      await verifier.close();
    }
  });

  it('the same with a CIMD client whose metadata document is served on loopback (test flag)', async () => {
    const user = await createTestUser(server.database.db);
    const clientId = `${documentsUrl}/oauth/client.json`;
    served.set('/oauth/client.json', {
      client_id: clientId,
      client_name: 'Loopback CIMD app',
      redirect_uris: ['http://localhost/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
    const { resource, as } = await discover();
    expect(as['client_id_metadata_document_supported']).toBe(true);
    expect(as.token_endpoint_auth_methods_supported).toContain('none');
    const client: oauth.Client = { client_id: clientId, token_endpoint_auth_method: 'none' };
    // Port-less loopback in the document, a random port in the request (RFC 8252 §7.3).
    const tokens = await authorizeAndExchange(
      as,
      client,
      oauth.None(),
      'http://localhost:53682/callback',
      resource,
      credentials(user),
    );
    expect(decodeJwt(tokens.access_token).client_id).toBe(clientId);
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, insecure),
    );
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, oauth.None(), refreshed.refresh_token!, insecure),
    );
    const after = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshed.refresh_token!, insecure);
    await expect(oauth.processRefreshTokenResponse(as, client, after)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it.each([
    ['client_secret_basic', (secret: string) => oauth.ClientSecretBasic(secret)],
    ['client_secret_post', (secret: string) => oauth.ClientSecretPost(secret)],
  ] as const)('a confidential client registered for %s authenticates with its secret', async (method, auth) => {
    const user = await createTestUser(server.database.db);
    const { resource, as } = await discover();
    const registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        { client_name: 'Confidential', redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: method },
        insecure,
      ),
    );
    expect(registered.client_secret).toEqual(expect.any(String));
    const client: oauth.Client = { client_id: registered.client_id, token_endpoint_auth_method: method };
    const tokens = await authorizeAndExchange(
      as,
      client,
      auth(registered.client_secret as string),
      'https://app.example/cb',
      resource,
      credentials(user),
    );
    expect(tokens.access_token).toBeTruthy();
    // The wrong secret: 401 invalid_client, with a Basic challenge when Basic was used.
    const wrong = await oauth.refreshTokenGrantRequest(as, client, auth('not-the-secret'), tokens.refresh_token!, insecure);
    expect(wrong.status).toBe(401);
    expect(await wrong.clone().json()).toMatchObject({ error: 'invalid_client' });
    if (method === 'client_secret_basic') {
      expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic /);
      await expect(oauth.processRefreshTokenResponse(as, client, wrong)).rejects.toBeInstanceOf(
        oauth.WWWAuthenticateChallengeError,
      );
    } else {
      await expect(oauth.processRefreshTokenResponse(as, client, wrong)).rejects.toMatchObject({ error: 'invalid_client' });
    }
  });
});

describe('the testkit helper (used by the MCP tests)', () => {
  it('signInAndAuthorize returns working tokens through the real flow, and refresh/revoke work', async () => {
    const user = await createTestUser(server.database.db);
    const connected = await signInAndAuthorize({ baseUrl: server.url, user });
    const verifier = createAccessTokenVerifier({ database: server.database, publicUrl: server.url, now: server.clock.now });
    try {
      expect(await verifier.verify(connected.tokens.accessToken)).toMatchObject({
        ok: true,
        principal: { principalId: user.userId },
      });
      const first = connected.tokens.refreshToken;
      await connected.refresh();
      expect(connected.tokens.refreshToken).not.toBe(first);
      await connected.revoke();
      await expect
        .poll(async () => (await verifier.verify(connected.tokens.accessToken)).ok, { timeout: 1000, interval: 20 })
        .toBe(false);
    } finally {
      await verifier.close();
    }
  });

  it('createTestOAuthClient (public or confidential) works with signInAndAuthorize', async () => {
    const user = await createTestUser(server.database.db);
    for (const confidential of [false, true]) {
      const client = await createTestOAuthClient(server.database.db, { confidential });
      expect(Boolean(client.clientSecret)).toBe(confidential);
      const connected = await signInAndAuthorize({ baseUrl: server.url, user, client: { kind: 'existing', ...client } });
      expect(decodeJwt(connected.tokens.accessToken).client_id).toBe(client.clientId);
      await connected.refresh();
    }
  });
});
