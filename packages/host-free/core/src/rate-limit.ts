/**
 * An in-process fixed-window rate limiter keyed by any string (an IP, an account, a principal).
 * Per process by design: with N replicas the effective limit is at most N× the configured one,
 * which is the right trade for abuse control on hot paths (no database round trip). Anything
 * that must hold across replicas (e.g. password attempts per account) counts in the database.
 */
export interface RateLimiter {
  /** Counts one hit for `key`; `ok: false` carries how long to wait before the window resets. */
  hit(key: string): { ok: true; remaining: number } | { ok: false; retryAfterSeconds: number };
  /** Forgets `key` (e.g. after a successful sign-in). */
  reset(key: string): void;
}

export interface RateLimiterOptions {
  /** Hits allowed per window. */
  limit: number;
  windowMs: number;
  now?: () => number;
  /** Upper bound on tracked keys, so a flood of distinct keys cannot exhaust memory. */
  maxKeys?: number;
}

export function createRateLimiter({ limit, windowMs, now = Date.now, maxKeys = 100_000 }: RateLimiterOptions): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  function makeRoom(at: number): void {
    for (const [key, window] of windows) if (at - window.start >= windowMs) windows.delete(key);
    // Still full: forget the oldest window (Map keeps insertion order) rather than grow.
    if (windows.size >= maxKeys) windows.delete(windows.keys().next().value as string);
  }
  return {
    hit(key) {
      const at = now();
      let window = windows.get(key);
      if (!window || at - window.start >= windowMs) {
        if (!window && windows.size >= maxKeys) makeRoom(at);
        window = { start: at, count: 0 };
        windows.set(key, window);
      }
      window.count++;
      if (window.count > limit)
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((window.start + windowMs - at) / 1000)) };
      return { ok: true, remaining: limit - window.count };
    },
    reset(key) {
      windows.delete(key);
    },
  };
}
