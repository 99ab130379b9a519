import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { newId } from '@sess/core';
import { createTestDatabase, onlyOn, type TestDatabase, testDriver } from '@sess/testkit';
import { eq, sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Database,
  isMigrated,
  MIGRATIONS_FOLDER,
  migrate,
  openDatabase,
  PreparedSql,
  queryRows,
  workspaces,
} from '../src/index.ts';

/** Subscribes (LISTEN is active when this resolves); `done` resolves with the next `count` payloads. */
async function collect(
  database: Database,
  channel: string,
  count: number,
): Promise<{ done: Promise<string[]>; stop: () => Promise<void> }> {
  const seen: string[] = [];
  let resolve: (payloads: string[]) => void = () => {};
  const done = new Promise<string[]>((r) => {
    resolve = r;
  });
  const stop = await database.bus.subscribe(channel, (payload) => {
    seen.push(payload);
    if (seen.length === count) resolve(seen);
  });
  return { done, stop };
}

describe('migrations', () => {
  it('apply exactly once when three migrators start together on one empty database', async () => {
    const empty = await createTestDatabase({ migrated: false });
    // On PostgreSQL three separate pools race, as three replicas would; PGlite is one
    // process by design, so there the three run concurrently on its single connection.
    const others = empty.url ? await Promise.all([1, 2].map(() => openDatabase({ url: empty.url, poolMax: 2 }))) : [];
    try {
      const migrators = [empty, ...others, ...(empty.url ? [] : [empty, empty])].slice(0, 3);
      const reports = await Promise.all(migrators.map((database) => migrate(database.db)));
      const total = reports[0]!.total;
      expect(reports.map((r) => r.applied).sort()).toEqual([0, 0, total]);
      const rows = await queryRows<{ n: number | string }>(empty.db, sql`select count(*) as n from drizzle.__drizzle_migrations`);
      expect(Number(rows[0]!.n)).toBe(total);
      expect(await isMigrated(empty.db)).toBe(true);
    } finally {
      await Promise.all(others.map((d) => d.close()));
      await empty.destroy();
    }
  });

  it('0011 keeps every device saved before it, and then takes one endpoint for two people', async () => {
    const empty = await createTestDatabase({ migrated: false });
    try {
      // The database as it was before 0011: the earlier migrations applied and recorded as migrate() records them.
      const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
        entries: { tag: string; when: number }[];
      };
      const cut = journal.entries.find((entry) => entry.tag === '0011_device_per_person')!.when;
      await empty.db.transaction(async (tx) => {
        await tx.execute(sql`create schema drizzle`);
        await tx.execute(
          sql`create table drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)`,
        );
        for (const migration of readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER })) {
          if (migration.folderMillis >= cut) break;
          for (const statement of migration.sql) if (statement.trim()) await tx.execute(sql.raw(statement));
          await tx.execute(
            sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${migration.hash}, ${migration.folderMillis})`,
          );
        }
      });
      const [a, b] = [newId('user'), newId('user')];
      await empty.db.execute(
        sql`insert into users (id, email) values (${a}, ${`${a}@test.sess.invalid`}), (${b}, ${`${b}@test.sess.invalid`})`,
      );
      for (const [userId, endpoint] of [
        [a, 'e1'],
        [a, 'e2'],
        [b, 'e3'],
      ] as const)
        await empty.db.execute(
          sql`insert into push_subscriptions (id, user_id, endpoint_sha256, sealed, name, created_at)
                values (${newId('pushSubscription')}, ${userId}, ${endpoint}, 'sealed', 'Phone', now())`,
        );
      const devices = sql`select id, user_id, endpoint_sha256, sealed, name, created_at from push_subscriptions order by id`;
      const before = await queryRows(empty.db, devices);

      expect(await migrate(empty.db)).toMatchObject({
        applied: journal.entries.length - journal.entries.findIndex((e) => e.when === cut),
      });
      expect(await queryRows(empty.db, devices)).toEqual(before);
      await empty.db.execute(
        sql`insert into push_subscriptions (id, user_id, endpoint_sha256, sealed, name, created_at)
              values (${newId('pushSubscription')}, ${b}, 'e1', 'sealed', 'Same browser', now())`,
      );
      await expect(
        empty.db.execute(
          sql`insert into push_subscriptions (id, user_id, endpoint_sha256, sealed, name, created_at)
                values (${newId('pushSubscription')}, ${b}, 'e1', 'sealed', 'Twice', now())`,
        ),
      ).rejects.toThrow();
    } finally {
      await empty.destroy();
    }
  });

  it('report an empty database as not migrated', async () => {
    const empty = await createTestDatabase({ migrated: false });
    try {
      expect(await isMigrated(empty.db)).toBe(false);
    } finally {
      await empty.destroy();
    }
  });
});

describe('database', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.destroy();
  });

  it('is migrated and reachable', async () => {
    await database.ping();
    expect(await isMigrated(database.db)).toBe(true);
    expect(database.driver).toBe(testDriver());
  });

  it('round-trips rows through the drizzle schema, including transactions and rollbacks', async () => {
    const id = newId('workspace');
    await database.db.insert(workspaces).values({ id, name: 'Tenant A' });
    await expect(
      database.db.transaction(async (tx) => {
        await tx.update(workspaces).set({ name: 'changed' }).where(eq(workspaces.id, id));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const [row] = await database.db.select().from(workspaces).where(eq(workspaces.id, id));
    expect(row?.name).toBe('Tenant A');
    expect(row?.plan).toBe('free');
    expect(row?.createdAt).toBeInstanceOf(Date);
  });

  it('builds a PreparedSql statement once and runs it with new values, on the database and in a transaction', async () => {
    let builds = 0;
    const statement = new PreparedSql<{ id: string; name: string }>(() => {
      builds++;
      return sql`select id, name from workspaces where id = ${sql.placeholder('id')} and ${'fixed'} = 'fixed'`;
    });
    const ids = [newId('workspace'), newId('workspace')];
    await database.db.insert(workspaces).values(ids.map((id, i) => ({ id, name: `Prepared ${i}` })));
    expect(await statement.rows(database.db, { id: ids[0] })).toEqual([{ id: ids[0], name: 'Prepared 0' }]);
    expect(await statement.rows(database.db, { id: ids[1] })).toEqual([{ id: ids[1], name: 'Prepared 1' }]);
    // In a transaction it sees the transaction's own uncommitted rows.
    const inside = newId('workspace');
    await database.db.transaction(async (tx) => {
      await tx.insert(workspaces).values({ id: inside, name: 'Inside' });
      expect(await statement.rows(tx, { id: inside })).toEqual([{ id: inside, name: 'Inside' }]);
    });
    expect(await statement.rows(database.db, { id: 'wks_none' })).toEqual([]);
    expect(builds).toBe(1);
    await expect(statement.rows(database.db, {})).rejects.toThrow('No value for placeholder "id"');
  });

  it('delivers published messages to subscribers, in order per channel', async () => {
    const { done, stop } = await collect(database, 'test_order', 100);
    for (let i = 0; i < 100; i++) await database.bus.publish('test_order', String(i));
    expect(await done).toEqual(Array.from({ length: 100 }, (_, i) => String(i)));
    await stop();
  });

  it('delivers a notification sent inside a transaction only after it commits', async () => {
    const seen: string[] = [];
    const stop = await database.bus.subscribe('test_tx', (p) => seen.push(p));
    await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`select pg_notify('test_tx', 'rolled-back')`);
        tx.rollback();
      })
      .catch(() => {});
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_notify('test_tx', 'committed')`);
    });
    await database.bus.publish('test_tx', 'after');
    await expect.poll(() => seen).toEqual(['committed', 'after']);
    await stop();
  });

  it('stops delivering after unsubscribe and keeps other subscribers', async () => {
    const first: string[] = [];
    const second: string[] = [];
    const stopFirst = await database.bus.subscribe('test_unsub', (p) => first.push(p));
    const stopSecond = await database.bus.subscribe('test_unsub', (p) => second.push(p));
    await database.bus.publish('test_unsub', 'a');
    await expect.poll(() => second).toEqual(['a']);
    await stopFirst();
    await database.bus.publish('test_unsub', 'b');
    await expect.poll(() => second).toEqual(['a', 'b']);
    expect(first).toEqual(['a']);
    await stopSecond();
  });

  it('refuses bad channel names and oversized payloads', async () => {
    await expect(database.bus.subscribe('Bad-Channel', () => {})).rejects.toThrow(/Invalid notify channel/);
    await expect(database.bus.publish('test_big', 'x'.repeat(8000))).rejects.toThrow(/over 7900 bytes/);
  });
});

