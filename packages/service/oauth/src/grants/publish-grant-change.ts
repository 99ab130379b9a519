import { type DbOrTx, notify } from '@sess/db';
import { GRANT_CHANNEL } from '../settings.ts';

/**
 * Tells every replica's access-token verifier that `grantId` changed (revoked, re-issued,
 * deleted). Sent inside the writing transaction, so it is delivered only after the change is
 * committed, and never for a change that rolled back.
 */
export async function publishGrantChange(tx: DbOrTx, grantId: string): Promise<void> {
  await notify(tx, GRANT_CHANNEL, grantId);
}
