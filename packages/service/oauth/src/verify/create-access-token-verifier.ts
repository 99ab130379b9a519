import type { Logger } from '@sess/core';
import { createBusCache, type Database, oauthGrants } from '@sess/db';
import { eq } from 'drizzle-orm';
import { type CryptoKey, decodeProtectedHeader, type JWTPayload, errors as joseErrors, jwtVerify } from 'jose';
import { createGrantUseRecorder } from '../grants/record-grant-use.ts';
import { buildOAuthUrls, GRANT_CHANNEL } from '../settings.ts';
import { importVerificationKey, loadVerificationKeys } from '../tokens/access-token-keys.ts';
import { ACCESS_TOKEN_TYP } from '../tokens/sign-access-token.ts';

/** Who a valid access token speaks for. */
export interface AccessTokenPrincipal {
  workspaceId: string;
  /** The user id (`sub`). */
  principalId: string;
  clientId: string;
  grantId: string;
  grantGeneration: number;
  scopes: string[];
  /** Expiry in seconds since the epoch (what the MCP SDK's `AuthInfo.expiresAt` expects). */
  expiresAt: number;
}

/** Why a token was refused. Log it; on the wire every one is `invalid_token`. */
export type AccessTokenFailure =
  | 'malformed'
  | 'unknown_key'
  | 'bad_signature'
  | 'wrong_issuer'
  | 'wrong_audience'
  | 'expired'
  | 'grant_revoked'
  | 'unavailable';

export type VerifyAccessTokenResult = { ok: true; principal: AccessTokenPrincipal } | { ok: false; reason: AccessTokenFailure };

export interface AccessTokenVerifier {
  /** Verifies a bearer token (signature, issuer, audience, expiry, grant liveness and generation). Never throws. */
  verify(token: string): Promise<VerifyAccessTokenResult>;
  /** Waits for the grants' last-use writes already started (a verify never waits for its own). */
  settled(): Promise<void>;
  /** Unsubscribes from the bus, drops the caches and waits for the last-use writes. */
  close(): Promise<void>;
}

export interface AccessTokenVerifierOptions {
  database: Database;
  /** PUBLIC_URL: the issuer; the audience is PUBLIC_URL/mcp. */
  publicUrl: string;
  now?: () => Date;
  logger?: Logger;
  /** Safety net on top of NOTIFY invalidation: a cached grant is re-read after this long. Default 60 s. */
  grantCacheMaxAgeMs?: number;
  /** Verified tokens remembered (so a repeat skips the signature). Default 10 000. */
  tokenCacheSize?: number;
}

interface TokenClaims {
  sub: string;
  exp: number;
  client_id: string;
  scope: string;
  workspace_id: string;
  grant_id: string;
  grant_generation: number;
}

interface GrantState {
  live: boolean;
  generation: number;
}

const MAX_TOKEN_LENGTH = 4096;
const KEY_RELOAD_COOLDOWN_MS = 5_000;

function toClaims(payload: JWTPayload): TokenClaims | null {
  const p = payload as Record<string, unknown>;
  const strings = ['sub', 'client_id', 'scope', 'workspace_id', 'grant_id'] as const;
  if (strings.some((name) => typeof p[name] !== 'string' || (p[name] as string).length === 0)) return null;
  if (typeof p['exp'] !== 'number' || !Number.isSafeInteger(p['grant_generation'])) return null;
  return p as unknown as TokenClaims;
}

function failureOf(error: unknown): AccessTokenFailure {
  if (error instanceof joseErrors.JWTExpired) return 'expired';
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return 'wrong_audience';
    if (error.claim === 'iss') return 'wrong_issuer';
    return 'malformed';
  }
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return 'bad_signature';
  return 'malformed';
}

/**
 * The resource server's access-token verifier (the MCP edge mounts it).
 *
 * - Signature (ES256 only, `typ: at+jwt`), issuer, audience (= PUBLIC_URL/mcp) and expiry with
 *   jose; the keys come from `oauth_signing_keys`, imported once and re-read (at most every 5 s)
 *   only when a token names an unknown kid.
 * - A token that verified once is remembered by its exact string (bounded map), so repeats skip
 *   the signature; expiry and the grant are still checked on every call.
 * - Each accepted token marks its grant used (`last_used_at`, the connected-apps page's "Last
 *   used"), at most once per grant per five minutes and without the request waiting for it.
 * - The grant's liveness and generation come from an in-process cache, invalidated on every
 *   replica through the notify bus (channel `oauth_grants`, subscribed once); when the bus
 *   reconnects the whole cache is dropped, since notifications may have been missed. A read that
 *   raced an invalidation is used once but not cached.
 * @see https://www.rfc-editor.org/rfc/rfc9068#section-4
 * @see https://www.rfc-editor.org/rfc/rfc8707#section-2 (audience)
 */
