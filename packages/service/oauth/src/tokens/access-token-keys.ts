import { type Db, type DbOrTx, oauthSigningKeys } from '@sess/db';
import { generateSigningKey, openPrivateJwk, sealPrivateJwk } from '@sess/receipts';
import { and, eq, gt, isNull, or } from 'drizzle-orm';
import { type CryptoKey, importJWK } from 'jose';
import { ACCESS_TOKEN_TTL_S } from '../settings.ts';

/** The access-token algorithm: ES256, the only one our verifier accepts. */
export const ACCESS_TOKEN_ALG = 'ES256';

/** The active signing key, imported once (not extractable). */
export interface AccessTokenSigner {
  kid: string;
  privateKey: CryptoKey;
}

/** One published verification key. */
export interface PublishedAccessTokenKey {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  kid: string;
  alg: typeof ACCESS_TOKEN_ALG;
  use: 'sig';
}

/**
 * The keys that are valid for verification: the active key and retired keys whose tokens may
 * still be alive (retired less than one access-token lifetime ago).
 */
export async function loadVerificationKeys(db: DbOrTx, now: Date): Promise<PublishedAccessTokenKey[]> {
  const retiredSince = new Date(now.getTime() - ACCESS_TOKEN_TTL_S * 1000);
  const rows = await db
    .select({ kid: oauthSigningKeys.kid, publicJwk: oauthSigningKeys.publicJwk })
    .from(oauthSigningKeys)
    .where(
      or(
        eq(oauthSigningKeys.status, 'active'),
        and(eq(oauthSigningKeys.status, 'retired'), gt(oauthSigningKeys.retiredAt, retiredSince)),
      ),
    );
  return rows.map((row) => ({
    kty: 'EC',
    crv: 'P-256',
    x: row.publicJwk.x,
    y: row.publicJwk.y,
    kid: row.kid,
    alg: ACCESS_TOKEN_ALG,
    use: 'sig',
  }));
}

/** Imports a published key for ES256 verification (only its public members are read). */
export async function importVerificationKey(jwk: PublishedAccessTokenKey): Promise<CryptoKey> {
  const key = await importJWK({ kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }, ACCESS_TOKEN_ALG);
  if (key instanceof Uint8Array) throw new TypeError('expected an EC public key');
  return key;
}

/**
 * The active key, created on first use: a fresh P-256 key is sealed with the server secret
 * (reusing @sess/receipts' sealing, kid as AAD) and inserted as `active`. Two replicas racing
 * here both insert; the partial unique index keeps one and the loser reads the winner's key.
 */
async function ensureActiveKey(db: Db, secret: string, now: Date): Promise<{ kid: string; sealed: string }> {
  const read = async () => {
    const [row] = await db
      .select({ kid: oauthSigningKeys.kid, sealed: oauthSigningKeys.sealedPrivateJwk })
      .from(oauthSigningKeys)
      .where(and(eq(oauthSigningKeys.status, 'active'), isNull(oauthSigningKeys.retiredAt)))
      .limit(1);
    return row;
  };
  const existing = await read();
  if (existing) return existing;
  const key = await generateSigningKey({ now: () => now });
  await db
    .insert(oauthSigningKeys)
    .values({
      kid: key.kid,
      alg: ACCESS_TOKEN_ALG,
      publicJwk: key.publicJwk,
      sealedPrivateJwk: sealPrivateJwk(secret, key),
      status: 'active',
      createdAt: now,
    })
    .onConflictDoNothing();
  const created = await read();
  if (!created) throw new Error('no active access-token signing key after creating one');
  return created;
}

/**
 * The signer of this process: loads (or creates) the active key once and keeps the imported
 * private key. Call it outside any transaction (on PGlite a second query inside one would wait
 * for itself).
 */
export function createAccessTokenSigner(options: { db: Db; secret: string; now: () => Date }): () => Promise<AccessTokenSigner> {
  let signer: Promise<AccessTokenSigner> | undefined;
  return function getAccessTokenSigner() {
    signer ??= (async () => {
      const active = await ensureActiveKey(options.db, options.secret, options.now());
      const jwk = openPrivateJwk(options.secret, { kid: active.kid, sealed: active.sealed });
      const privateKey = await importJWK({ kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, d: jwk.d }, ACCESS_TOKEN_ALG, {
        extractable: false,
      });
      if (privateKey instanceof Uint8Array) throw new TypeError('expected an EC private key');
      return { kid: active.kid, privateKey };
    })().catch((error) => {
      signer = undefined;
      throw error;
    });
    return signer;
  };
}
