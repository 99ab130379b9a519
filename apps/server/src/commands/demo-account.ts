import { createApiKey, createUserAccount, listApiKeys, listWorkspacesForUser, revokeApiKey } from '@sess/accounts';
import { newSecret } from '@sess/core';
import type { Db } from '@sess/db';

/** The demo's own account: a reserved-looking address no mail is ever sent to. */
export const DEMO_EMAIL = 'demo@sess.localhost';
/** The name of the demo's API key on the account's key list. */
export const DEMO_KEY_NAME = 'npm run demo';

export interface DemoAccount {
  /** False when an earlier run made it and this one reused it. */
  created: boolean;
  userId: string;
  workspaceId: string;
  apiKeyId: string;
  /** The key itself: held in memory for this run only, never written anywhere. */
  apiKey: string;
  /** How many earlier demo keys this run revoked. */
  revokedKeys: number;
}

/**
 * The demo account and a fresh API key for this run. The account (and its personal workspace)
 * is made once and reused; it has a random password no one is told, so nobody signs in as it.
 * The key is made anew each run and every earlier demo key is revoked first: nothing secret is
 * stored on disk between runs, and the account never holds more than one live demo key.
 */
export async function prepareDemoAccount(db: Db, now: () => Date): Promise<DemoAccount> {
  const existing = await db.query.users.findFirst({ where: (users, { eq }) => eq(users.email, DEMO_EMAIL) });
  let created = false;
  let userId: string;
  let workspaceId: string | undefined;
  if (existing) {
    userId = existing.id;
    workspaceId = (await listWorkspacesForUser(db, userId)).find((w) => w.role === 'owner')?.id;
  } else {
    const account = await createUserAccount(db, { email: DEMO_EMAIL, password: newSecret(24), now: now() });
    created = true;
    userId = account.userId;
    workspaceId = account.workspaceId;
  }
  if (!workspaceId) throw new Error(`The demo account ${DEMO_EMAIL} owns no workspace; delete that user and run the demo again.`);
  let revokedKeys = 0;
  for (const key of await listApiKeys({ ctx: { db }, workspaceId })) {
    if (key.name !== DEMO_KEY_NAME || key.revokedAt) continue;
    await revokeApiKey({ ctx: { db, now }, workspaceId, apiKeyId: key.id });
    revokedKeys++;
  }
  const key = await createApiKey({ ctx: { db, now }, input: { workspaceId, name: DEMO_KEY_NAME, createdBy: userId } });
  return { created, userId, workspaceId, apiKeyId: key.id, apiKey: key.key, revokedKeys };
}
