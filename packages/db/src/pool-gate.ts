import { markDatabaseError } from '@sess/core';

/**
 * A wait of ours on the database that ran out: `POOL_TIMEOUT` (no pool connection became free;
 * nothing was sent) or `PING_TIMEOUT` (a health check got no answer in time).
 */
export class DatabaseWaitError extends Error {
  override readonly name = 'DatabaseWaitError';
  constructor(
    readonly code: 'POOL_TIMEOUT' | 'PING_TIMEOUT',
    waitedMs: number,
  ) {
    super(
      code === 'POOL_TIMEOUT'
        ? `No database connection became free within ${waitedMs} ms.`
        : `The database did not answer within ${waitedMs} ms.`,
    );
    markDatabaseError(this);
  }
}

/** Resolves or rejects as `promise` does, or rejects with `DatabaseWaitError('PING_TIMEOUT')` after `ms`. */
export function withinMs<T>(promise: PromiseLike<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DatabaseWaitError('PING_TIMEOUT', ms)), ms);
  });
  return Promise.race([Promise.resolve(promise), timeout]).finally(() => clearTimeout(timer));
}

/** Admits at most `max` top-level database operations at once; the rest wait, but not forever. */
export interface PoolGate {
  run<T>(operation: () => PromiseLike<T>): Promise<T>;
}

/**
 * The bound on waiting for a free pool connection. postgres.js queues a query indefinitely
 * while every connection is busy, and a busy connection may be one trying to connect to a
 * server that does not answer: each queued query then waits for its turn at a connect attempt
 * of up to `connect_timeout`, one after the other. In front of the pool, this gate lets at most
 * `max` operations (a statement, or a whole transaction) through at once and fails the ones
 * that waited `waitMs` with `DatabaseWaitError('POOL_TIMEOUT')` (classified unavailable, nothing sent).
 */
export function createPoolGate(max: number, waitMs: number): PoolGate {
  let active = 0;
  const waiting: Array<{ admit: () => void }> = [];

  const release = () => {
    const next = waiting.shift();
    if (next) next.admit();
    else active--;
  };

  return {
    run<T>(operation: () => PromiseLike<T>): Promise<T> {
      const start = (): Promise<T> => {
        let result: Promise<T>;
        try {
          result = Promise.resolve(operation());
        } catch (error) {
          result = Promise.reject(error);
        }
        return result.finally(release);
      };
      if (active < max) {
        active++;
        return start();
      }
      return new Promise<T>((resolve, reject) => {
        const entry = {
          admit: () => {
            clearTimeout(timer);
            start().then(resolve, reject);
          },
        };
        const timer = setTimeout(() => {
          const at = waiting.indexOf(entry);
          if (at >= 0) waiting.splice(at, 1);
          reject(new DatabaseWaitError('POOL_TIMEOUT', waitMs));
        }, waitMs);
        waiting.push(entry);
      });
    },
  };
}
