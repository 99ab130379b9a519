import { hashSecret, newId, newSecret } from '@sess/core';
import { type Db, type DbOrTx, oauthCodes, oauthRefreshTokens, queryRows } from '@sess/db';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { OAuthClient } from '../clients/client-record.ts';
import { OAuthError } from '../errors/oauth-error.ts';
import { revokeGrant } from '../grants/revoke-grant.ts';
import { REFRESH_TOKEN_TTL_S } from '../settings.ts';
import { codeRedeemable, firstFailedCondition, invalidCode, type PresentedCode, presentCode } from './code-conditions.ts';
import { isCodeVerifier, verifyPkceS256 } from './pkce.ts';
import { signAccessToken } from './sign-access-token.ts';
import type { TokenContext } from './token-context.ts';
import { REFRESH_TOKEN_PREFIX, type TokenResponse } from './token-response.ts';

type CodeRow = typeof oauthCodes.$inferSelect;

export interface ExchangeInput {
  client: OAuthClient;
  code: string;
  codeVerifier: string | null;
  redirectUri: string | null;
  resource: string | null;
}

interface IssuedRow extends Record<string, unknown> {
  user_id: string;
  workspace_id: string;
  client_id: string;
  grant_id: string;
  grant_generation: number;
  scope: string;
  resource: string;
}

/**
 * The whole redemption in ONE statement (atomic without a transaction round trip). The code is
 * burnt only if it is unredeemed and passes every condition of `codeRedeemable` (same client, not
 * expired, same redirect URI, the PKCE challenge of this verifier, same resource); the grant must
 * be live at the code's generation (its row is locked and its use recorded); the refresh token is
 * inserted only when both hold. A parallel redemption waits on the code row's lock and then finds
 * it redeemed. Returns what the access token needs, or undefined when nothing was issued (the
 * caller then works out why, on the slow path).
 */
async function redeemCode(
  db: Db,
  codeHash: string,
  presented: PresentedCode,
  refresh: { id: string; hash: string; familyId: string; expiresAt: Date },
): Promise<IssuedRow | undefined> {
  const now = presented.now.toISOString();
  const [row] = await queryRows<IssuedRow>(
    db,
    sql`with burnt as (
          update oauth_codes set redeemed_at = ${now}::timestamptz, issued_family_id = ${refresh.familyId}
          where code_hash = ${codeHash}
            and redeemed_at is null
            and ${codeRedeemable(presented)}
          returning workspace_id, grant_id, grant_generation, client_id, user_id, scope, resource
        ), live as (
          update oauth_grants g set last_used_at = ${now}::timestamptz
          from burnt
          where g.id = burnt.grant_id and g.revoked_at is null and g.generation = burnt.grant_generation
          returning g.id
        )
        insert into oauth_refresh_tokens
          (id, token_hash, family_id, workspace_id, grant_id, grant_generation, client_id, user_id, scope, resource, created_at, expires_at)
        select ${refresh.id}, ${refresh.hash}, ${refresh.familyId}, burnt.workspace_id, burnt.grant_id, burnt.grant_generation,
               burnt.client_id, burnt.user_id, burnt.scope, burnt.resource, ${now}::timestamptz, ${refresh.expiresAt.toISOString()}::timestamptz
        from burnt join live on live.id = burnt.grant_id
        returning user_id, workspace_id, client_id, grant_id, grant_generation, scope, resource`,
  );
  return row;
}

/**
 * True when a replay proves that the code AND its verifier leaked: it comes from the client
 * the code was issued to (the token endpoint has authenticated it) and carries the verifier of
 * the code's challenge. Anything less proves only that the code was seen, and codes travel in
 * redirect URLs, browser history, logs and Referer headers; revoking on that would let anyone
 * who saw a code sign the person out.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2 ("MUST deny the request and SHOULD revoke")
 * @see https://www.rfc-editor.org/rfc/rfc9700#section-4.2 (codes leak through Referer, history, logs)
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-1 (PKCE: a leaked code alone is useless)
 */
function replayProvesLeak(code: CodeRow, input: ExchangeInput): boolean {
  return (
    code.clientId === input.client.id &&
    isCodeVerifier(input.codeVerifier) &&
    verifyPkceS256(input.codeVerifier, code.codeChallenge)
  );
}

/**
 * What a code's first redemption issued, revoked: the refresh-token family, and the grant if it
 * is still at the code's generation (which ends the access token too). A code whose first
 * redemption was itself refused issued nothing.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2 ("SHOULD revoke … all tokens previously issued based on that authorization code")
 */
async function revokeWhatCodeIssued(tx: DbOrTx, code: CodeRow, now: Date): Promise<boolean> {
  if (!code.issuedFamilyId) return false;
  const revoked = await tx
    .update(oauthRefreshTokens)
    .set({ revokedAt: now, graceResponse: null })
    .where(eq(oauthRefreshTokens.familyId, code.issuedFamilyId))
    .returning({ id: oauthRefreshTokens.id });
  if (revoked.length > 0) await revokeGrant(tx, { grantId: code.grantId, now, onlyGeneration: code.grantGeneration });
  return revoked.length > 0;
}

