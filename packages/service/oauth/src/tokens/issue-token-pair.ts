import { hashSecret, newId, newSecret } from '@sess/core';
import { type DbOrTx, queryRows } from '@sess/db';
import { sql } from 'drizzle-orm';
import { REFRESH_TOKEN_TTL_S } from '../settings.ts';
import type { AccessTokenSigner } from './access-token-keys.ts';
import { type AccessTokenGrant, signAccessToken } from './sign-access-token.ts';
import { REFRESH_TOKEN_PREFIX, type TokenResponse } from './token-response.ts';

/** A token pair made but not yet stored: the response, and the refresh token's row. */
export interface MintedTokenPair {
  response: TokenResponse;
  refreshToken: { id: string; hash: string; familyId: string; expiresAt: Date };
  grant: AccessTokenGrant;
  now: Date;
}

/**
 * Mints an access token and a refresh token of `familyId` (no database work, so it can happen
 * before any row is locked). Refresh tokens are issued to every client, with or without
 * `offline_access`: some clients never ask for it and would be signed out hourly.
 */
export async function mintTokenPair(input: {
  signer: AccessTokenSigner;
  issuer: string;
  grant: AccessTokenGrant;
  familyId: string;
  now: Date;
}): Promise<MintedTokenPair> {
  const { grant, now } = input;
  const secret = `${REFRESH_TOKEN_PREFIX}${newSecret(32)}`;
  const access = await signAccessToken(input.signer, { ...grant, issuer: input.issuer, now });
  return {
    response: {
      access_token: access.token,
      token_type: 'Bearer',
      expires_in: access.expiresIn,
      refresh_token: secret,
      scope: grant.scope,
    },
    refreshToken: {
      id: newId('oauthRefreshToken'),
      hash: hashSecret(secret),
      familyId: input.familyId,
      expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_S * 1000),
    },
    grant,
    now,
  };
}

/**
 * Stores a minted pair's refresh token — if, and only if, the grant is still live at the pair's
 * generation: one statement checks the grant (locking its row and recording the use) and
 * inserts, so nothing is stored for a grant revoked or re-issued meanwhile. False then.
 */
export async function storeTokenPair(tx: DbOrTx, pair: MintedTokenPair): Promise<boolean> {
  const { grant, refreshToken: rt } = pair;
  const now = pair.now.toISOString();
  const stored = await queryRows<{ id: string }>(
    tx,
    sql`with live as (
          update oauth_grants set last_used_at = ${now}::timestamptz
          where id = ${grant.grantId} and revoked_at is null and generation = ${grant.grantGeneration}::integer
          returning id
        )
        insert into oauth_refresh_tokens
          (id, token_hash, family_id, workspace_id, grant_id, grant_generation, client_id, user_id, scope, resource, created_at, expires_at)
        select ${rt.id}, ${rt.hash}, ${rt.familyId}, ${grant.workspaceId}, live.id, ${grant.grantGeneration}::integer,
               ${grant.clientId}, ${grant.userId}, ${grant.scope}, ${grant.resource}, ${now}::timestamptz, ${rt.expiresAt.toISOString()}::timestamptz
        from live
        returning id`,
  );
  return stored.length > 0;
}