describe.runIf(onlyOn('db: bus across replicas and connection loss'))('bus on PostgreSQL (replicas and connection loss)', () => {
  let database: TestDatabase;
  let replica: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
    replica = await openDatabase({ url: database.url!, poolMax: 2 });
  });
  afterAll(async () => {
    await replica.close();
    await database.destroy();
  });

  it('delivers a message published on one replica to a subscriber on another', async () => {
    const { done, stop } = await collect(replica, 'test_cross', 1);
    await database.bus.publish('test_cross', 'hello');
    expect(await done).toEqual(['hello']);
    await stop();
  });

  it('re-listens after its connection is killed with pg_terminate_backend, and says so', async () => {
    const seen: string[] = [];
    let reconnects = 0;
    replica.bus.onReconnect(() => reconnects++);
    const stop = await replica.bus.subscribe('test_recover', (p) => seen.push(p));
    const killed = await queryRows<{ killed: boolean }>(
      database.db,
      sql`select pg_terminate_backend(pid) as killed from pg_stat_activity
          where application_name = 'sess-listen' and datname = current_database() and query ilike 'listen%'`,
    );
    expect(killed.length).toBeGreaterThan(0);
    await expect.poll(() => reconnects, { timeout: 10_000 }).toBeGreaterThan(0);
    await database.bus.publish('test_recover', 'after-kill');
    await expect.poll(() => seen, { timeout: 5_000 }).toEqual(['after-kill']);
    await stop();
  });
});

describe.runIf(onlyOn('db: embedded database files'))('embedded database files', () => {
  it('refuses a second open of the same data directory while the first is open', async () => {
    const database = await createTestDatabase();
    try {
      await expect(openDatabase({ dataDir: database.dataDir! })).rejects.toThrow(/in use by process/);
    } finally {
      await database.destroy();
    }
  });
});
