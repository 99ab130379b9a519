import { hashSecret } from '@sess/core';
import { oauthRefreshTokens } from '@sess/db';
import { eq } from 'drizzle-orm';
import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import type { OAuthClient } from '../clients/client-record.ts';
import { revokeGrant } from '../grants/revoke-grant.ts';
import { importVerificationKey, loadVerificationKeys } from './access-token-keys.ts';
import { ACCESS_TOKEN_TYP } from './sign-access-token.ts';
import type { TokenContext } from './token-context.ts';
import { REFRESH_TOKEN_PREFIX } from './token-response.ts';

/** The grant an access token of ours names, if its signature verifies (expired tokens are ignored). */
async function accessTokenGrant(
  ctx: TokenContext,
  token: string,
): Promise<{ clientId: string; grantId: string; generation: number } | null> {
  try {
    const { kid } = decodeProtectedHeader(token);
    const keys = await loadVerificationKeys(ctx.db, ctx.now());
    const jwk = keys.find((key) => key.kid === kid);
    if (!jwk) return null;
    const { payload } = await jwtVerify(token, await importVerificationKey(jwk), {
      issuer: ctx.urls.issuer,
      algorithms: ['ES256'],
      typ: ACCESS_TOKEN_TYP,
      currentDate: ctx.now(),
    });
    const { client_id: clientId, grant_id: grantId, grant_generation: generation } = payload as Record<string, unknown>;
    if (typeof clientId !== 'string' || typeof grantId !== 'string' || typeof generation !== 'number') return null;
    return { clientId, grantId, generation };
  } catch {
    return null;
  }
}

/**
 * Token revocation. A refresh token revokes its family and the grant (so the access tokens of
 * that grant end too, as RFC 7009 §2.1 recommends); an access token revokes its grant. A token
 * the client does not own, an unknown or an expired token is ignored: the answer is 200 either
 * way, so the endpoint tells nobody which tokens exist.
 * @see https://www.rfc-editor.org/rfc/rfc7009#section-2.1
 */
export async function revokeToken(ctx: TokenContext, input: { client: OAuthClient; token: string }): Promise<void> {
  const now = ctx.now();
  const { token, client } = input;
  if (token.startsWith(REFRESH_TOKEN_PREFIX)) {
    const [row] = await ctx.db
      .select()
      .from(oauthRefreshTokens)
      .where(eq(oauthRefreshTokens.tokenHash, hashSecret(token)));
    if (!row || row.clientId !== client.id) return;
    await ctx.db.transaction((tx) => revokeGrant(tx, { grantId: row.grantId, now, onlyGeneration: row.grantGeneration }));
    ctx.logger.info(
      { event: 'oauth.token.revoked', kind: 'refresh_token', clientId: client.id, grantId: row.grantId },
      'token revoked',
    );
    return;
  }
  // Cheap shape test before any key work: an access token is a JWT naming its client.
  try {
    if ((decodeJwt(token) as { client_id?: unknown }).client_id !== client.id) return;
  } catch {
    return;
  }
  const grant = await accessTokenGrant(ctx, token);
  if (!grant || grant.clientId !== client.id) return;
  await ctx.db.transaction((tx) => revokeGrant(tx, { grantId: grant.grantId, now, onlyGeneration: grant.generation }));
  ctx.logger.info(
    { event: 'oauth.token.revoked', kind: 'access_token', clientId: client.id, grantId: grant.grantId },
    'token revoked',
  );
}
