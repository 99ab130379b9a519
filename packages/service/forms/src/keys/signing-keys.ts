import type { Db, DbOrTx } from '@sess/db';
import { notify, signingKeys } from '@sess/db';
import {
  createSigningKeyRing,
  generateSigningKey,
  openPrivateJwk,
  type ReceiptPublicJwk,
  type SigningKeyRing,
  sealPrivateJwk,
} from '@sess/receipts';
import { eq, inArray, sql } from 'drizzle-orm';

/** Channel on which a rotation is announced, so every replica reloads its key ring. */
export const SIGNING_KEYS_CHANNEL = 'sess_signing_keys';

// One arbitrary constant shared by every replica: serialises key creation and rotation.
const SIGNING_KEYS_LOCK = 7_368_024_418;

async function lockSigningKeys(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${SIGNING_KEYS_LOCK})`);
}

async function insertActiveKey(tx: DbOrTx, secret: string, now: Date): Promise<string> {
  const key = await generateSigningKey({ now: () => now });
  await tx.insert(signingKeys).values({
    kid: key.kid,
    alg: key.alg,
    publicJwk: key.publicJwk,
    sealedPrivateJwk: sealPrivateJwk(secret, key),
    status: 'active',
    createdAt: now,
  });
  return key.kid;
}

/**
 * Makes sure an active signing key exists, creating the first one on a fresh database. Safe to
 * call from several replicas at once: the advisory lock lets exactly one create it.
 * @returns the active kid and whether it was created now.
 */
export async function ensureSigningKey(
  db: Db,
  options: { secret: string; now: Date },
): Promise<{ kid: string; created: boolean }> {
  const [existing] = await db.select({ kid: signingKeys.kid }).from(signingKeys).where(eq(signingKeys.status, 'active'));
  if (existing) return { kid: existing.kid, created: false };
  return db.transaction(async (tx) => {
    await lockSigningKeys(tx);
    const [again] = await tx.select({ kid: signingKeys.kid }).from(signingKeys).where(eq(signingKeys.status, 'active'));
    if (again) return { kid: again.kid, created: false };
    const kid = await insertActiveKey(tx, options.secret, options.now);
    await notify(tx, SIGNING_KEYS_CHANNEL, kid);
    return { kid, created: true };
  });
}

/**
 * `sess keys rotate`: a new active key; the active one becomes previous (still published, so
 * receipts it signed keep verifying) and the previous one is retired (no longer published).
 * One transaction; every replica is told on commit and reloads its ring.
 */
export async function rotateSigningKeys(
  db: Db,
  options: { secret: string; now: Date },
): Promise<{ kid: string; previousKid: string | null; retiredKid: string | null }> {
  return db.transaction(async (tx) => {
    await lockSigningKeys(tx);
    const current = await tx
      .select({ kid: signingKeys.kid, status: signingKeys.status })
      .from(signingKeys)
      .where(inArray(signingKeys.status, ['active', 'previous']));
    const active = current.find((k) => k.status === 'active')?.kid ?? null;
    const previous = current.find((k) => k.status === 'previous')?.kid ?? null;
    // Order matters for the two partial unique indexes (one active, one previous).
    if (previous)
      await tx.update(signingKeys).set({ status: 'retired', rotatedAt: options.now }).where(eq(signingKeys.kid, previous));
    if (active)
      await tx.update(signingKeys).set({ status: 'previous', rotatedAt: options.now }).where(eq(signingKeys.kid, active));
    const kid = await insertActiveKey(tx, options.secret, options.now);
    await notify(tx, SIGNING_KEYS_CHANNEL, kid);
    return { kid, previousKid: active, retiredKid: previous };
  });
}

/**
 * Loads the active and previous keys and imports them once into a ring (signer, JWKS, local
 * key set). Returns null when there is no active key yet.
 * @throws SessError `NOT_CONFIGURED` when the active key cannot be opened with this secret.
 */
export async function loadSigningKeyRing(db: DbOrTx, secret: string): Promise<SigningKeyRing | null> {
  const rows = await db
    .select({
      kid: signingKeys.kid,
      status: signingKeys.status,
      publicJwk: signingKeys.publicJwk,
      sealed: signingKeys.sealedPrivateJwk,
    })
    .from(signingKeys)
    .where(inArray(signingKeys.status, ['active', 'previous']));
  const active = rows.find((r) => r.status === 'active');
  if (!active) return null;
  const previous = rows.find((r) => r.status === 'previous');
  return createSigningKeyRing({
    active: {
      kid: active.kid,
      publicJwk: active.publicJwk as ReceiptPublicJwk,
      privateJwk: openPrivateJwk(secret, { kid: active.kid, sealed: active.sealed }),
    },
    previous: previous ? { kid: previous.kid, publicJwk: previous.publicJwk as ReceiptPublicJwk } : null,
  });
}
