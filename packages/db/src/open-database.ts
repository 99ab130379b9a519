import { mkdirSync } from 'node:fs';
import type { Logger } from '@sess/core';
import { sql } from 'drizzle-orm';
import { acquireDataDirLock } from './data-dir-lock.ts';
import { createPoolGate, withinMs } from './pool-gate.ts';
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
  /** How long `ping` waits for its answer (default 2 s). */
  pingTimeoutMs?: number;
  logger?: Logger;
}

/** Defaults of the bounds above: a request waits seconds for the database, never indefinitely. */
export const DATABASE_WAIT_DEFAULTS = { connectTimeoutSeconds: 5, poolWaitMs: 5_000, pingTimeoutMs: 2_000 } as const;

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
    connection: { application_name: 'sess' },
  });
  const gate = createPoolGate(max, options.poolWaitMs ?? DATABASE_WAIT_DEFAULTS.poolWaitMs);
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
    async close() {
      await bus.close();
      await client.end({ timeout: 5 });
    },
  };
}

async function openPglite(dataDir: string, options: OpenDatabaseOptions): Promise<Database> {
  const inMemory = dataDir.startsWith('memory://');
  let releaseLock = () => {};
  if (!inMemory) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    // PGlite is a single in-process connection: a second process on the same files would
    // corrupt them, so the data dir is locked for as long as it is open.
    releaseLock = acquireDataDirLock(dataDir);
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
  const db = drizzlePglite(pg, { schema }) as unknown as Db;
  const bus = createPgliteBus(pg, options.logger);
  return {
    driver: 'pglite',
    db,
    bus,
    async ping() {
      await withinMs(db.execute(sql`select 1`), options.pingTimeoutMs ?? DATABASE_WAIT_DEFAULTS.pingTimeoutMs);
    },
    async close() {
      await bus.close();
      if (!pg.closed) await pg.close();
      releaseLock();
    },
  };
}
