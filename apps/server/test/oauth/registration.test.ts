import { oauthClients } from '@sess/db';
import { type OAuthTestServer, register, startOAuthTestServer } from '@sess/testkit/oauth';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: OAuthTestServer;
beforeAll(async () => {
  server = await startOAuthTestServer();
});
afterAll(async () => server.close());

describe('dynamic client registration (RFC 7591)', () => {
  it('registers a public client and answers 201 with what it kept, no-store', async () => {
    const { status, headers, body } = await register(server, {
      client_name: 'My app',
      redirect_uris: ['https://app.example/cb'],
      token_endpoint_auth_method: 'none',
      application_type: 'web',
      grant_types: ['authorization_code'],
      scope: 'sess:interact',
      software_id: 'my-app',
      unknown_field: 'ignored',
    });
    expect(status).toBe(201);
    expect(headers.get('cache-control')).toBe('no-store');
    expect(body).toEqual({
      client_id: expect.stringMatching(/^cli_[a-z2-7]{26}$/),
      client_id_issued_at: expect.any(Number),
      client_name: 'My app',
      redirect_uris: ['https://app.example/cb'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'web',
      scope: 'sess:interact',
      software_id: 'my-app',
    });
  });

  it('gives a confidential client a secret once and stores only its hash', async () => {
    const { status, body } = await register(server, {
      redirect_uris: ['https://app.example/cb'],
      token_endpoint_auth_method: 'client_secret_basic',
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({ client_secret: expect.any(String), client_secret_expires_at: 0 });
    const [row] = await server.database.db
      .select()
      .from(oauthClients)
      .where(eq(oauthClients.id, body['client_id'] as string));
    expect(row!.clientSecretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(body['client_secret'] as string);
  });

  it('accepts application_type native with loopback redirects', async () => {
    const { status, body } = await register(server, {
      redirect_uris: ['http://127.0.0.1:3000/cb'],
      application_type: 'native',
      token_endpoint_auth_method: 'none',
    });
    expect(status).toBe(201);
    expect(body['application_type']).toBe('native');
  });

  it('keeps the good URIs when one is odd (plain http to a remote host)', async () => {
    const { status, body } = await register(server, {
      redirect_uris: ['http://app.example/cb', 'https://app.example/cb'],
      token_endpoint_auth_method: 'none',
    });
    expect(status).toBe(201);
    expect(body['redirect_uris']).toEqual(['https://app.example/cb']);
  });

  it.each([
    [{ redirect_uris: ['https://app.example/cb', 'javascript:alert(1)'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['https://app.example/cb#fragment'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['https://user:pw@app.example/cb'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: [] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['http://app.example/cb'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'private_key_jwt' }, 'invalid_client_metadata'],
    [{ redirect_uris: ['https://app.example/cb'], grant_types: ['implicit'] }, 'invalid_client_metadata'],
    [{ redirect_uris: ['https://app.example/cb'], application_type: 'desktop' }, 'invalid_client_metadata'],
    [{ redirect_uris: ['https://app.example/cb'], client_uri: 42 }, 'invalid_client_metadata'],
  ])('refuses %o with %s and registers nothing', async (metadata, error) => {
    const before = (await server.database.db.select().from(oauthClients)).length;
    const { status, body } = await register(server, metadata);
    expect(status).toBe(400);
    expect(body['error']).toBe(error);
    expect((await server.database.db.select().from(oauthClients)).length).toBe(before);
  });

  it('refuses a body that is not JSON, or over 16 KiB', async () => {
    const notJson = await fetch(`${server.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{oops',
    });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ error: 'invalid_client_metadata' });
    const huge = await register(server, { redirect_uris: ['https://app.example/cb'], client_name: 'x'.repeat(20_000) });
    expect(huge.status).toBe(400);
    const form = await fetch(`${server.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=b',
    });
    expect(form.status).toBe(400);
  });
});

describe('registration rate limit', () => {
  it('answers 429 with Retry-After once an address registered 60 clients in an hour', async () => {
    const limited = await startOAuthTestServer();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 61; i++)
        statuses.push(
          (await register(limited, { redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'none' })).status,
        );
      expect(statuses.slice(0, 60).every((s) => s === 201)).toBe(true);
      const refused = await register(limited, { redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'none' });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBeTruthy();
      // An hour later the window has passed.
      limited.clock.advance(3600_000);
      expect(
        (await register(limited, { redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'none' })).status,
      ).toBe(201);
    } finally {
      await limited.close();
    }
  });
});
