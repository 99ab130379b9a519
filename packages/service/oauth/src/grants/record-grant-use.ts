import type { Logger } from '@sess/core';
import type { DbOrTx } from '@sess/db';
import { sql } from 'drizzle-orm';

/**
 * A grant's `last_used_at` moves at most once per this long: "Last used" on the connected-apps
 * page is read by a person, so minutes are precise enough, and a busy app costs one write per
 * grant per five minutes, not one per request.
 */
export const GRANT_USE_GRANULARITY_MS = 5 * 60_000;

/** Grants remembered per process before the oldest are forgotten (a forgotten one may write once more). */
const MAX_REMEMBERED = 10_000;

export interface GrantUseRecorder {
  /** Notes that an access token of this grant was just accepted; returns at once (the write, if any, runs behind). */
  record(grantId: string): void;
  /** Waits for the writes already started (close and tests). */
  settled(): Promise<void>;
}

/**
 * Records that a grant's access token was used, cheaply: the process remembers when it last
 * wrote each grant and skips the write within `GRANT_USE_GRANULARITY_MS`; the UPDATE is guarded
 * the same way in SQL, so replicas (and the token endpoint's own writes on a code exchange or
 * refresh) together still move a row at most once per interval. The request never waits for it;
 * a failed write loses a timestamp and is logged by its class only.
 */
export function createGrantUseRecorder(options: { db: DbOrTx; now: () => Date; logger?: Logger }): GrantUseRecorder {
  const written = new Map<string, number>();
  const pending = new Set<Promise<unknown>>();

  function forgetOldest(at: number): void {
    for (const [grantId, when] of written) if (at - when >= GRANT_USE_GRANULARITY_MS) written.delete(grantId);
    while (written.size >= MAX_REMEMBERED) written.delete(written.keys().next().value as string);
  }

  return {
    record(grantId) {
      const now = options.now();
      const at = now.getTime();
      const last = written.get(grantId);
      if (last !== undefined && at - last < GRANT_USE_GRANULARITY_MS) return;
      if (last === undefined && written.size >= MAX_REMEMBERED) forgetOldest(at);
      written.delete(grantId);
      written.set(grantId, at);
      const stale = new Date(at - GRANT_USE_GRANULARITY_MS).toISOString();
      const write = options.db
        .execute(
          sql`update oauth_grants set last_used_at = ${now.toISOString()}::timestamptz
               where id = ${grantId} and revoked_at is null
                 and (last_used_at is null or last_used_at <= ${stale}::timestamptz)`,
        )
        .catch((error: unknown) => {
          options.logger?.warn({ event: 'oauth.grant.touch_failed', err: error }, 'grant last_used_at not updated');
        })
        .finally(() => pending.delete(write));
      pending.add(write);
    },
    async settled() {
      await Promise.all([...pending]);
    },
  };
}
