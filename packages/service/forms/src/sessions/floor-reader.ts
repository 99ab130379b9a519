import { createBusCache, type DbOrTx, type NotifyBus, queryRows } from '@sess/db';
import type { AssuranceLevel } from '@sess/surface';
import { sql } from 'drizzle-orm';

/*
 * The floors of new forms (issue 37). Every create needs its maker's floor, and a floor a person
 * has just raised must hold for their next form — on every replica. So floors are cached per
 * process only while this process listens on `assurance_floors`, where a trigger (migration
 * 0015) names every floor that changes, delivered when its transaction commits; an entry is
 * dropped then, all of them when the bus reconnects (a notification may have been missed), and
 * each lapses after a minute regardless. The reads a miss makes in one turn of the event loop
 * are one query, so a burst of creates still reaches the group commit (`CreateBatcher`) together.
 */

/** The channel the trigger of migration 0015 notifies: `p <user id>` or `w <workspace id>`. */
export const ASSURANCE_FLOORS_CHANNEL = 'assurance_floors';
const FLOOR_TTL_MS = 60_000;
const FLOOR_CACHE_MAX = 50_000;

export type FloorOf = { kind: 'person'; userId: string } | { kind: 'workspace'; workspaceId: string };

export interface FloorReader {
  /** The floor, or undefined when there is no such person or workspace. */
  read(of: FloorOf): Promise<AssuranceLevel | undefined>;
  /** Drops what is cached under `key` (a create found it stale): the next read asks the database. */
  forget(key: string): void;
  close(): Promise<void>;
}

/** The cache key, as the trigger words its payload (and the create's statement reads it: `FormAudience.floorSeen`). */
export const floorKey = (of: FloorOf) => (of.kind === 'person' ? `p ${of.userId}` : `w ${of.workspaceId}`);

/** Reads the floors of `of` in one query (absent keys: no such person or workspace). */
async function readFloors(db: DbOrTx, of: readonly FloorOf[]): Promise<Map<string, AssuranceLevel>> {
  const users = [...new Set(of.flatMap((o) => (o.kind === 'person' ? [o.userId] : [])))];
  const spaces = [...new Set(of.flatMap((o) => (o.kind === 'workspace' ? [o.workspaceId] : [])))];
  const rows = await queryRows<{ key: string; floor: AssuranceLevel }>(
    db,
    sql`select 'p ' || id as key, assurance_floor as floor from users
         where id in (select json_array_elements_text(${JSON.stringify(users)}::json))
        union all
        select 'w ' || id as key, api_key_assurance_floor as floor from workspaces
         where id in (select json_array_elements_text(${JSON.stringify(spaces)}::json))`,
  );
  return new Map(rows.map((row) => [row.key, row.floor]));
}

/** One floor, read in `db` (a caller's transaction): no cache, since the transaction may have changed it. */
export async function readFloor(db: DbOrTx, of: FloorOf): Promise<AssuranceLevel | undefined> {
  return (await readFloors(db, [of])).get(floorKey(of));
}

interface Waiting {
  of: FloorOf;
  resolve(floor: AssuranceLevel | undefined): void;
  reject(error: unknown): void;
}

export function createFloorReader(db: DbOrTx, bus: NotifyBus | undefined, now: () => number): FloorReader {
  const cache = createBusCache<AssuranceLevel>({
    ...(bus ? { bus } : {}),
    channel: ASSURANCE_FLOORS_CHANNEL,
    now,
    ttlMs: FLOOR_TTL_MS,
    maxEntries: FLOOR_CACHE_MAX,
  });
  let waiting: Waiting[] = [];
  // Counts `forget`s, as the cache's version counts notifications.
  let forgotten = 0;

  async function flush(): Promise<void> {
    const batch = waiting;
    waiting = [];
    // A read that an invalidation or a forget overtakes is used once, not cached.
    const since = cache.version;
    const forgottenBefore = forgotten;
    try {
      const floors = await readFloors(
        db,
        batch.map((w) => w.of),
      );
      if (cache.listening && forgotten === forgottenBefore) for (const [key, floor] of floors) cache.set(key, floor, since);
      for (const w of batch) w.resolve(floors.get(floorKey(w.of)));
    } catch (error) {
      for (const w of batch) w.reject(error);
    }
  }

  return {
    read(of) {
      // Subscribing takes a moment; until then every read goes to the database.
      // (listen() subscribes once; one that failed is tried again by the next read.)
      if (!cache.listening) cache.listen().catch(() => {});
      const cached = cache.get(floorKey(of));
      if (cached !== undefined) return Promise.resolve(cached);
      return new Promise((resolve, reject) => {
        if (waiting.length === 0) queueMicrotask(() => void flush());
        waiting.push({ of, resolve, reject });
      });
    },
    forget(key) {
      forgotten++;
      cache.delete(key);
    },
    close: () => cache.close(),
  };
}
