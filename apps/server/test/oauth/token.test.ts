import { oauthGrants, oauthRefreshTokens } from '@sess/db';
import { type AccessTokenVerifier, createAccessTokenVerifier } from '@sess/oauth';
import { CookieJar, completeAuthorization, createPkcePair, createTestUser, type TestUser } from '@sess/testkit';
import {
  authorizeUrl,
  credentials,
  issuedFor,
  type OAuthTestServer,
  registerPublicClient,
  startOAuthTestServer,
  tokenRequest,
} from '@sess/testkit/oauth';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: OAuthTestServer;
let user: TestUser;
let verifier: AccessTokenVerifier;

beforeAll(async () => {
  server = await startOAuthTestServer();
  user = await createTestUser(server.database.db);
  verifier = createAccessTokenVerifier({ database: server.database, publicUrl: server.url, now: server.clock.now });
});
afterAll(async () => {
  await verifier.close();
  await server.close();
});

const REDIRECT = 'https://app.example/cb';
// One signed-in browser for the whole file: signing in for every code would run into the
// per-address sign-in limit (30 per window) long before the tests run out.
const browser = new CookieJar();

/** A fresh client, a person's Allow, and the resulting code (not yet redeemed). */
async function freshCode(redirectUri = REDIRECT) {
  const client = await registerPublicClient(server, [redirectUri]);
  const pkce = createPkcePair();
  const outcome = await completeAuthorization({
    baseUrl: server.url,
    authorizationUrl: authorizeUrl(server, { clientId: client.clientId, redirectUri, challenge: pkce.challenge }),
    user: credentials(user),
    browser,
  });
  const code = outcome.callback!.searchParams.get('code')!;
  const exchange = (overrides: Record<string, string | undefined> = {}) => {
    const params: Record<string, string | undefined> = {
      grant_type: 'authorization_code',
      code,
      code_verifier: pkce.verifier,
      redirect_uri: redirectUri,
      client_id: client.clientId,
      resource: `${server.url}/mcp`,
      ...overrides,
    };
    return tokenRequest(
      server,
      Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined)) as Record<string, string>,
    );
  };
  return { clientId: client.clientId, code, pkce, exchange };
}

/** A client with a token pair. */
async function freshTokens() {
  const issued = await freshCode();
  const response = await issued.exchange();
  expect(response.status).toBe(200);
  const body = response.body as { access_token: string; refresh_token: string };
  const refresh = (refreshToken = body.refresh_token, clientId = issued.clientId) =>
    tokenRequest(server, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId });
  return { ...issued, accessToken: body.access_token, refreshToken: body.refresh_token, refresh };
}