/**
 * A code presented again: always refused (RFC 6749 §4.1.2: MUST deny). What it issued is revoked
 * only when the replay passes client authentication and the PKCE check (`replayProvesLeak`). The
 * log line names the clients and whether anything was revoked, never the code or the verifier.
 */
async function refuseReplay(ctx: TokenContext, input: ExchangeInput, code: CodeRow, now: Date): Promise<OAuthError> {
  const leaked = replayProvesLeak(code, input);
  let revoked = false;
  if (leaked) {
    revoked = await ctx.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(oauthCodes).where(eq(oauthCodes.codeHash, code.codeHash)).for('update');
      return locked ? revokeWhatCodeIssued(tx, locked, now) : false;
    });
  }
  ctx.logger.warn(
    {
      event: 'oauth.code.replayed',
      clientId: code.clientId,
      presentedBy: input.client.id,
      grantId: code.grantId,
      provesLeak: leaked,
      revoked,
    },
    revoked ? 'authorization code presented again; what it issued is revoked' : 'authorization code presented again; refused',
  );
  return invalidCode();
}

/**
 * The slow path, when the one-statement redemption issued nothing: read the code and answer
 * precisely. An unknown code is invalid; a code already redeemed by someone else is a replay
 * (see `refuseReplay`); a code that fails a check is burnt (single use, single attempt); a code
 * that passed everything was burnt by us but its grant was withdrawn or replaced meanwhile.
 */
async function refusal(
  ctx: TokenContext,
  input: ExchangeInput,
  codeHash: string,
  familyId: string,
  presented: PresentedCode,
): Promise<OAuthError> {
  const { now } = presented;
  const [code] = await ctx.db.select().from(oauthCodes).where(eq(oauthCodes.codeHash, codeHash)).limit(1);
  if (!code) return invalidCode();
  if (code.redeemedAt && code.issuedFamilyId === familyId) {
    return new OAuthError('invalid_grant', 'The consent behind this code was withdrawn or replaced.');
  }
  if (code.redeemedAt) return refuseReplay(ctx, input, code, now);
  const burnt = await ctx.db
    .update(oauthCodes)
    .set({ redeemedAt: now })
    .where(and(eq(oauthCodes.codeHash, codeHash), isNull(oauthCodes.redeemedAt)))
    .returning({ codeHash: oauthCodes.codeHash });
  // Redeemed by a parallel request between our read and this burn: that is a replay too.
  if (burnt.length === 0) return refusal(ctx, input, codeHash, familyId, presented);
  return (
    (await firstFailedCondition(ctx.db, codeHash, presented)) ??
    new OAuthError('invalid_grant', 'The consent behind this code was withdrawn or replaced.')
  );
}

/**
 * The authorization_code grant: one statement redeems a valid code and stores the refresh
 * token (see `redeemCode`), then the access token is signed from what the code carried. Exactly
 * one token set is ever issued per code; a second redemption (in parallel or later) is a replay,
 * refused, and revokes that set when it comes from the same client with the right verifier
 * (see `refuseReplay`). A code that fails a check is burnt all the same.
 * @see https://datatracker.ietf.org/doc/html/draft-ietf-oauth-v2-1-13#section-4.1.3
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-4.6
 */
export async function exchangeAuthorizationCode(ctx: TokenContext, input: ExchangeInput): Promise<TokenResponse> {
  const now = ctx.now();
  const codeHash = hashSecret(input.code);
  const familyId = newId('oauthTokenFamily');
  const presented = presentCode({ ...input, clientId: input.client.id }, now, ctx.urls.resource);
  // A malformed verifier or a resource not ours can redeem nothing: only the slow path answers.
  if (presented.challenge !== null && !(presented.resource instanceof OAuthError)) {
    const signer = await ctx.signer();
    const refreshToken = `${REFRESH_TOKEN_PREFIX}${newSecret(32)}`;
    const issued = await redeemCode(ctx.db, codeHash, presented, {
      id: newId('oauthRefreshToken'),
      hash: hashSecret(refreshToken),
      familyId,
      expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_S * 1000),
    });
    if (issued) {
      const access = await signAccessToken(signer, {
        userId: issued.user_id,
        workspaceId: issued.workspace_id,
        clientId: issued.client_id,
        grantId: issued.grant_id,
        grantGeneration: Number(issued.grant_generation),
        scope: issued.scope,
        resource: issued.resource,
        issuer: ctx.urls.issuer,
        now,
      });
      ctx.logger.info(
        { event: 'oauth.token.issued', grantType: 'authorization_code', clientId: input.client.id },
        'tokens issued',
      );
      return {
        access_token: access.token,
        token_type: 'Bearer',
        expires_in: access.expiresIn,
        refresh_token: refreshToken,
        scope: issued.scope,
      };
    }
  }
  throw await refusal(ctx, input, codeHash, familyId, presented);
}
