import { hashSecret, type Logger } from '@sess/core';
import type { DbOrTx } from '@sess/db';
import { queryRows } from '@sess/db';
import { sql } from 'drizzle-orm';
import { isApiKeyShape } from './api-key-format.ts';

/** Who a valid API key acts for. */
export interface ApiKeyPrincipal {
  apiKeyId: string;
  workspaceId: string;
  /** The workspace's plan, so a create needs no second read. */
  plan: string;
}

/** `last_used_at` is written at most once per this many seconds per key: a read path stays a read. */
export const LAST_USED_GRANULARITY_SECONDS = 60;

/**
 * Looks a bearer key up by its SHA-256 (constant-time by construction: nothing is compared in
 * memory) and returns its workspace, or null for anything that is not a live key (malformed,
 * unknown, revoked). The hot path is one indexed read; `last_used_at` is refreshed only when it
 * is over a minute old, by a write that the request does not wait for.
 */
export async function authenticateApiKey(
  ctx: { db: DbOrTx; now: () => Date; logger?: Logger },
  key: string,
): Promise<ApiKeyPrincipal | null> {
  if (!isApiKeyShape(key)) return null;
  const now = ctx.now();
  const [row] = await queryRows<{ id: string; workspace_id: string; plan: string; last_used_at: string | null }>(
    ctx.db,
    sql`select k.id, k.workspace_id, w.plan, k.last_used_at
          from api_keys k join workspaces w on w.id = k.workspace_id
         where k.key_hash = ${hashSecret(key)} and k.revoked_at is null`,
  );
  if (!row) return null;
  const lastUsed = row.last_used_at === null ? 0 : new Date(row.last_used_at).getTime();
  if (now.getTime() - lastUsed >= LAST_USED_GRANULARITY_SECONDS * 1000) {
    const stale = new Date(now.getTime() - LAST_USED_GRANULARITY_SECONDS * 1000);
    // Guarded again in SQL, so concurrent requests write it once; a failure only loses a timestamp.
    ctx.db
      .execute(
        sql`update api_keys set last_used_at = ${now.toISOString()}::timestamptz
             where id = ${row.id} and (last_used_at is null or last_used_at < ${stale.toISOString()}::timestamptz)`,
      )
      .catch((error: unknown) => ctx.logger?.warn({ event: 'api_key.touch_failed', err: error }, 'last_used_at not updated'));
  }
  return { apiKeyId: row.id, workspaceId: row.workspace_id, plan: row.plan };
}
