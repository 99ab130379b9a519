import { createBusCache, type DbOrTx, type NotifyBus, queryRows } from '@sess/db';
import { type SQL, sql } from 'drizzle-orm';

/**
 * The bus channel on which the triggers of migration 0010 name a person (payload: the user id)
 * whose devices or notification settings changed, on commit and whichever code made the change.
 */
export const REACH_CHANNEL = 'notify_reach';

/** How long a person's reach is trusted without a read, should a change's notification be lost. */
export const REACH_CACHE_TTL_MS = 60_000;

/** Whether a form for a person would be told to them. */
export interface Reach {
  /** A device with push on, or e-mail on where the deployment has e-mail. */
  reachable: boolean;
  /** They chose a reminder before an unanswered link lapses. */
  reminders: boolean;
}

/**
 * The one rule for "a channel reaches this person" (SQL over the person's users row `u` and
 * their settings `s`, which may be missing: every setting has its default).
 */
export function reachablePredicate(emailAvailable: SQL): SQL {
  return sql`((coalesce(s.push_enabled, true) and exists (select 1 from push_subscriptions p where p.user_id = u.id))
              or (coalesce(s.email_enabled, true) and ${emailAvailable}))`;
}

/** One indexed read of a person's reach; a person who does not exist is reached by nothing. */
export async function readReach(db: DbOrTx, userId: string, options: { emailAvailable: boolean }): Promise<Reach> {
  const rows = await queryRows<{ reachable: boolean; reminders: boolean }>(
    db,
    sql`select ${reachablePredicate(sql`${options.emailAvailable}::boolean`)} as reachable,
               coalesce(s.reminders, false) as reminders
          from users u left join notification_settings s on s.user_id = u.id
         where u.id = ${userId}`,
  );
  const row = rows[0];
  return { reachable: row?.reachable === true, reminders: row?.reminders === true };
}

export interface ReachCache {
  /** The person's reach, from this process's cache or one read. */
  of(userId: string): Promise<Reach>;
  close(): Promise<void>;
}

/**
 * A per-process cache of people's reach, so a create for someone a form reaches writes its
 * notice without looking them up, and a create for someone nothing reaches writes nothing.
 * A change to a person's devices or settings drops them on every replica when its
 * `REACH_CHANNEL` notification arrives; a lost listening connection clears the whole cache; and
 * an entry lapses after `ttlMs` in any case. The entry is the read itself, put in place before
 * it starts, so a change arriving while it runs drops it and no older answer outlives the change.
 * Nothing is cached unless the process listens.
 */
export function createReachCache(deps: {
  db: DbOrTx;
  bus: NotifyBus;
  emailAvailable: boolean;
  now?: () => number;
  ttlMs?: number;
  /** Bound on cached people (oldest dropped first). */
  maxEntries?: number;
}): ReachCache {
  const cache = createBusCache<Promise<Reach>>({
    bus: deps.bus,
    channel: REACH_CHANNEL,
    now: deps.now ?? Date.now,
    ttlMs: deps.ttlMs ?? REACH_CACHE_TTL_MS,
    maxEntries: deps.maxEntries ?? 10_000,
  });
  const options = { emailAvailable: deps.emailAvailable };
  // Not listening (the LISTEN failed): nothing is cached and every create reads — correct, only slower.
  const subscribed = cache.listen().catch(() => {});

  return {
    async of(userId) {
      // Listening before the first read: a change committed after it is never missed.
      if (!cache.listening) await subscribed;
      const hit = cache.get(userId);
      if (hit) return hit;
      const reach = readReach(deps.db, userId, options);
      if (!cache.listening) return reach;
      cache.set(userId, reach);
      // A failed read is not kept.
      reach.catch(() => {
        if (cache.get(userId) === reach) cache.delete(userId);
      });
      return reach;
    },
    close: () => cache.close(),
  };
}
