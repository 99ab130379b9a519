import { queryRows } from '@sess/db';
import { createTestUser, signInAndAuthorize, TEST_SECRET } from '@sess/testkit';
import { type OAuthTestServer, startOAuthTestServer } from '@sess/testkit/oauth';
import { sql } from 'drizzle-orm';
import { decodeJwt, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccessTokenVerifier, createAccessTokenVerifier } from '../src/index.ts';
import { createAccessTokenSigner } from '../src/tokens/access-token-keys.ts';
import { signAccessToken } from '../src/tokens/sign-access-token.ts';

let server: OAuthTestServer;
let verifier: AccessTokenVerifier;
let token: string;
let claims: Record<string, unknown>;

beforeAll(async () => {
  server = await startOAuthTestServer();
  verifier = createAccessTokenVerifier({ database: server.database, publicUrl: server.url, now: server.clock.now });
  const user = await createTestUser(server.database.db);
  token = (await signInAndAuthorize({ baseUrl: server.url, user })).tokens.accessToken;
  claims = decodeJwt(token) as Record<string, unknown>;
});
afterAll(async () => {
  await verifier.close();
  await server.close();
});

/** A token signed with our real key, with some claims changed. */
async function ourToken(change: { resource?: string; issuer?: string; grantGeneration?: number }) {
  const signer = await createAccessTokenSigner({ db: server.database.db, secret: TEST_SECRET, now: server.clock.now })();
  const { token: signed } = await signAccessToken(signer, {
    userId: claims['sub'] as string,
    workspaceId: claims['workspace_id'] as string,
    clientId: claims['client_id'] as string,
    grantId: claims['grant_id'] as string,
    grantGeneration: change.grantGeneration ?? (claims['grant_generation'] as number),
    scope: 'sess:interact',
    resource: change.resource ?? `${server.url}/mcp`,
    issuer: change.issuer ?? server.url,
    now: server.clock.now(),
  });
  return signed;
}

describe('createAccessTokenVerifier', () => {
  it('accepts a token of ours, and again from the warm cache', async () => {
    expect(await verifier.verify(token)).toMatchObject({ ok: true });
    expect(await verifier.verify(token)).toMatchObject({ ok: true });
  });

  it.each([
    ['empty', ''],
    ['not a JWT', 'abc'],
    ['huge', 'a'.repeat(5000)],
    ['two parts', 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0'],
  ])('refuses %s as malformed', async (_name, value) => {
    expect(await verifier.verify(value)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('refuses a tampered payload (bad signature)', async () => {
    const [header, , signature] = token.split('.');
    const payload = Buffer.from(JSON.stringify({ ...claims, workspace_id: 'ws_someoneelse' })).toString('base64url');
    expect(await verifier.verify(`${header}.${payload}.${signature}`)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('refuses a token signed by a key we do not have', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: 'sk_notours', typ: 'at+jwt' })
      .sign(privateKey);
    expect(await verifier.verify(forged)).toEqual({ ok: false, reason: 'unknown_key' });
  });

  it('refuses alg none and HS256 (even under our kid)', async () => {
    const kid = (JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as { kid: string }).kid;
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', kid, typ: 'at+jwt' })).toString('base64url')}.${token.split('.')[1]}.`;
    expect((await verifier.verify(none)).ok).toBe(false);
    const hs = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', kid, typ: 'at+jwt' })
      .sign(new TextEncoder().encode('x'.repeat(32)));
    expect((await verifier.verify(hs)).ok).toBe(false);
  });

  it('refuses a token for another audience or from another issuer, though signed by our key', async () => {
    expect(await verifier.verify(await ourToken({ resource: 'https://other.example/mcp' }))).toEqual({
      ok: false,
      reason: 'wrong_audience',
    });
    expect(await verifier.verify(await ourToken({ issuer: 'https://other.example' }))).toEqual({
      ok: false,
      reason: 'wrong_issuer',
    });
  });

  it('refuses a token of an older generation', async () => {
    expect(await verifier.verify(await ourToken({ grantGeneration: (claims['grant_generation'] as number) + 7 }))).toEqual({
      ok: false,
      reason: 'grant_revoked',
    });
  });

  it('marks the grant used when its token is used (connected apps\' "Last used"), at most once per grant per 5 minutes', async () => {
    const grantId = claims['grant_id'] as string;
    const lastUsed = async () => {
      const [row] = await queryRows<{ last_used_at: string | null }>(
        server.database.db,
        sql`select last_used_at from oauth_grants where id = ${grantId}`,
      );
      return row?.last_used_at === null || row?.last_used_at === undefined ? null : new Date(row.last_used_at).getTime();
    };
    // As if the last use was the sign-in, ten minutes ago.
    const signIn = server.clock.now().getTime() - 10 * 60_000;
    await server.database.db.execute(
      sql`update oauth_grants set last_used_at = ${new Date(signIn).toISOString()}::timestamptz where id = ${grantId}`,
    );
    const used = await ourToken({});
    const fresh = createAccessTokenVerifier({ database: server.database, publicUrl: server.url, now: server.clock.now });
    try {
      const first = server.clock.now().getTime();
      expect(await fresh.verify(used)).toMatchObject({ ok: true });
      await fresh.settled();
      expect(await lastUsed()).toBe(first);
      // Used again a minute later, many times: no write (the page says minutes, not requests).
      server.clock.advance(60_000);
      for (let i = 0; i < 5; i++) expect(await fresh.verify(used)).toMatchObject({ ok: true });
      await fresh.settled();
      expect(await lastUsed()).toBe(first);
      // Five minutes after the last write: written again.
      server.clock.advance(4 * 60_000);
      const later = server.clock.now().getTime();
      expect(await fresh.verify(used)).toMatchObject({ ok: true });
      await fresh.settled();
      expect(await lastUsed()).toBe(later);
      // A refused token marks nothing.
      server.clock.advance(6 * 60_000);
      expect(await fresh.verify(await ourToken({ grantGeneration: (claims['grant_generation'] as number) + 7 }))).toMatchObject({
        ok: false,
      });
      await fresh.settled();
      expect(await lastUsed()).toBe(later);
    } finally {
      await fresh.close();
    }
  });

  it('refuses an expired token (injected clock), even one already in the cache', async () => {
    const fresh = await ourToken({});
    expect(await verifier.verify(fresh)).toMatchObject({ ok: true });
    server.clock.advance(3601_000);
    expect(await verifier.verify(fresh)).toEqual({ ok: false, reason: 'expired' });
    const cold = createAccessTokenVerifier({ database: server.database, publicUrl: server.url, now: server.clock.now });
    try {
      expect(await cold.verify(fresh)).toEqual({ ok: false, reason: 'expired' });
    } finally {
      await cold.close();
    }
  });
});
