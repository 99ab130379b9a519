import { hashSecret } from '@sess/core';
import { type DbOrTx, oauthGrants, oauthRefreshTokens } from '@sess/db';
import { and, eq, isNull } from 'drizzle-orm';
import { checkResource } from '../authorize/validate-authorization-request.ts';
import type { OAuthClient } from '../clients/client-record.ts';
import { OAuthError } from '../errors/oauth-error.ts';
import { revokeGrant } from '../grants/revoke-grant.ts';
import { REFRESH_GRACE_S } from '../settings.ts';
import { openGraceResponse, sealGraceResponse } from './grace-seal.ts';
import { mintTokenPair, storeTokenPair } from './issue-token-pair.ts';
import type { TokenContext } from './token-context.ts';
import type { TokenResponse } from './token-response.ts';

type RefreshRow = typeof oauthRefreshTokens.$inferSelect;
type Outcome = { ok: true; response: TokenResponse; replayed: boolean } | { ok: false; error: OAuthError };

const invalidRefresh = () => new OAuthError('invalid_grant', 'The refresh token is invalid, expired or revoked.');

/** Revokes a whole family and, if still at the family's generation, its grant (ending the access tokens too). */
async function revokeFamily(tx: DbOrTx, row: RefreshRow, now: Date): Promise<void> {
  await tx
    .update(oauthRefreshTokens)
    .set({ revokedAt: now, graceResponse: null })
    .where(and(eq(oauthRefreshTokens.familyId, row.familyId), isNull(oauthRefreshTokens.revokedAt)));
  await revokeGrant(tx, { grantId: row.grantId, now, onlyGeneration: row.grantGeneration });
}

/**
 * The grace path: the token was rotated less than REFRESH_GRACE_S ago, its successor has not
 * been used or revoked, and the grant is still live at this generation → the same response
 * again. Anything else about a rotated token is reuse.
 */
async function replayWithinGrace(tx: DbOrTx, row: RefreshRow, presented: string, now: Date): Promise<TokenResponse | null> {
  if (!row.rotatedAt || !row.graceResponse || !row.replacedBy) return null;
  if (now.getTime() - row.rotatedAt.getTime() > REFRESH_GRACE_S * 1000) return null;
  const [successor] = await tx.select().from(oauthRefreshTokens).where(eq(oauthRefreshTokens.id, row.replacedBy));
  if (!successor || successor.rotatedAt || successor.revokedAt) return null;
  const [grant] = await tx.select().from(oauthGrants).where(eq(oauthGrants.id, row.grantId));
  if (!grant || grant.revokedAt || grant.generation !== row.grantGeneration) return null;
  return openGraceResponse(presented, row.id, row.graceResponse);
}

export interface RefreshInput {
  client: OAuthClient;
  refreshToken: string;
  resource: string | null;
}

/**
 * The refresh_token grant with rotation and reuse detection. The row is locked, so two parallel
 * refreshes with one token serialise: the first rotates, the second takes the grace path and
 * gets the same new pair. A rotated token presented after the window (or after its successor
 * was used) revokes the family and the grant. The scope stays that of the grant.
 * @see https://datatracker.ietf.org/doc/html/draft-ietf-oauth-v2-1-13#section-4.3
 * @see https://datatracker.ietf.org/doc/html/draft-ietf-oauth-security-topics#section-4.14.2 (rotation, reuse detection)
 */
export async function refreshAccessToken(ctx: TokenContext, input: RefreshInput): Promise<TokenResponse> {
  const signer = await ctx.signer();
  const now = ctx.now();
  const outcome = await ctx.db.transaction(async (tx): Promise<Outcome> => {
    const [row] = await tx
      .select()
      .from(oauthRefreshTokens)
      .where(eq(oauthRefreshTokens.tokenHash, hashSecret(input.refreshToken)))
      .for('update');
    if (!row || row.clientId !== input.client.id || row.revokedAt) return { ok: false, error: invalidRefresh() };
    if (row.rotatedAt) {
      const replay = await replayWithinGrace(tx, row, input.refreshToken, now);
      if (replay) return { ok: true, response: replay, replayed: true };
      await revokeFamily(tx, row, now);
      ctx.logger.warn(
        { event: 'oauth.refresh.reuse_detected', clientId: row.clientId, grantId: row.grantId },
        'rotated refresh token reused; family revoked',
      );
      return { ok: false, error: invalidRefresh() };
    }
    if (row.expiresAt.getTime() <= now.getTime()) return { ok: false, error: invalidRefresh() };
    if (input.resource !== null) {
      try {
        checkResource(input.resource, ctx.urls.resource);
      } catch (error) {
        return { ok: false, error: error as OAuthError };
      }
    }
    const pair = await mintTokenPair({
      signer,
      issuer: ctx.urls.issuer,
      familyId: row.familyId,
      now,
      grant: {
        userId: row.userId,
        workspaceId: row.workspaceId,
        clientId: row.clientId,
        grantId: row.grantId,
        grantGeneration: row.grantGeneration,
        scope: row.scope,
        resource: row.resource,
      },
    });
    // Stored only while the grant is live at this family's generation (checked in the same statement).
    if (!(await storeTokenPair(tx, pair))) return { ok: false, error: invalidRefresh() };
    const { response } = pair;
    const refreshTokenId = pair.refreshToken.id;
    await tx
      .update(oauthRefreshTokens)
      .set({ rotatedAt: now, replacedBy: refreshTokenId, graceResponse: sealGraceResponse(input.refreshToken, row.id, response) })
      .where(eq(oauthRefreshTokens.id, row.id));
    return { ok: true, response, replayed: false };
  });
  if (!outcome.ok) throw outcome.error;
  ctx.logger.info(
    {
      event: outcome.replayed ? 'oauth.refresh.grace_replay' : 'oauth.token.issued',
      grantType: 'refresh_token',
      clientId: input.client.id,
    },
    outcome.replayed ? 'rotated refresh token presented within the grace window; same pair returned' : 'tokens issued',
  );
  return outcome.response;
}
