import type { Db } from '@sess/db';
import { revokeGrant } from './revoke-grant.ts';

/**
 * Disconnects one grant of the person's own (another person's grant id is simply not found);
 * the connected-apps page disconnects a whole app × workspace with `disconnectConnectedApp`. Every token of the app stops working on every replica within
 * about a second (the NOTIFY reaches each verifier's cache).
 */
export async function disconnectApp(db: Db, input: { userId: string; grantId: string; now: Date }): Promise<boolean> {
  return db.transaction((tx) => revokeGrant(tx, { grantId: input.grantId, userId: input.userId, now: input.now }));
}
