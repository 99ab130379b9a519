import { activeTracer, markDatabaseError, REAL_TIMERS, type Timers } from '@sess/core';

/** Why a wait of ours on the database ended without the database being asked anything. */
export type DatabaseWaitCode =
  /** No pool connection became free in time: nothing was sent. */
  | 'POOL_TIMEOUT'
  /** As many operations as may wait for a pool connection were waiting already: nothing was sent. */
  | 'POOL_QUEUE_FULL'
  /** The database refused or did not answer the last connection attempt (see `createBreaker`): nothing was sent. */
  | 'DATABASE_DOWN'
  /** The workspace has as many writes in flight, and waiting, as it may (see `createKeyedGate`): nothing was sent. */
  | 'WRITES_BUSY'
  /** A health check got no answer in time. */
  | 'PING_TIMEOUT';

const MESSAGES: Record<DatabaseWaitCode, (ms: number) => string> = {
  POOL_TIMEOUT: (ms) => `No database connection became free within ${ms} ms.`,
  POOL_QUEUE_FULL: () => 'Too many operations are waiting for a database connection.',
  DATABASE_DOWN: () => 'The database refused the last connection attempt; nothing was sent.',
  WRITES_BUSY: (ms) =>
    ms > 0
      ? `This workspace's earlier writes still held their turns after ${ms} ms.`
      : 'This workspace has as many writes waiting as it may.',
  PING_TIMEOUT: (ms) => `The database did not answer within ${ms} ms.`,
};

