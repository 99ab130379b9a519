import type { Logger } from '@sess/core';
import { REAL_TIMERS, type Timers } from '@sess/core';
import { classifyDatabaseError, isConnectFailure } from './classify-database-error.ts';
import { DatabaseWaitError } from './pool-gate.ts';

export interface BreakerOptions {
  /** One connection attempt to the database (a fresh connection, `select 1`): resolves once it answered. */
  probe: () => Promise<void>;
  /** How long after a failed attempt the next probe starts. */
  probeIntervalMs: number;
  timers?: Timers;
  logger?: Logger;
}

/**
 * In front of the pool: once a connection attempt was refused (or not answered), calls fail at
 * once while the database stays down, instead of each one trying (and waiting) for itself.
 */
export interface Breaker {
  /** True while calls fail at once with `DatabaseWaitError('DATABASE_DOWN')`. */
  readonly isOpen: boolean;
  /**
   * Runs `operation` and learns from how it ends: a refused connection opens the breaker, any
   * answer closes it. While open it fails at once, and `operation` is not called.
   */
  guard<T>(operation: () => PromiseLike<T>): Promise<T>;
  /** Resolves once the breaker is closed (at once when it is). */
  whenClosed(): Promise<void>;
  /** Stops probing (the database is being closed). */
  stop(): void;
}

/**
 * The breaker of one pool. It opens on the first connection attempt that fails as a down server
 * fails (`isConnectFailure`: refused, unreachable, timed out, "cannot connect now"): one more
 * attempt per call would only cost each caller the same refusal, or a connect timeout each. While
 * open, ONE probe at a time tries a fresh connection, `probeIntervalMs` after the last failed
 * one; its first success — or any call that got an answer from the server meanwhile — closes it.
 */
export function createBreaker(options: BreakerOptions): Breaker {
  const { probe, probeIntervalMs, logger, timers = REAL_TIMERS } = options;
  let open = false;
  let stopped = false;
  let timer: unknown;
  let closedWaiters: Array<() => void> = [];

  const close = () => {
    if (!open) return;
    open = false;
    timers.clearTimeout(timer);
    timer = undefined;
    logger?.info({ event: 'db.breaker_closed' }, 'database reachable again');
    const waiters = closedWaiters;
    closedWaiters = [];
    for (const resolve of waiters) resolve();
  };

  const scheduleProbe = () => {
    if (stopped) return;
    timer = timers.setTimeout(() => {
      timer = undefined;
      probe().then(close, (error: unknown) => {
        if (!open) return;
        logger?.debug({ event: 'db.breaker_probe_failed', err: error }, 'database still down');
        scheduleProbe();
      });
    }, probeIntervalMs);
  };

  const trip = (error: unknown) => {
    if (open) return;
    open = true;
    logger?.warn({ event: 'db.breaker_opened', err: error, probeIntervalMs }, 'database refused a connection: failing fast');
    scheduleProbe();
  };

  return {
    get isOpen() {
      return open;
    },
    async guard<T>(operation: () => PromiseLike<T>): Promise<T> {
      if (open) throw new DatabaseWaitError('DATABASE_DOWN');
      try {
        const result = await operation();
        close();
        return result;
      } catch (error) {
        if (isConnectFailure(error)) trip(error);
        // The server answered (a constraint, bad input, a bug of ours): it is up.
        else if (classifyDatabaseError(error).kind !== 'unavailable') close();
        throw error;
      }
    },
    whenClosed() {
      return open ? new Promise((resolve) => closedWaiters.push(resolve)) : Promise.resolve();
    },
    stop() {
      stopped = true;
      timers.clearTimeout(timer);
      timer = undefined;
    },
  };
}
