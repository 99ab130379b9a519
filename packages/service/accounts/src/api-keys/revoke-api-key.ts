import { SessError } from '@sess/core';
import type { DbOrTx } from '@sess/db';
import { apiKeys, notify } from '@sess/db';
import { and, eq, isNull } from 'drizzle-orm';
import { API_KEYS_CHANNEL } from './api-key-authenticator.ts';

/**
 * Revokes a key of this workspace: every server drops it as soon as the notification arrives
 * (at worst within the authenticator's 5-second cache). Idempotent: a
 * revoked key stays revoked. The row is kept for the audit trail.
 * @throws SessError `NOT_FOUND` (unknown key or another workspace's).
 */
export async function revokeApiKey({
  ctx,
  workspaceId,
  apiKeyId,
}: {
  ctx: { db: DbOrTx; now: () => Date };
  workspaceId: string;
  apiKeyId: string;
}): Promise<{ id: string; revokedAt: Date }> {
  const [revoked] = await ctx.db
    .update(apiKeys)
    .set({ revokedAt: ctx.now() })
    .where(and(eq(apiKeys.id, apiKeyId), eq(apiKeys.workspaceId, workspaceId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id, revokedAt: apiKeys.revokedAt });
  if (revoked?.revokedAt) {
    // Every replica's authenticator drops the key from its cache on this notification.
    await notify(ctx.db, API_KEYS_CHANNEL, revoked.id);
    return { id: revoked.id, revokedAt: revoked.revokedAt };
  }
  const [existing] = await ctx.db
    .select({ id: apiKeys.id, revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, apiKeyId), eq(apiKeys.workspaceId, workspaceId)));
  if (existing?.revokedAt) return { id: existing.id, revokedAt: existing.revokedAt };
  throw new SessError('NOT_FOUND', `No API key ${apiKeyId} in this workspace.`);
}
