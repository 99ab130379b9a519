import {
  createManualTimers,
  createTestDatabase,
  onlyOn,
  type PrivateCluster,
  startPrivateCluster,
  type TestDatabase,
} from '@sess/testkit';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  classifyDatabaseError,
  type Database,
  DatabaseWaitError,
  isMigrated,
  migrate,
  openDatabase,
  queryRows,
} from '../src/index.ts';

/** The error `run` rejects with (the test fails if it resolves). */
async function failure(run: () => PromiseLike<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

/** The code of the `DatabaseWaitError` in `error`'s cause chain (drizzle wraps a statement's). */
function waitCode(error: unknown): string | undefined {
  for (let link = error; link; link = (link as { cause?: unknown }).cause) {
    if (link instanceof DatabaseWaitError) return link.code;
  }
  return undefined;
}

/** Holds `statement`'s locks in a transaction of `sql` until `release()`. */
async function hold(client: postgres.Sql, statement: string): Promise<{ release: () => Promise<void> }> {
  let release!: () => void;
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const holding = client.begin(async (tx) => {
    await tx.unsafe(statement);
    locked();
    await new Promise<void>((resolve) => (release = resolve));
  });
  await Promise.race([isLocked, holding]);
  return {
    release: async () => {
      release();
      await holding;
    },
  };
}

describe('Database.whenReachable', () => {
  it('resolves at once on a database that answers', async () => {
    const database = await createTestDatabase();
    try {
      await database.whenReachable();
      expect(await queryRows<{ one: number }>(database.db, sql`select 1 as one`)).toEqual([{ one: 1 }]);
    } finally {
      await database.destroy();
    }
  });
});

const timeoutsHere = onlyOn('db: lock_timeout and statement_timeout of the pool');
describe.runIf(timeoutsHere)('PostgreSQL: every statement of the pool is bounded by lock_timeout and statement_timeout', () => {
  let database: TestDatabase;
  let bounded: Database;
  let other: postgres.Sql;
  beforeAll(async () => {
    database = await createTestDatabase();
    await database.db.execute(sql`create table probe (id text primary key, n int not null default 0)`);
    await database.db.execute(sql`insert into probe (id) values ('held')`);
    bounded = await openDatabase({ url: database.url!, poolMax: 3, lockTimeoutMs: 200, statementTimeoutMs: 400 });
    other = postgres(database.url!, { max: 2, onnotice: () => {} });
  });
  afterAll(async () => {
    await other.end({ timeout: 5 });
    await bounded.close();
    await database.destroy();
  });

  it('a lock wait past lock_timeout fails (55P03): unavailable, busy, nothing changed — the transaction rolled back', async () => {
    const { release } = await hold(other, `select * from probe where id = 'held' for update`);
    try {
      const error = await failure(() =>
        bounded.db.transaction(async (tx) => {
          await tx.execute(sql`insert into probe (id) values ('written-before')`);
          await tx.execute(sql`update probe set n = 1 where id = 'held'`);
        }),
      );
      expect(classifyDatabaseError(error)).toEqual({ kind: 'unavailable', unsent: true, busy: true });
    } finally {
      await release();
    }
    expect(await queryRows(bounded.db, sql`select id, n from probe order by id`)).toEqual([{ id: 'held', n: 0 }]);
  });

  it('a statement past statement_timeout is cancelled (57014): unavailable, busy, nothing changed', async () => {
    const error = await failure(() =>
      bounded.db.transaction(async (tx) => {
        await tx.execute(sql`insert into probe (id) values ('written-before')`);
        await tx.execute(sql`select pg_sleep(30)`);
      }),
    );
    expect(classifyDatabaseError(error)).toEqual({ kind: 'unavailable', unsent: true, busy: true });
    expect(await queryRows(bounded.db, sql`select id from probe order by id`)).toEqual([{ id: 'held' }]);
  });

  it('migrations lift both: a migrator waits for another replica’s migration lock far past them, then applies', async () => {
    const empty = await createTestDatabase({ migrated: false });
    const strict = await openDatabase({ url: empty.url!, poolMax: 2, lockTimeoutMs: 20, statementTimeoutMs: 20 });
    const replica = postgres(empty.url!, { max: 1, onnotice: () => {} });
    try {
      // The key migrate() takes (migrate.ts): another replica migrating holds it.
      const { release } = await hold(replica, 'select pg_advisory_xact_lock(7368024417)');
      const migrating = migrate(strict.db);
      // The migrator has waited for the lock ten times its lock and statement timeouts, by the server's clock.
      await expect
        .poll(
          async () =>
            (
              await queryRows(
                database.db,
                sql`select 1 from pg_stat_activity
                     where datname = ${new URL(empty.url!).pathname.slice(1)} and wait_event_type = 'Lock'
                       and query like '%pg_advisory_xact_lock%' and clock_timestamp() - query_start > interval '200 ms'`,
              )
            ).length,
          { timeout: 10_000 },
        )
        .toBe(1);
      await release();
      expect((await migrating).applied).toBeGreaterThan(0);
      expect(await isMigrated(strict.db)).toBe(true);
    } finally {
      await replica.end({ timeout: 5 });
      await strict.close();
      await empty.destroy();
    }
  });
});

const readShareHere = onlyOn('db: the pool keeps connections for reads');
describe.runIf(readShareHere)('PostgreSQL: the pool keeps connections for reads', () => {
  let database: TestDatabase;
  let small: Database;
  let other: postgres.Sql;
  beforeAll(async () => {
    database = await createTestDatabase();
    await database.db.execute(sql`create table probe (id text primary key, n int not null default 0)`);
    await database.db.execute(sql`insert into probe (id) values ('held')`);
    // Three connections, one kept for reads: writes hold two at most.
    small = await openDatabase({ url: database.url!, poolMax: 3, readReserve: 1, lockTimeoutMs: 0, poolWaitMs: 600_000 });
    other = postgres(database.url!, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    await other.end({ timeout: 5 });
    await small.close();
    await database.destroy();
  });

  it('writes stuck on a lock hold at most max − reserve connections: reads still get one, in their turn', async () => {
    const { release } = await hold(other, `select * from probe where id = 'held' for update`);
    const writes = Array.from({ length: 4 }, (_, i) =>
      small.db.transaction(async (tx) => {
        await tx.execute(sql`update probe set n = n + 1 where id = 'held'`);
        return i;
      }),
    );
    // Two of the writes wait on the lock in the database, two for a connection at the gate.
    await expect
      .poll(
        async () =>
          (
            await queryRows(
              database.db,
              sql`select 1 from pg_stat_activity
                   where datname = current_database() and wait_event_type = 'Lock' and query like 'update probe%'`,
            )
          ).length,
        { timeout: 10_000 },
      )
      .toBe(2);
    const settled: number[] = [];
    for (const write of writes) void write.then((i) => settled.push(i));
    const reads = await Promise.all(
      Array.from({ length: 5 }, (_, i) => queryRows<{ n: number }>(small.db, sql`select ${i}::int as n`)),
    );
    expect(reads.map((rows) => rows[0]!.n)).toEqual([0, 1, 2, 3, 4]);
    expect(settled).toEqual([]);
    await release();
    expect((await Promise.all(writes)).sort()).toEqual([0, 1, 2, 3]);
    expect(await queryRows(small.db, sql`select n from probe`)).toEqual([{ n: 4 }]);
  });
});

const breakerHere = onlyOn('db: the breaker while PostgreSQL is stopped');
describe.runIf(breakerHere)('PostgreSQL stopped: the breaker fails calls at once, one probe finds it back', () => {
  let cluster: PrivateCluster | undefined;
  let unavailable: string | undefined;
  let database: Database;
  const timers = createManualTimers();
  beforeAll(async () => {
    const made = await startPrivateCluster();
    if ('unavailable' in made) {
      unavailable = made.unavailable;
      return;
    }
    cluster = made;
    // A pool wait of ten minutes: only the breaker can explain a call that fails at once.
    database = await openDatabase({ url: cluster.url(), poolMax: 2, poolWaitMs: 600_000, timers });
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    await cluster?.destroy();
  }, 60_000);

  it('down: after the first refused connection every call fails DATABASE_DOWN at once; back: the next probe closes it', async (ctx) => {
    if (!cluster) return ctx.skip(`no private PostgreSQL cluster here: ${unavailable}`);
    expect(await queryRows<{ one: number }>(database.db, sql`select 1 as one`)).toEqual([{ one: 1 }]);
    await cluster.stop();

    // The calls that find the server gone: the first refused connection opens the breaker.
    const errors: unknown[] = [];
    while (waitCode(errors.at(-1)) === undefined && errors.length < 3) {
      errors.push(await failure(() => database.db.execute(sql`select 1`)));
    }
    expect(waitCode(errors.at(-1))).toBe('DATABASE_DOWN');
    for (const error of errors) expect(classifyDatabaseError(error)).toMatchObject({ kind: 'unavailable' });

    // Nothing is tried while it is open: DATABASE_DOWN is the breaker's own refusal, before any
    // connection or pool wait (ten minutes here), for statements and transactions alike.
    for (let i = 0; i < 20; i++) {
      const error = await failure(() =>
        i % 2 ? database.db.execute(sql`select 1`) : database.db.transaction(async (tx) => tx.execute(sql`select 1`)),
      );
      expect(waitCode(error)).toBe('DATABASE_DOWN');
      expect(classifyDatabaseError(error)).toEqual({ kind: 'unavailable', unsent: true });
    }
    // A probe while it is still down fails and schedules the next one; calls still fail at once.
    expect(timers.pending()).toBe(1);
    timers.fire();
    expect(timers.pending()).toBe(0);
    await expect.poll(() => timers.pending(), { timeout: 10_000 }).toBe(1);
    expect(waitCode(await failure(() => database.db.execute(sql`select 1`)))).toBe('DATABASE_DOWN');

    await cluster.start();
    let reachable = false;
    const back = database.whenReachable().then(() => (reachable = true));
    expect(reachable).toBe(false);
    // The next probe connects and closes the breaker; the next call goes through.
    await expect
      .poll(
        () => {
          timers.fire();
          return reachable;
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    await back;
    expect(await queryRows<{ one: number }>(database.db, sql`select 1 as one`)).toEqual([{ one: 1 }]);
  });
});
