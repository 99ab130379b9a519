/**
 * A short memory of failures per key (a negative cache): `get` answers while the failure is
 * younger than `ttlMs`. Bounded: past `maxEntries` the oldest entry is forgotten, which is also
 * the one nearest to expiry (every entry lives as long), so a flood of keys cannot grow memory.
 */
export interface FailureCache {
  /** The failure remembered for `key`, while it is recent. */
  get(key: string): string | undefined;
  remember(key: string, failure: string): void;
}

export interface FailureCacheOptions {
  ttlMs: number;
  maxEntries: number;
  /** Milliseconds; the injected clock. */
  now: () => number;
}

export function createFailureCache({ ttlMs, maxEntries, now }: FailureCacheOptions): FailureCache {
  // Insertion order is expiry order (one TTL for all), so expired entries are at the front.
  const entries = new Map<string, { failure: string; expiresAt: number }>();
  function forgetExpired(at: number): void {
    for (const [key, entry] of entries) {
      if (entry.expiresAt > at) return;
      entries.delete(key);
    }
  }
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt > now()) return entry.failure;
      entries.delete(key);
      return undefined;
    },
    remember(key, failure) {
      const at = now();
      forgetExpired(at);
      entries.delete(key);
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(key, { failure, expiresAt: at + ttlMs });
    },
  };
}
