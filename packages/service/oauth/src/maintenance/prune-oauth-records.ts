import { createSweeper, type Logger } from '@sess/core';
import { type Db, queryRows } from '@sess/db';
import { sql } from 'drizzle-orm';

const DAY_MS = 24 * 3600_000;

/** How many rows one prune removed. */
export interface PruneReport {
  codes: number;
  refreshTokens: number;
  grants: number;
  clients: number;
}

async function count(db: Db, query: ReturnType<typeof sql>): Promise<number> {
  return (await queryRows(db, query)).length;
}

/**
 * Deletes what no longer serves any purpose:
 * - codes a day past expiry (kept that long so a late replay is still recognised and revoked);
 * - refresh tokens a day past expiry (until then a rotated one still triggers reuse detection;
 *   a rotated row's sealed grace response goes with it — it opens only with that old token);
 * - grants revoked more than 90 days ago (their tokens died with the revocation);
 * - DCR clients never connected (no grant) 7 days after registering — Claude registers one per
 *   connection — and CIMD cache rows with no grant untouched for 30 days.
 */
export async function pruneOAuthRecords(db: Db, now: Date): Promise<PruneReport> {
  const at = (ms: number) => new Date(now.getTime() - ms).toISOString();
  return {
    codes: await count(db, sql`delete from oauth_codes where expires_at < ${at(DAY_MS)}::timestamptz returning 1`),
    refreshTokens: await count(
      db,
      sql`delete from oauth_refresh_tokens where expires_at < ${at(DAY_MS)}::timestamptz returning 1`,
    ),
    grants: await count(db, sql`delete from oauth_grants where revoked_at < ${at(90 * DAY_MS)}::timestamptz returning 1`),
    clients: await count(
      db,
      sql`delete from oauth_clients c
          where ((c.kind = 'dcr' and c.created_at < ${at(7 * DAY_MS)}::timestamptz)
              or (c.kind = 'cimd' and c.updated_at < ${at(30 * DAY_MS)}::timestamptz))
            and not exists (select 1 from oauth_grants g where g.client_id = c.id)
          returning 1`,
    ),
  };
}

/**
 * Runs `pruneOAuthRecords` at most once an hour per process, riding on registration and token
 * traffic (see `createSweeper`).
 */
export function createOAuthSweeper(db: Db, logger: Logger, now: () => Date): () => Promise<void> | undefined {
  return createSweeper({ name: 'oauth', logger, now, sweep: async (at) => ({ ...(await pruneOAuthRecords(db, at)) }) });
}
