import { Writable } from 'node:stream';
import { createLogger } from '@sess/core';
import { createManualTimers, createTestDatabase, onlyOn, type TestDatabase, testDriver } from '@sess/testkit';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyDatabaseError, type Database, openDatabase, queryRows } from '../src/index.ts';

const onPostgres = testDriver() === 'postgres';
const SECRET = 'tenant-b-form-text-91kq';

/** The error `run` rejects with (the test fails if it resolves). */
async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

/*
 * The classification every face maps database failures through, fed the drivers' real errors:
 * PostgreSQL through postgres.js and embedded PGlite, each wrapped by drizzle.
 */
describe('classifyDatabaseError on real driver errors', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    await database.db.execute(sql`create table probe (id text primary key, doc jsonb)`);
  });
  afterAll(() => database.destroy());

  it('bad_input: NUL in text (22021)', async () => {
    const error = await failure(() => database.db.execute(sql`insert into probe (id) values (${`a\u0000${SECRET}`})`));
    expect(classifyDatabaseError(error)).toEqual({ kind: 'bad_input' });
  });

  it('bad_input: \\u0000 in jsonb (22P05)', async () => {
    const doc = JSON.stringify({ text: `a\u0000${SECRET}` });
    const error = await failure(() => database.db.execute(sql`insert into probe (id, doc) values ('nul', ${doc}::jsonb)`));
    expect(classifyDatabaseError(error)).toEqual({ kind: 'bad_input' });
  });

  it('bad_input: an unpaired surrogate escape in JSON (22P02 of json)', async () => {
    const doc = `{"text":"\\ud800${SECRET}"}`;
    const error = await failure(() => database.db.execute(sql`insert into probe (id, doc) values ('lone', ${doc}::jsonb)`));
    expect(classifyDatabaseError(error)).toEqual({ kind: 'bad_input' });
  });

  it('other: 22P02 of another type, a unique violation, a plain bug', async () => {
    expect(classifyDatabaseError(await failure(() => database.db.execute(sql`select ${SECRET}::uuid`)))).toEqual({
      kind: 'other',
    });
    await database.db.execute(sql`insert into probe (id) values ('dup')`);
    expect(classifyDatabaseError(await failure(() => database.db.execute(sql`insert into probe (id) values ('dup')`)))).toEqual({
      kind: 'other',
    });
    expect(classifyDatabaseError(new TypeError('x'))).toEqual({ kind: 'other' });
    // A refused socket that is not the database's (a fetch of ours) is not "the database is down".
    expect(classifyDatabaseError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toEqual({
      kind: 'other',
    });
  });

  it('logs any of them without the statement, its parameters or the server’s message', async () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'info',
      destination: new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    });
    for (const run of [
      () => database.db.execute(sql`insert into probe (id) values (${`a\u0000${SECRET}`})`),
      () => database.db.execute(sql`select ${SECRET}::uuid`),
      () => database.db.execute(sql`insert into probe (id, doc) values ('lone2', ${`{"a":"\\ud800${SECRET}"}`}::jsonb)`),
    ]) {
      logger.error({ event: 'test.failed', err: await failure(run) }, 'failed');
    }
    expect(lines.join('')).not.toContain(SECRET);
    expect(lines.join('')).not.toContain('insert');
    expect(JSON.parse(lines[0]!).err).toEqual({
      type: 'DrizzleQueryError',
      database: true,
      cause: { type: onPostgres ? 'PostgresError' : expect.any(String), database: true, sqlState: '22021' },
    });
  });
});

describe('classifyDatabaseError: a closed database', () => {
  it('is unavailable, nothing sent', async () => {
    const database = await createTestDatabase();
    const { db } = database;
    await database.destroy();
    const error = await failure(() => db.execute(sql`select 1`));
    expect(classifyDatabaseError(error)).toEqual({ kind: 'unavailable', unsent: true });
  });
});

