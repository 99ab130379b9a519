import { mkdirSync } from 'node:fs';
import type { Logger, Timers } from '@sess/core';
import { sql } from 'drizzle-orm';
import { createBreaker } from './breaker.ts';
import { acquireDataDirLock } from './data-dir-lock.ts';
import { startCheckpoints } from './pglite-checkpoints.ts';
import { pgliteBehindGate } from './pglite-line.ts';
import { createPoolGate, DatabaseWaitError, type PoolGate, withinMs } from './pool-gate.ts';
import { withPreparedStatements } from './prepared-statements.ts';
import { reconnectBackoffSeconds } from './reconnect-backoff.ts';
import * as schema from './schema/index.ts';
import type { Database, Db } from './types.ts';

export interface OpenDatabaseOptions {
  /** Set → PostgreSQL through postgres.js; unset → embedded PGlite in `dataDir`. */
  url?: string | undefined;
  /** Where PGlite keeps its files (created when missing). Ignored with `url`. */
  dataDir?: string | undefined;
  /** Upper bound of the PostgreSQL pool (the LISTEN connection is extra). */
  poolMax?: number;
  /** PostgreSQL: how long one connection attempt may take (default 5 s). */
  connectTimeoutSeconds?: number;
  /** PostgreSQL: how long a statement may wait for a free pool connection (default 5 s). */
  poolWaitMs?: number;
  /** PostgreSQL: statements that may wait for a pool connection at once (default 100 per connection). */
  poolMaxWaiting?: number;
  /** PostgreSQL: pool connections kept for reads (default: a fifth of the pool, see `defaultReadReserve`). */
  readReserve?: number;
  /**
   * PostgreSQL: `lock_timeout` of every connection of the pool (ms, default 2 s; 0 = none): a
   * statement waits at most this long for a row or table lock, then fails (55P03) and its
   * transaction is rolled back. Migrations lift it for their own transaction.
   */
  lockTimeoutMs?: number;
  /** PostgreSQL: `statement_timeout` of every pool connection (ms, default 10 s; 0 = none), as `lockTimeoutMs`. */
  statementTimeoutMs?: number;
  /** PostgreSQL: after a refused connection, how often one probe tries to connect while calls fail at once (default 250 ms). */
  probeIntervalMs?: number;
  /** How long `ping` waits for its answer (default 2 s). */
  pingTimeoutMs?: number;
  /** The timers of the pool's waits and probes (tests may drive them). */
  timers?: Timers;
  logger?: Logger;
}

/** Defaults of the bounds above: a request waits seconds for the database, never indefinitely. */
export const DATABASE_WAIT_DEFAULTS = {
  connectTimeoutSeconds: 5,
  poolWaitMs: 5_000,
  pingTimeoutMs: 2_000,
  lockTimeoutMs: 2_000,
  statementTimeoutMs: 10_000,
  probeIntervalMs: 250,
} as const;

/** How long the embedded database's line may run before it lets the event loop read its sockets (see `yieldAfterMs`). */
const PGLITE_YIELD_AFTER_MS = 10;