describe('code exchange', () => {
  it('answers JSON with no-store, Bearer, one hour, the granted scope', async () => {
    const { exchange } = await freshCode();
    const response = await exchange();
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('pragma')).toBe('no-cache');
    expect(response.body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^sess_rt_/),
      scope: 'sess:interact',
    });
  });

  // The description names the first condition of the redemption rule that failed (code-conditions.ts).
  it.each([
    ['a wrong code_verifier', { code_verifier: createPkcePair().verifier }, 'invalid_grant', /does not match the code_challenge/],
    ['no code_verifier', { code_verifier: undefined }, 'invalid_grant', /missing or malformed/],
    ['a malformed code_verifier', { code_verifier: 'short' }, 'invalid_grant', /missing or malformed/],
    ['another redirect_uri', { redirect_uri: 'https://app.example/other' }, 'invalid_grant', /redirect_uri does not match/],
    [
      'another redirect_uri and a malformed code_verifier (the redirect_uri is checked first)',
      { redirect_uri: 'https://app.example/other', code_verifier: 'short' },
      'invalid_grant',
      /redirect_uri does not match/,
    ],
    [
      'no redirect_uri (it was in the authorization request)',
      { redirect_uri: undefined },
      'invalid_grant',
      /redirect_uri does not match/,
    ],
    ['resource for another audience', { resource: 'https://other.example/mcp' }, 'invalid_target', /only issues tokens for/],
  ] as const)('%s → %s, nothing issued, and the code is burnt', async (_name, overrides, error, description) => {
    const { clientId, exchange } = await freshCode();
    const refused = await exchange(overrides);
    expect(refused.status).toBe(400);
    expect(refused.body['error']).toBe(error);
    expect(refused.body['error_description']).toMatch(description);
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect(await issuedFor(server.database.db, clientId)).toMatchObject({ refreshTokens: 0 });
    expect((await exchange()).body['error']).toBe('invalid_grant');
    expect(await issuedFor(server.database.db, clientId)).toMatchObject({ refreshTokens: 0 });
  });

  it("another client's code → invalid_grant", async () => {
    const { exchange, clientId } = await freshCode();
    const other = await registerPublicClient(server, [REDIRECT]);
    expect((await exchange({ client_id: other.clientId })).body['error']).toBe('invalid_grant');
    expect(await issuedFor(server.database.db, clientId)).toMatchObject({ refreshTokens: 0 });
  });

  it('an expired code (61 s later, injected clock) → invalid_grant, nothing issued', async () => {
    const { exchange, clientId } = await freshCode();
    server.clock.advance(61_000);
    const refused = await exchange();
    expect(refused.body['error']).toBe('invalid_grant');
    expect(await issuedFor(server.database.db, clientId)).toMatchObject({ refreshTokens: 0 });
  });

  it('a replay by the same client with the right verifier (the code and its verifier leaked) → invalid_grant, and the family and the grant are revoked', async () => {
    const { exchange, clientId, code, pkce } = await freshCode();
    const first = await exchange();
    expect(first.status).toBe(200);
    const accessToken = first.body['access_token'] as string;
    expect(await verifier.verify(accessToken)).toMatchObject({ ok: true });
    const replay = await exchange();
    expect(replay.status).toBe(400);
    expect(replay.body['error']).toBe('invalid_grant');
    await expect.poll(async () => (await verifier.verify(accessToken)).ok, { timeout: 1000, interval: 20 }).toBe(false);
    const refresh = await tokenRequest(server, {
      grant_type: 'refresh_token',
      refresh_token: first.body['refresh_token'] as string,
      client_id: clientId,
    });
    expect(refresh.body['error']).toBe('invalid_grant');
    const [grant] = await server.database.db.select().from(oauthGrants).where(eq(oauthGrants.clientId, clientId));
    expect(grant?.revokedAt).not.toBeNull();
    expect(server.logs).toContainEqual(
      expect.objectContaining({ event: 'oauth.code.replayed', clientId, presentedBy: clientId, provesLeak: true, revoked: true }),
    );
    const logs = server.rawLogs.join('\n');
    expect(logs).not.toContain(code);
    expect(logs).not.toContain(pkce.verifier);
  });

  // RFC 6749 §4.1.2: a replay MUST be denied and SHOULD revoke what the code issued; we revoke
  // only when the replay proves the code AND its verifier leaked, since a code alone travels in
  // URLs and logs and would otherwise let anyone who saw it sign the person out.
  it.each([
    ['from another client (even with the right verifier)', 'other client', 'right'],
    ['by the same client with a wrong code_verifier', 'same client', 'wrong'],
    ['by the same client without a code_verifier', 'same client', 'none'],
  ] as const)(
    'a replay %s → invalid_grant, and nothing is revoked: the refresh and access tokens still work',
    async (_name, who, verifierKind) => {
      const { exchange, clientId, code, pkce } = await freshCode();
      const first = await exchange();
      expect(first.status).toBe(200);
      const other = await registerPublicClient(server, [REDIRECT]);
      const replay = await exchange({
        client_id: who === 'other client' ? other.clientId : clientId,
        code_verifier:
          verifierKind === 'right' ? pkce.verifier : verifierKind === 'wrong' ? createPkcePair().verifier : undefined,
      });
      expect(replay.status).toBe(400);
      expect(replay.body['error']).toBe('invalid_grant');
      // The refresh reads the family and the grant from the database: it fails if either was revoked.
      const refreshed = await tokenRequest(server, {
        grant_type: 'refresh_token',
        refresh_token: first.body['refresh_token'] as string,
        client_id: clientId,
      });
      expect(refreshed.status).toBe(200);
      expect(await verifier.verify(first.body['access_token'] as string)).toMatchObject({ ok: true });
      expect(server.logs).toContainEqual(
        expect.objectContaining({ event: 'oauth.code.replayed', clientId, provesLeak: false, revoked: false }),
      );
      const logs = server.rawLogs.join('\n');
      expect(logs).not.toContain(code);
      expect(logs).not.toContain(pkce.verifier);
    },
  );

  it('the same code redeemed twice in parallel: one token set, ever', async () => {
    const { exchange, clientId } = await freshCode();
    const results = await Promise.all([exchange(), exchange(), exchange()]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 400, 400]);
    expect(await issuedFor(server.database.db, clientId)).toMatchObject({ refreshTokens: 1 });
    // The losers were replays: the one set that was issued is revoked too.
    const winner = results.find((r) => r.status === 200)!;
    await expect
      .poll(async () => (await verifier.verify(winner.body['access_token'] as string)).ok, { timeout: 1000, interval: 20 })
      .toBe(false);
  });

  it.each([
    ['no grant_type', { grant_type: undefined }, 400, 'invalid_request'],
    ['password grant', { grant_type: 'password' }, 400, 'unsupported_grant_type'],
    ['client_credentials grant', { grant_type: 'client_credentials' }, 400, 'unsupported_grant_type'],
    ['no code', { code: undefined }, 400, 'invalid_request'],
    ['an unknown code', { code: 'not-a-code' }, 400, 'invalid_grant'],
    ['an unknown client', { client_id: 'cli_unknown' }, 401, 'invalid_client'],
    ['no client at all', { client_id: undefined }, 401, 'invalid_client'],
    ['a secret sent by a public client', { client_secret: 'x' }, 401, 'invalid_client'],
  ] as const)('%s → %i %s', async (_name, overrides, status, error) => {
    const { exchange } = await freshCode();
    const refused = await exchange(overrides as Record<string, string | undefined>);
    expect(refused.status).toBe(status);
    expect(refused.body['error']).toBe(error);
  });

  it('refuses repeated parameters and non-form bodies', async () => {
    const { clientId, code, pkce } = await freshCode();
    const repeated = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=authorization_code&code=${code}&code=${code}&code_verifier=${pkce.verifier}&client_id=${clientId}&redirect_uri=${encodeURIComponent(REDIRECT)}`,
    });
    expect(repeated.status).toBe(400);
    expect(await repeated.json()).toMatchObject({ error: 'invalid_request' });
    const json = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'authorization_code' }),
    });
    expect(json.status).toBe(400);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
  });
});

describe('refresh with rotation, reuse detection and a grace window', () => {
  it('rotates: a new pair each time, the old refresh token marked rotated', async () => {
    const tokens = await freshTokens();
    const refreshed = await tokens.refresh();
    expect(refreshed.status).toBe(200);
    expect(refreshed.body['refresh_token']).not.toBe(tokens.refreshToken);
    const rows = await server.database.db
      .select()
      .from(oauthRefreshTokens)
      .where(eq(oauthRefreshTokens.clientId, tokens.clientId));
    expect(rows).toHaveLength(2);
    expect(rows.filter((r) => r.rotatedAt !== null)).toHaveLength(1);
    expect(new Set(rows.map((r) => r.familyId)).size).toBe(1);
    expect(JSON.stringify(rows)).not.toContain(tokens.refreshToken);
  });

  it('within 30 s, presenting the just-rotated token again returns the very same new pair', async () => {
    const tokens = await freshTokens();
    const first = await tokens.refresh();
    server.clock.advance(29_000);
    const again = await tokens.refresh();
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await verifier.verify(first.body['access_token'] as string)).toMatchObject({ ok: true });
  });

  it('the same refresh token twice in parallel: exactly one rotation, both callers get that one pair', async () => {
    const tokens = await freshTokens();
    const [a, b] = await Promise.all([tokens.refresh(), tokens.refresh()]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body).toEqual(b.body);
    const rows = await server.database.db
      .select()
      .from(oauthRefreshTokens)
      .where(eq(oauthRefreshTokens.clientId, tokens.clientId));
    expect(rows).toHaveLength(2);
  });

  it('after the grace window, reuse revokes the whole family and the grant', async () => {
    const tokens = await freshTokens();
    const first = await tokens.refresh();
    const second = await tokens.refresh(first.body['refresh_token'] as string);
    expect(second.status).toBe(200);
    server.clock.advance(31_000);
    const reuse = await tokens.refresh();
    expect(reuse.status).toBe(400);
    expect(reuse.body['error']).toBe('invalid_grant');
    // The family's newest token is dead too, and so are the access tokens.
    expect((await tokens.refresh(second.body['refresh_token'] as string)).body['error']).toBe('invalid_grant');
    await expect
      .poll(async () => (await verifier.verify(second.body['access_token'] as string)).ok, { timeout: 1000, interval: 20 })
      .toBe(false);
    expect(server.logs).toContainEqual(
      expect.objectContaining({ event: 'oauth.refresh.reuse_detected', clientId: tokens.clientId }),
    );
  });

  it('inside the window, reuse after the new token was itself used is still reuse', async () => {
    const tokens = await freshTokens();
    const first = await tokens.refresh();
    expect((await tokens.refresh(first.body['refresh_token'] as string)).status).toBe(200);
    const reuse = await tokens.refresh();
    expect(reuse.body['error']).toBe('invalid_grant');
  });

  it("another client cannot use a client's refresh token", async () => {
    const tokens = await freshTokens();
    const other = await registerPublicClient(server, [REDIRECT]);
    expect((await tokens.refresh(tokens.refreshToken, other.clientId)).body['error']).toBe('invalid_grant');
    expect((await tokens.refresh()).status).toBe(200);
  });

  it('an unknown or malformed refresh token → invalid_grant', async () => {
    const tokens = await freshTokens();
    expect((await tokens.refresh('sess_rt_unknown')).body['error']).toBe('invalid_grant');
    expect((await tokens.refresh('')).body['error']).toBe('invalid_request');
  });

  it('a refresh token unused for 30 days has expired', async () => {
    const tokens = await freshTokens();
    server.clock.advance(30 * 24 * 3600_000 + 1000);
    expect((await tokens.refresh()).body['error']).toBe('invalid_grant');
  });
});

describe('revocation (RFC 7009)', () => {
  const revoke = (params: Record<string, string>) =>
    fetch(`${server.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params),
    });

  it('revoking an access token ends the grant; unknown tokens still get 200', async () => {
    const tokens = await freshTokens();
    expect((await revoke({ token: 'nonsense', client_id: tokens.clientId })).status).toBe(200);
    expect(await verifier.verify(tokens.accessToken)).toMatchObject({ ok: true });
    const response = await revoke({ token: tokens.accessToken, token_type_hint: 'access_token', client_id: tokens.clientId });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    await expect.poll(async () => (await verifier.verify(tokens.accessToken)).ok, { timeout: 1000, interval: 20 }).toBe(false);
    expect((await tokens.refresh()).body['error']).toBe('invalid_grant');
  });

  it("another client cannot revoke a client's tokens", async () => {
    const tokens = await freshTokens();
    const other = await registerPublicClient(server, [REDIRECT]);
    expect((await revoke({ token: tokens.refreshToken, client_id: other.clientId })).status).toBe(200);
    expect((await revoke({ token: tokens.accessToken, client_id: other.clientId })).status).toBe(200);
    expect(await verifier.verify(tokens.accessToken)).toMatchObject({ ok: true });
    expect((await tokens.refresh()).status).toBe(200);
  });

  it('requires client authentication and a token', async () => {
    const tokens = await freshTokens();
    const noClient = await revoke({ token: tokens.refreshToken });
    expect(noClient.status).toBe(401);
    expect(await noClient.json()).toMatchObject({ error: 'invalid_client' });
    const noToken = await revoke({ client_id: tokens.clientId });
    expect(noToken.status).toBe(400);
    expect(await noToken.json()).toMatchObject({ error: 'invalid_request' });
  });
});
