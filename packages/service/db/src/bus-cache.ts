import type { NotifyBus } from './types.ts';

export interface BusCacheOptions<V> {
  /** Where invalidations arrive; without a bus, entries only expire. */
  bus?: NotifyBus;
  /** The channel whose payload names what changed. */
  channel: string;
  /** Milliseconds, from the caller's clock (tests move it instead of sleeping). */
  now: () => number;
  /** How long an entry is trusted without a read, should a notification be lost. */
  ttlMs: number;
  /** Bound on entries (oldest dropped first); unbounded when left out. */
  maxEntries?: number;
  /** Whether a notification's payload drops this entry (default: the payload is the key). */
  dropsOn?: (payload: string, key: string, value: V) => boolean;
}

/**
 * A per-process cache whose entries every replica drops when a notification on `channel` names
 * them, cleared whole when the bus reconnects (notifications may have been missed), and whose
 * entries lapse after `ttlMs` in any case.
 */
export interface BusCache<V> {
  /** Subscribes once (again after a failure); rejects when the LISTEN fails. */
  listen(): Promise<void>;
  /** True once subscribed, until closed; a cache that must miss no change stores only then. */
  readonly listening: boolean;
  /** Counts invalidations: a read that started at another count may have been overtaken. */
  readonly version: number;
  /** The live entry under `key`, if any. */
  get(key: string): V | undefined;
  /** Stores `value`, unless an invalidation arrived since `since` (a `version` read before the read). */
  set(key: string, value: V, since?: number): void;
  delete(key: string): void;
  close(): Promise<void>;
}

export function createBusCache<V>(options: BusCacheOptions<V>): BusCache<V> {
  const { bus, channel, now, ttlMs } = options;
  const max = options.maxEntries ?? Number.POSITIVE_INFINITY;
  const { dropsOn } = options;
  const entries = new Map<string, { value: V; until: number }>();
  let version = 0;
  let listening = false;
  let subscribing: Promise<void> | undefined;
  const stop: Array<() => unknown> = [];

  const clear = () => {
    entries.clear();
    version++;
  };
  const onNotification = (payload: string) => {
    if (!dropsOn) entries.delete(payload);
    else for (const [key, entry] of entries) if (dropsOn(payload, key, entry.value)) entries.delete(key);
    version++;
  };

  return {
    listen() {
      if (!bus) return Promise.resolve();
      subscribing ??= bus.subscribe(channel, onNotification).then(
        (unsubscribe) => {
          stop.push(unsubscribe, bus.onReconnect(clear));
          listening = true;
        },
        (error: unknown) => {
          subscribing = undefined;
          throw error;
        },
      );
      return subscribing;
    },
    get listening() {
      return listening;
    },
    get version() {
      return version;
    },
    get(key) {
      const hit = entries.get(key);
      return hit && hit.until > now() ? hit.value : undefined;
    },
    set(key, value, since) {
      if (since !== undefined && since !== version) return;
      entries.delete(key);
      if (entries.size >= max) entries.delete(entries.keys().next().value as string);
      entries.set(key, { value, until: now() + ttlMs });
    },
    delete(key) {
      entries.delete(key);
    },
    async close() {
      await subscribing?.catch(() => {});
      listening = false;
      subscribing = undefined;
      clear();
      await Promise.allSettled(stop.splice(0).map((s) => s()));
    },
  };
}