/**
 * The one database factory. With a URL it opens a bounded postgres.js pool plus one dedicated
 * LISTEN connection; without one it opens (or creates) an embedded PGlite database. Both come
 * back as the same `Database`, so nothing above this function can tell which it got.
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  return options.url ? openPostgres(options.url, options) : openPglite(options.dataDir ?? './.data', options);
}

// Each driver is imported only when it is used: a start on PostgreSQL never loads PGlite's
// wasm, and an embedded start never loads postgres.js.
async function openPostgres(url: string, options: OpenDatabaseOptions): Promise<Database> {
  const [{ default: postgres }, { drizzle: drizzlePostgres }, { createPostgresBus }] = await Promise.all([
    import('postgres'),
    import('drizzle-orm/postgres-js'),
    import('./postgres-bus.ts'),
  ]);
  const max = options.poolMax ?? 10;
  const connectTimeout = options.connectTimeoutSeconds ?? DATABASE_WAIT_DEFAULTS.connectTimeoutSeconds;
  const pingTimeoutMs = options.pingTimeoutMs ?? DATABASE_WAIT_DEFAULTS.pingTimeoutMs;
  const client = postgres(url, {
    max,
    idle_timeout: 30,
    connect_timeout: connectTimeout,
    backoff: reconnectBackoffSeconds,
    onnotice: () => {},
    // Startup parameters: every statement on every pool connection is bounded, at no cost per
    // request (a SET LOCAL would be one more statement in every transaction).
    connection: {
      application_name: 'sess',
      lock_timeout: options.lockTimeoutMs ?? DATABASE_WAIT_DEFAULTS.lockTimeoutMs,
      statement_timeout: options.statementTimeoutMs ?? DATABASE_WAIT_DEFAULTS.statementTimeoutMs,
    },
  });
  // The breaker's probe: a connection of its own, made afresh each time (no reconnect backoff).
  const prober = postgres(url, {
    max: 1,
    idle_timeout: 1,
    connect_timeout: connectTimeout,
    backoff: () => 0,
    fetch_types: false,
    onnotice: () => {},
    connection: { application_name: 'sess-probe' },
  });
  const breaker = createBreaker({
    probe: async () => {
      await withinMs(prober`select 1`, pingTimeoutMs);
    },
    probeIntervalMs: options.probeIntervalMs ?? DATABASE_WAIT_DEFAULTS.probeIntervalMs,
    ...(options.timers ? { timers: options.timers } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const pool = createPoolGate({
    max,
    waitMs: options.poolWaitMs ?? DATABASE_WAIT_DEFAULTS.poolWaitMs,
    ...(options.readReserve !== undefined ? { readReserve: options.readReserve } : {}),
    ...(options.poolMaxWaiting !== undefined ? { maxWaiting: options.poolMaxWaiting } : {}),
    ...(options.timers ? { timers: options.timers } : {}),
  });
  // While the breaker is open nothing queues for the pool; one admitted after it opened fails too.
  const gate: PoolGate = {
    run: (kind, operation) =>
      breaker.isOpen ? Promise.reject(new DatabaseWaitError('DATABASE_DOWN')) : pool.run(kind, () => breaker.guard(operation)),
    stats: () => pool.stats(),
  };
  const db = drizzlePostgres(withPreparedStatements(client, gate), { schema }) as unknown as Db;
  const bus = createPostgresBus({
    url,
    publisher: db,
    connectTimeoutSeconds: connectTimeout,
    ...(options.logger ? { logger: options.logger } : {}),
  });
  return {
    driver: 'postgres',
    db,
    bus,
    async ping() {
      // Not through the gate: a saturated pool still gets its answer (or a timeout) in time.
      await withinMs(client`select 1`, pingTimeoutMs);
    },
    whenReachable: () => breaker.whenClosed(),
    poolStats: () => pool.stats(),
    async close() {
      breaker.stop();
      await bus.close();
      await Promise.all([client.end({ timeout: 5 }), prober.end({ timeout: 1 })]);
    },
  };
}

async function openPglite(dataDir: string, options: OpenDatabaseOptions): Promise<Database> {
  const inMemory = dataDir.startsWith('memory://');
  const started = performance.now();
  let releaseLock = () => {};
  let staleLockOf: number | undefined;
  if (!inMemory) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    // PGlite is a single in-process connection: a second process on the same files would
    // corrupt them, so the data dir is locked for as long as it is open.
    const lock = acquireDataDirLock(dataDir);
    releaseLock = lock.release;
    staleLockOf = lock.takenOverFrom;
  }
  const [{ PGlite }, { drizzle: drizzlePglite }, { createPgliteBus }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    import('./pglite-bus.ts'),
  ]);
  let pg: InstanceType<typeof PGlite>;
  try {
    // 32 MB of shared buffers instead of PostgreSQL's 128 MB: start-up zeroes the whole pool,
    // and the smaller one cuts a reopen from about 1.2 s to about 0.6 s. The OS page cache
    // still holds the data files, so a single-process embedded database loses little.
    const startParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'];
    pg = await PGlite.create(inMemory ? undefined : dataDir, { startParams });
  } catch (error) {
    releaseLock();
    throw error;
  }
  // Where a start's time goes (after a crash, PGlite replays the WAL written since its last checkpoint).
  options.logger?.info(
    {
      event: 'db.opened',
      driver: 'pglite',
      ms: Math.round(performance.now() - started),
      ...(staleLockOf !== undefined ? { staleLockOf } : {}),
    },
    'database opened',
  );
  // One line in front of the one connection, in arrival order, each wait bounded (see pgliteBehindGate).
  const gate = createPoolGate({
    max: 1,
    waitMs: options.poolWaitMs ?? DATABASE_WAIT_DEFAULTS.poolWaitMs,
    // No bound on its length: an answer wakes every wait parked on it at once (thousands), and
    // each reads once; the admission bounds what comes in, and each operation's wait is bounded.
    maxWaiting: options.poolMaxWaiting ?? Number.POSITIVE_INFINITY,
    yieldAfterMs: PGLITE_YIELD_AFTER_MS,
    ...(options.timers ? { timers: options.timers } : {}),
  });
  const db = drizzlePglite(pgliteBehindGate(pg, gate), { schema }) as unknown as Db;
  const bus = createPgliteBus(pg, options.logger);
  const checkpoints = inMemory ? undefined : startCheckpoints(pg, gate, options.logger);
  return {
    driver: 'pglite',
    db,
    bus,
    async ping() {
      await withinMs(db.execute(sql`select 1`), options.pingTimeoutMs ?? DATABASE_WAIT_DEFAULTS.pingTimeoutMs);
    },
    // In this process: never refused.
    whenReachable: async () => {},
    poolStats: () => gate.stats(),
    async close() {
      checkpoints?.stop();
      await bus.close();
      if (!pg.closed) await pg.close();
      releaseLock();
    },
  };
}