describe.runIf(onlyOn('db: connections that fail, bounded waits'))('PostgreSQL: connections that fail, bounded waits', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.destroy());

  it('a refused connection is unavailable, nothing sent — for a statement and for a transaction’s BEGIN', async () => {
    const url = new URL(database.url!);
    url.port = '9'; // discard: nothing listens there
    const nowhere = await openDatabase({ url: url.toString(), poolMax: 2 });
    try {
      expect(classifyDatabaseError(await failure(() => nowhere.db.execute(sql`select 1`)))).toEqual({
        kind: 'unavailable',
        unsent: true,
      });
      expect(classifyDatabaseError(await failure(() => nowhere.db.transaction(async () => {})))).toEqual({
        kind: 'unavailable',
        unsent: true,
      });
      await expect(nowhere.ping()).rejects.toThrow();
    } finally {
      await nowhere.close();
    }
  });

  it('a backend terminated mid-statement (57P01) is unavailable, possibly sent', async () => {
    const victim = await openDatabase({ url: database.url!, poolMax: 1 });
    try {
      const sleeping = failure(() => victim.db.execute(sql`select pg_sleep(30), 'sess-victim' as tag`));
      await expect
        .poll(
          async () =>
            (
              await queryRows<{ n: number }>(
                database.db,
                sql`select pg_terminate_backend(pid)::int as n from pg_stat_activity
                    where datname = current_database() and query like '%sess-victim%' and pid <> pg_backend_pid()`,
              )
            ).length,
          { timeout: 5_000 },
        )
        .toBeGreaterThan(0);
      expect(classifyDatabaseError(await sleeping)).toEqual({ kind: 'unavailable', unsent: false });
    } finally {
      // postgres.js's end() waits its whole timeout (5 s) after a connection was killed under it.
      await victim.close();
    }
  });

  /** How many statements tagged `tag` are running on the server (other than this query). */
  async function running(tag: string): Promise<number> {
    return (
      await queryRows(
        database.db,
        sql`select pid from pg_stat_activity
            where datname = current_database() and state = 'active' and query like ${`%${tag}%`} and pid <> pg_backend_pid()`,
      )
    ).length;
  }

  /** Cancels the statements tagged `tag` (the holder of a pool's one connection). */
  async function cancel(tag: string): Promise<void> {
    await database.db.execute(
      sql`select pg_cancel_backend(pid) from pg_stat_activity
          where datname = current_database() and query like ${`%${tag}%`} and pid <> pg_backend_pid()`,
    );
  }

  /*
   * The pool's one connection is held by a statement that runs until the test cancels it (longer
   * than a test may run), and the gate's wait runs on the test's timers: the test sees a statement
   * waiting at the gate and ends its poolWaitMs itself. How long the wait and the ping take is a
   * figure of bench/db-gate, not a test's.
   */
  it('a statement waits for a free pool connection at most poolWaitMs, then fails unavailable (nothing sent)', async () => {
    const timers = createManualTimers();
    const small: Database = await openDatabase({ url: database.url!, poolMax: 1, poolWaitMs: 300, pingTimeoutMs: 300, timers });
    try {
      // drizzle's query is lazy: `then` starts it; the test goes on once the server runs it.
      const holding = Promise.resolve(small.db.execute(sql`select pg_sleep(120), 'sess-holder-a' as tag`)).catch(
        () => 'cancelled',
      );
      await expect.poll(() => running('sess-holder-a'), { timeout: 5_000 }).toBe(1);
      const failed = failure(() => small.db.execute(sql`select 1`));
      // It waits at the gate, on a poolWaitMs timer; then that time passes.
      await expect.poll(() => timers.pending(300)).toBe(1);
      timers.fire(300);
      expect(classifyDatabaseError(await failed)).toEqual({ kind: 'unavailable', unsent: true, busy: true });
      // ping bypasses the gate but not its own bound: it answers (here, fails) within its 300 ms.
      await expect(small.ping()).rejects.toThrow(/did not answer within 300 ms/);
      // The holder still holds: the statement and the ping gave up by their bounds, not for a free slot.
      expect(await running('sess-holder-a')).toBe(1);
      await cancel('sess-holder-a');
      expect(await holding).toBe('cancelled');
      // The slot came back: the next statement runs.
      expect(await queryRows<{ one: number }>(small.db, sql`select 1 as one`)).toEqual([{ one: 1 }]);
    } finally {
      await small.close();
    }
  });

  it('a statement that finds the pool busy waits at the gate, and runs once the connection comes back', async () => {
    const timers = createManualTimers();
    const small: Database = await openDatabase({ url: database.url!, poolMax: 1, poolWaitMs: 300, timers });
    try {
      const holding = Promise.resolve(small.db.execute(sql`select pg_sleep(120), 'sess-holder-b' as tag`)).catch(
        () => 'cancelled',
      );
      await expect.poll(() => running('sess-holder-b'), { timeout: 5_000 }).toBe(1);
      const waiting = queryRows<{ two: number }>(small.db, sql`select 2 as two`);
      await expect.poll(() => timers.pending(300)).toBe(1);
      await cancel('sess-holder-b');
      expect(await holding).toBe('cancelled');
      expect(await waiting).toEqual([{ two: 2 }]);
      // Admitted, its wait's timer was cleared: it never fails later.
      expect(timers.pending(300)).toBe(0);
    } finally {
      await small.close();
    }
  });

  it('a transaction holds one slot: statements inside it never wait at the gate', async () => {
    const small: Database = await openDatabase({ url: database.url!, poolMax: 1, poolWaitMs: 300 });
    try {
      const rows = await small.db.transaction(async (tx) => {
        const a = await queryRows<{ n: number }>(tx, sql`select 1 as n`);
        const b = await queryRows<{ n: number }>(tx, sql`select 2 as n`);
        return [...a, ...b];
      });
      expect(rows).toEqual([{ n: 1 }, { n: 2 }]);
    } finally {
      await small.close();
    }
  });
});
