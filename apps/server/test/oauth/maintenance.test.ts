import { oauthClients, oauthCodes, oauthGrants, oauthRefreshTokens } from '@sess/db';
import { disconnectApp, pruneOAuthRecords } from '@sess/oauth';
import { createTestUser, signInAndAuthorize } from '@sess/testkit';
import { type OAuthTestServer, registerPublicClient, startOAuthTestServer } from '@sess/testkit/oauth';
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: OAuthTestServer;
beforeAll(async () => {
  server = await startOAuthTestServer();
});
afterAll(async () => server.close());

const DAY = 24 * 3600_000;

describe('pruneOAuthRecords', () => {
  it('removes never-connected DCR clients after 7 days, spent codes and expired tokens, and long-revoked grants — and nothing live', async () => {
    const db = server.database.db;
    const unused = await registerPublicClient(server);
    const user = await createTestUser(db);
    const live = await signInAndAuthorize({ baseUrl: server.url, user });
    const gone = await signInAndAuthorize({ baseUrl: server.url, user: await createTestUser(db) });
    const goneGrant = decodeJwt(gone.tokens.accessToken)['grant_id'] as string;
    await disconnectApp(db, {
      userId: (await db.select().from(oauthGrants).where(eq(oauthGrants.id, goneGrant)))[0]!.userId,
      grantId: goneGrant,
      now: server.clock.now(),
    });

    // A day later: nothing is due yet except nothing.
    expect(await pruneOAuthRecords(db, new Date(server.clock.now().getTime() + DAY / 2))).toEqual({
      codes: 0,
      refreshTokens: 0,
      grants: 0,
      clients: 0,
    });

    const later = new Date(server.clock.now().getTime() + 91 * DAY);
    const report = await pruneOAuthRecords(db, later);
    expect(report.clients).toBeGreaterThanOrEqual(1);
    expect(report.codes).toBeGreaterThanOrEqual(2);
    expect(report.grants).toBeGreaterThanOrEqual(1);
    expect(report.refreshTokens).toBeGreaterThanOrEqual(2);
    expect(await db.select().from(oauthClients).where(eq(oauthClients.id, unused.clientId))).toEqual([]);
    // The live connection's client and grant stay (its refresh token has expired by then and goes).
    expect(await db.select().from(oauthClients).where(eq(oauthClients.id, live.clientId))).toHaveLength(1);
    expect(await db.select().from(oauthGrants).where(eq(oauthGrants.clientId, live.clientId))).toHaveLength(1);
    expect(await db.select().from(oauthGrants).where(eq(oauthGrants.id, goneGrant))).toEqual([]);
    expect(await db.select().from(oauthCodes).where(eq(oauthCodes.clientId, live.clientId))).toEqual([]);
    expect(await db.select().from(oauthRefreshTokens).where(eq(oauthRefreshTokens.clientId, live.clientId))).toEqual([]);
  });
});
