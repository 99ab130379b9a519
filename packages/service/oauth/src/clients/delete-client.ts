import { type Db, oauthClients, oauthGrants } from '@sess/db';
import { eq } from 'drizzle-orm';
import { publishGrantChange } from '../grants/publish-grant-change.ts';

/**
 * Deletes a client and, by cascade, its grants, codes and refresh tokens. Verifiers are told
 * about each grant, so its tokens stop at once; the token endpoint then answers the client
 * `invalid_client` (401), which tells Claude to register again.
 */
export async function deleteClient(db: Db, clientId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const grants = await tx.select({ id: oauthGrants.id }).from(oauthGrants).where(eq(oauthGrants.clientId, clientId));
    const deleted = await tx.delete(oauthClients).where(eq(oauthClients.id, clientId)).returning({ id: oauthClients.id });
    for (const grant of grants) await publishGrantChange(tx, grant.id);
    return deleted.length > 0;
  });
}
