import { type DbOrTx, vapidKeys } from '@sess/db';
import { eq } from 'drizzle-orm';
import webPush from 'web-push';
import type { NotifySealers } from './sealers.ts';

const VAPID_ROW = 'vapid';

/** The deployment's VAPID key pair, base64url (public: the 65-byte point browsers subscribe with). */
export interface VapidKeyPair {
  publicKey: string;
  privateKey: string;
}

/**
 * The deployment's VAPID keys, made on first use and stored with the private key sealed. Two
 * replicas starting at once both try to insert; the row that lands first is the one both use.
 */
export async function loadVapidKeys(db: DbOrTx, sealers: NotifySealers): Promise<VapidKeyPair> {
  const read = async () => {
    const [row] = await db.select().from(vapidKeys).where(eq(vapidKeys.id, VAPID_ROW));
    return row && { publicKey: row.publicKey, privateKey: sealers.vapid.open(VAPID_ROW, row.sealedPrivateKey) };
  };
  const existing = await read();
  if (existing) return existing;
  const made = webPush.generateVAPIDKeys();
  await db
    .insert(vapidKeys)
    .values({ id: VAPID_ROW, publicKey: made.publicKey, sealedPrivateKey: sealers.vapid.seal(VAPID_ROW, made.privateKey) })
    .onConflictDoNothing();
  const stored = await read();
  if (!stored) throw new Error('VAPID keys were not stored');
  return stored;
}
