import type { DbOrTx } from '@sess/db';
import { apiKeys } from '@sess/db';
import { desc, eq } from 'drizzle-orm';

/** A key as a list shows it: never the key, only its prefix. */
export interface ApiKeySummary {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** The workspace's API keys, newest first (revoked ones included, marked). */
export async function listApiKeys({ ctx, workspaceId }: { ctx: { db: DbOrTx }; workspaceId: string }): Promise<ApiKeySummary[]> {
  return ctx.db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      prefix: apiKeys.prefix,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .where(eq(apiKeys.workspaceId, workspaceId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}
