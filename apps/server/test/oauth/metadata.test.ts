import { type OAuthTestServer, startOAuthTestServer } from '@sess/testkit/oauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: OAuthTestServer;
beforeAll(async () => {
  server = await startOAuthTestServer();
});
afterAll(async () => server.close());

describe('protected resource metadata (RFC 9728)', () => {
  it.each(['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource'])(
    'is served at %s',
    async (path) => {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual({
        resource: `${server.url}/mcp`,
        authorization_servers: [server.url],
        scopes_supported: ['sess:interact'],
        bearer_methods_supported: ['header'],
        resource_name: 'Sess',
        resource_documentation: `${server.url}/`,
      });
    },
  );

  it('never lists offline_access', async () => {
    const body = (await (await fetch(`${server.url}/.well-known/oauth-protected-resource/mcp`)).json()) as {
      scopes_supported: string[];
    };
    expect(body.scopes_supported).not.toContain('offline_access');
  });
});

describe('authorization server metadata (RFC 8414)', () => {
  it.each(['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'])(
    'is served at %s with the issuer = PUBLIC_URL, no path',
    async (path) => {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(200);
      const body = (await response.json()) as Record<string, unknown>;
      expect(body).toMatchObject({
        issuer: server.url,
        authorization_endpoint: `${server.url}/oauth/authorize`,
        token_endpoint: `${server.url}/oauth/token`,
        registration_endpoint: `${server.url}/oauth/register`,
        revocation_endpoint: `${server.url}/oauth/revoke`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        scopes_supported: ['sess:interact'],
        client_id_metadata_document_supported: true,
        authorization_response_iss_parameter_supported: true,
      });
      expect(body['token_endpoint_auth_methods_supported']).toEqual(
        expect.arrayContaining(['none', 'client_secret_basic', 'client_secret_post']),
      );
    },
  );

  it('publishes the access-token keys (ES256, no private members)', async () => {
    // A token endpoint call creates the key on first use; the JWKS may be empty before that.
    const response = await fetch(`${server.url}/oauth/jwks.json`);
    expect(response.status).toBe(200);
    const { keys } = (await response.json()) as { keys: Array<Record<string, unknown>> };
    for (const key of keys) {
      expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
      expect(key).not.toHaveProperty('d');
    }
  });
});

describe('CORS for browser-based clients', () => {
  it.each(['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource/mcp'])(
    'GET %s carries Access-Control-Allow-Origin',
    async (path) => {
      const response = await fetch(`${server.url}${path}`, { headers: { origin: 'http://localhost:6274' } });
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    },
  );

  it.each(['/oauth/token', '/oauth/register', '/oauth/revoke', '/token', '/register'])(
    'preflight OPTIONS %s is allowed',
    async (path) => {
      const response = await fetch(`${server.url}${path}`, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://localhost:6274',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, authorization',
        },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-methods')).toContain('POST');
      expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    },
  );

  it('the authorization endpoint (a page) has no CORS', async () => {
    const response = await fetch(`${server.url}/oauth/authorize`, { headers: { origin: 'http://localhost:6274' } });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('2025-03-26 fallbacks at the origin', () => {
  it('/authorize, /token and /register answer like their /oauth/* forms', async () => {
    const authorize = await fetch(`${server.url}/authorize?client_id=nope`);
    expect(authorize.status).toBe(400);
    expect(await authorize.text()).toContain('not registered with Sess');
    const token = await fetch(`${server.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=refresh_token',
    });
    expect(token.status).toBe(401);
    expect(await token.json()).toMatchObject({ error: 'invalid_client' });
    const registerResponse = await fetch(`${server.url}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(registerResponse.status).toBe(400);
    expect(await registerResponse.json()).toMatchObject({ error: 'invalid_redirect_uri' });
  });
});
