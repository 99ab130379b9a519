import type { Timers } from '@sess/core';

/**
 * Timers that fire only when the test says so: hand them to what takes core's `Timers` (the
 * database layer's pool gate, breaker and probes; the MCP edge's request deadline), so a test
 * sees that something waits and then ends the wait itself, instead of sleeping or timing how long
 * it took.
 */
export interface ManualTimers extends Timers {
  /** How many timers are set and not yet fired or cleared; with `ms`, only those set for `ms`. */
  pending(ms?: number): number;
  /** Fires every pending timer (with `ms`, only those set for `ms`), in the order they were set. */
  fire(ms?: number): void;
}

export function createManualTimers(): ManualTimers {
  const pending = new Map<number, { ms: number; fire: () => void }>();
  let next = 0;
  const matching = (ms: number | undefined) => [...pending].filter(([, timer]) => ms === undefined || timer.ms === ms);
  return {
    setTimeout(callback, ms, ...args) {
      next++;
      pending.set(next, { ms, fire: () => callback(...args) });
      return next;
    },
    clearTimeout(handle) {
      pending.delete(handle as number);
    },
    pending: (ms) => matching(ms).length,
    fire(ms) {
      const due = matching(ms);
      for (const [handle] of due) pending.delete(handle);
      for (const [, timer] of due) timer.fire();
    },
  };
}
