import { activeTracer, REAL_TIMERS, type Timers } from '@sess/core';
import { DatabaseWaitError } from './pool-gate.ts';

/** Runs at most `perKey` operations of one key at once; others of that key wait their turn, briefly. */
export interface KeyedGate {
  run<T>(key: string, operation: () => PromiseLike<T>): Promise<T>;
}

export interface KeyedGateOptions {
  /** Operations of one key in flight at once. */
  perKey: number;
  /** Operations of one key that may wait; one more is refused at once. */
  maxWaitingPerKey: number;
  /** How long one may wait for its key's turn. */
  waitMs: number;
  timers?: Timers;
}

interface KeyState {
  active: number;
  waiting: Array<() => void>;
}

/**
 * A bound per tenant (a workspace's writes): however many of one key arrive, at most `perKey` of
 * them hold a database connection, so one tenant's burst, or its writes stuck on a lock, cannot
 * take the pool from the others. The rest wait in arrival order, at most `maxWaitingPerKey` of
 * them and each at most `waitMs`; a refusal is `DatabaseWaitError('WRITES_BUSY')` (classified
 * unavailable, nothing sent: the operation never started). Keys with nothing in flight are
 * forgotten, so the map holds only the tenants writing right now.
 */
export function createKeyedGate(options: KeyedGateOptions): KeyedGate {
  const { perKey, maxWaitingPerKey, waitMs, timers = REAL_TIMERS } = options;
  const keys = new Map<string, KeyState>();

  const release = (key: string, state: KeyState) => {
    const next = state.waiting.shift();
    if (next) return next();
    state.active--;
    if (state.active === 0) keys.delete(key);
  };

  return {
    run<T>(key: string, operation: () => PromiseLike<T>): Promise<T> {
      let state = keys.get(key);
      if (!state) {
        state = { active: 0, waiting: [] };
        keys.set(key, state);
      }
      const own = state;
      const start = (): Promise<T> => {
        let result: Promise<T>;
        try {
          result = Promise.resolve(operation());
        } catch (error) {
          result = Promise.reject(error);
        }
        return result.finally(() => release(key, own));
      };
      if (own.active < perKey) {
        own.active++;
        return start();
      }
      if (own.waiting.length >= maxWaitingPerKey) return Promise.reject(new DatabaseWaitError('WRITES_BUSY', 0));
      return new Promise<T>((resolve, reject) => {
        // Admitted by `release`, which hands over its slot (`active` stays as it is), from another
        // operation's work: bound to this one's trace when tracing is on.
        const admitNow = () => {
          timers.clearTimeout(timer);
          start().then(resolve, reject);
        };
        const admit = activeTracer()?.bind(admitNow) ?? admitNow;
        const timer = timers.setTimeout(() => {
          const at = own.waiting.indexOf(admit);
          if (at >= 0) own.waiting.splice(at, 1);
          reject(new DatabaseWaitError('WRITES_BUSY', waitMs));
        }, waitMs);
        own.waiting.push(admit);
      });
    },
  };
}