export function createAccessTokenVerifier(options: AccessTokenVerifierOptions): AccessTokenVerifier {
  const { database } = options;
  const urls = buildOAuthUrls(options.publicUrl);
  const now = options.now ?? (() => new Date());
  const grantMaxAgeMs = options.grantCacheMaxAgeMs ?? 60_000;
  const tokenCacheSize = options.tokenCacheSize ?? 10_000;

  const keys = new Map<string, CryptoKey>();
  let keysLoadedAt = Number.NEGATIVE_INFINITY;
  let keysLoading: Promise<void> | undefined;
  const tokens = new Map<string, TokenClaims>();
  let closed = false;
  const uses = createGrantUseRecorder({ db: database.db, now, ...(options.logger ? { logger: options.logger } : {}) });
  const grants = createBusCache<GrantState>({
    bus: database.bus,
    channel: GRANT_CHANNEL,
    now: () => now().getTime(),
    ttlMs: grantMaxAgeMs,
  });
  grants.listen().catch((error: unknown) => {
    options.logger?.error(
      { event: 'oauth.verifier.subscribe_failed', err: error },
      'grant invalidation unavailable; grants are not cached',
    );
  });

  async function reloadKeys(): Promise<void> {
    keysLoading ??= (async () => {
      try {
        const published = await loadVerificationKeys(database.db, now());
        for (const jwk of published) if (!keys.has(jwk.kid)) keys.set(jwk.kid, await importVerificationKey(jwk));
        keysLoadedAt = now().getTime();
      } finally {
        keysLoading = undefined;
      }
    })();
    return keysLoading;
  }

  async function keyFor(kid: unknown): Promise<CryptoKey | null> {
    if (typeof kid !== 'string') return null;
    const known = keys.get(kid);
    if (known) return known;
    if (now().getTime() - keysLoadedAt < KEY_RELOAD_COOLDOWN_MS) return null;
    await reloadKeys();
    return keys.get(kid) ?? null;
  }

  async function verifySignature(token: string): Promise<TokenClaims | AccessTokenFailure> {
    let kid: unknown;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      return 'malformed';
    }
    let key: CryptoKey | null;
    try {
      key = await keyFor(kid);
    } catch (error) {
      options.logger?.error({ event: 'oauth.verifier.keys_unavailable', err: error }, 'access-token keys could not be read');
      return 'unavailable';
    }
    if (!key) return 'unknown_key';
    try {
      const { payload } = await jwtVerify(token, key, {
        issuer: urls.issuer,
        audience: urls.resource,
        algorithms: ['ES256'],
        typ: ACCESS_TOKEN_TYP,
        currentDate: now(),
        requiredClaims: ['exp', 'iat', 'sub', 'jti'],
      });
      return toClaims(payload) ?? 'malformed';
    } catch (error) {
      return failureOf(error);
    }
  }

  function remember(token: string, claims: TokenClaims): void {
    if (tokens.size >= tokenCacheSize) {
      const at = now().getTime() / 1000;
      for (const [cached, c] of tokens) if (c.exp <= at) tokens.delete(cached);
      if (tokens.size >= tokenCacheSize) tokens.delete(tokens.keys().next().value as string);
    }
    tokens.set(token, claims);
  }

  async function grantState(grantId: string): Promise<GrantState | null> {
    const cached = grants.get(grantId);
    if (cached) return cached;
    const before = grants.version;
    const [row] = await database.db
      .select({ generation: oauthGrants.generation, revokedAt: oauthGrants.revokedAt })
      .from(oauthGrants)
      .where(eq(oauthGrants.id, grantId))
      .limit(1);
    const state: GrantState = row
      ? { live: row.revokedAt === null, generation: row.generation }
      : { live: false, generation: -1 };
    // Cache only what no invalidation could have overtaken, and only while notifications flow.
    if (grants.listening && !closed) grants.set(grantId, state, before);
    return state;
  }

  return {
    async verify(token) {
      if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH)
        return { ok: false, reason: 'malformed' };
      let claims = tokens.get(token);
      if (!claims) {
        const verified = await verifySignature(token);
        if (typeof verified === 'string') return { ok: false, reason: verified };
        claims = verified;
        remember(token, claims);
      }
      if (claims.exp * 1000 <= now().getTime()) {
        tokens.delete(token);
        return { ok: false, reason: 'expired' };
      }
      let grant: GrantState | null;
      try {
        grant = await grantState(claims.grant_id);
      } catch (error) {
        options.logger?.error({ event: 'oauth.verifier.grant_unavailable', err: error }, 'grant could not be read');
        return { ok: false, reason: 'unavailable' };
      }
      if (!grant?.live || grant.generation !== claims.grant_generation) return { ok: false, reason: 'grant_revoked' };
      uses.record(claims.grant_id);
      return {
        ok: true,
        principal: {
          workspaceId: claims.workspace_id,
          principalId: claims.sub,
          clientId: claims.client_id,
          grantId: claims.grant_id,
          grantGeneration: claims.grant_generation,
          scopes: claims.scope.split(' ').filter(Boolean),
          expiresAt: claims.exp,
        },
      };
    },
    settled: () => uses.settled(),
    async close() {
      closed = true;
      tokens.clear();
      await Promise.all([grants.close(), uses.settled()]);
    },
  };
}