/** A wait of ours on the database that ended: see `DatabaseWaitCode` (classified unavailable). */
export class DatabaseWaitError extends Error {
  override readonly name = 'DatabaseWaitError';
  constructor(
    readonly code: DatabaseWaitCode,
    waitedMs = 0,
  ) {
    super(MESSAGES[code](waitedMs));
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

/**
 * What an operation at the gate is: a `read` is one SELECT statement; a `write` is any other
 * statement, or a whole transaction (which may hold its connection across round trips).
 */
export type GateKind = 'read' | 'write';

/** A statement that starts with SELECT reads (a data-modifying statement starts with WITH, INSERT, UPDATE, DELETE). */
export function gateKindOf(text: string): GateKind {
  return /^\s*select\b/i.test(text) ? 'read' : 'write';
}

/** Admits at most `max` top-level database operations at once; the rest wait, but not forever. */
export interface PoolGate {
  run<T>(kind: GateKind, operation: () => PromiseLike<T>): Promise<T>;
  /** The gate now, and its totals since it was made (for metrics, read when scraped). */
  stats(): PoolStats;
}

/** A pool gate's use and waits: counts only. */
export interface PoolStats {
  /** Operations let through at once (the pool's size). */
  max: number;
  /** Operations holding a connection now, and how many of them are writes. */
  active: number;
  activeWrites: number;
  /** Operations waiting for their turn now. */
  waiting: number;
  /** Since the gate was made: operations that had to wait for their turn, and the seconds they waited in all. */
  waited: number;
  waitedSeconds: number;
  /** Since the gate was made: operations refused, by why (nothing was sent for any of them). */
  refused: { POOL_TIMEOUT: number; POOL_QUEUE_FULL: number };
}

export interface PoolGateOptions {
  /** Operations let through at once: the pool's size. */
  max: number;
  /**
   * Connections only reads may take: writes hold at most `max − readReserve` at once (at least
   * one), so a page or a wait's read always finds one however many writes are stuck on a lock.
   * Default: a fifth of the pool, at least one (none for a pool of one).
   */
  readReserve?: number;
  /** How long an operation may wait for its turn (`POOL_TIMEOUT` after). */
  waitMs: number;
  /** Operations that may wait at once; one more is refused at once (`POOL_QUEUE_FULL`). Default 100 per connection. */
  maxWaiting?: number;
  /**
   * For a database that runs in this thread (PGlite): once operations have followed each other
   * for this long without the event loop polling for I/O, the next turn is handed over only after
   * it has. Its operations are synchronous work that resolve promises, so a line handed over in
   * microtasks runs to its end before any socket is read, and every request that arrives
   * meanwhile, /healthz included, waits unread for the whole line; handing over after every
   * operation instead costs a turn of the event loop each, which under load is most of the time
   * (bench/embedded). 0: after every operation. Unset: never (PostgreSQL's pool is remote).
   */
  yieldAfterMs?: number;
  timers?: Timers;
}

/** The read reserve a pool of `max` keeps by default. */
export function defaultReadReserve(max: number): number {
  return Math.min(max - 1, Math.max(1, Math.round(max / 5)));
}

/**
 * The bound on waiting for a free pool connection. postgres.js queues a query indefinitely
 * while every connection is busy, and a busy connection may be one trying to connect to a
 * server that does not answer: each queued query then waits for its turn at a connect attempt
 * of up to `connect_timeout`, one after the other. In front of the pool, this gate lets at most
 * `max` operations (a statement, or a whole transaction) through at once, writes at most
 * `max − readReserve` of them; the others wait in arrival order (a read passes writes that must
 * still wait for a write's turn), at most `maxWaiting` of them and each at most `waitMs`. Every
 * refusal is a `DatabaseWaitError` (classified unavailable, nothing sent).
 */
export function createPoolGate(options: PoolGateOptions): PoolGate {
  const { max, waitMs, timers = REAL_TIMERS } = options;
  const writeMax = Math.max(1, max - Math.min(options.readReserve ?? defaultReadReserve(max), max - 1));
  const maxWaiting = options.maxWaiting ?? 100 * max;
  let active = 0;
  let writes = 0;
  const waiting: Array<{ kind: GateKind; admit: () => void }> = [];
  // Totals for `stats`: plain numbers, bumped only on the slow paths (a wait, a refusal).
  let waited = 0;
  let waitedMs = 0;
  const refused = { POOL_TIMEOUT: 0, POOL_QUEUE_FULL: 0 };

  const fits = (kind: GateKind) => active < max && (kind === 'read' || writes < writeMax);
  const enter = (kind: GateKind) => {
    active++;
    if (kind === 'write') writes++;
  };
  const admitWaiting = () => {
    for (let i = 0; i < waiting.length && active < max; ) {
      const entry = waiting[i]!;
      if (!fits(entry.kind)) {
        i++;
        continue;
      }
      waiting.splice(i, 1);
      entry.admit();
    }
  };
  // yieldAfterMs: a turn being handed over after a poll, and since when operations have followed
  // each other without one (an empty line means the next operation came in through I/O).
  let handingOver = false;
  let runningSince = performance.now();
  const leave = (kind: GateKind) => {
    active--;
    if (kind === 'write') writes--;
    if (options.yieldAfterMs === undefined) return admitWaiting();
    if (waiting.length === 0) {
      runningSince = performance.now();
      return;
    }
    if (handingOver) return;
    if (performance.now() - runningSince < options.yieldAfterMs) return admitWaiting();
    handingOver = true;
    setImmediate(() => {
      handingOver = false;
      runningSince = performance.now();
      admitWaiting();
    });
  };

  return {
    run<T>(kind: GateKind, operation: () => PromiseLike<T>): Promise<T> {
      const start = (): Promise<T> => {
        enter(kind);
        let result: Promise<T>;
        try {
          result = Promise.resolve(operation());
        } catch (error) {
          result = Promise.reject(error);
        }
        return result.finally(() => leave(kind));
      };
      // A turn being handed over (yieldAfterMs) is for the one first in line.
      if (fits(kind) && !handingOver) return start();
      if (waiting.length >= maxWaiting) {
        refused.POOL_QUEUE_FULL++;
        return Promise.reject(new DatabaseWaitError('POOL_QUEUE_FULL'));
      }
      const queuedAt = performance.now();
      return new Promise<T>((resolve, reject) => {
        const admit = () => {
          timers.clearTimeout(timer);
          waited++;
          waitedMs += performance.now() - queuedAt;
          start().then(resolve, reject);
        };
        // Admitted from whichever operation leaves: bound to this one's trace when tracing is on.
        const entry = { kind, admit: activeTracer()?.bind(admit) ?? admit };
        const timer = timers.setTimeout(() => {
          const at = waiting.indexOf(entry);
          if (at >= 0) waiting.splice(at, 1);
          waited++;
          waitedMs += performance.now() - queuedAt;
          refused.POOL_TIMEOUT++;
          reject(new DatabaseWaitError('POOL_TIMEOUT', waitMs));
        }, waitMs);
        waiting.push(entry);
      });
    },
    stats: () => ({
      max,
      active,
      activeWrites: writes,
      waiting: waiting.length,
      waited,
      waitedSeconds: waitedMs / 1000,
      refused: { ...refused },
    }),
  };
}
