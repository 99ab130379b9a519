import { type Database, type DbOrTx, openDatabase, queryRows, users } from '@sess/db';
import {
  createReachCache,
  DEFAULT_SETTINGS,
  forgetDevice,
  REACH_CHANNEL,
  type ReachCache,
  readReach,
  removeDevice,
  saveSettings,
} from '@sess/notify';
import { listenForMessage, onlyOn } from '@sess/testkit';
import { startPushService, type TestPushService } from '@sess/testkit/push-service';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addDevice, createNotifyFixture, createPerson, type NotifyFixture } from './notify-fixture.ts';

let fixture: NotifyFixture;
let push: TestPushService;
const caches: ReachCache[] = [];

beforeAll(async () => {
  fixture = await createNotifyFixture();
  push = await startPushService();
});
afterEach(async () => {
  await Promise.all(caches.splice(0).map((c) => c.close()));
});
afterAll(async () => {
  await push.close();
  await fixture.close();
});

function cacheOf(options: { db?: DbOrTx; database?: Database; emailAvailable?: boolean; now?: () => number } = {}) {
  const database = options.database ?? fixture.database;
  const cache = createReachCache({
    db: options.db ?? database.db,
    bus: database.bus,
    emailAvailable: options.emailAvailable ?? false,
    ...(options.now ? { now: options.now } : {}),
  });
  caches.push(cache);
  return cache;
}

/** Resolves once the bus of `database` tells that `userId`'s reach changed (after the caches heard it: they subscribed first). */
function changeTold(userId: string, database: Database = fixture.database): Promise<() => Promise<void>> {
  return listenForMessage(database.bus, REACH_CHANNEL, userId);
}

/** Runs `change` with the reach triggers off: a change no one is told of (as if its notification were lost). */
async function untold(change: () => Promise<unknown>): Promise<void> {
  const { db } = fixture.database;
  await db.execute(sql`alter table push_subscriptions disable trigger push_subscriptions_reach`);
  try {
    await change();
  } finally {
    await db.execute(sql`alter table push_subscriptions enable trigger push_subscriptions_reach`);
  }
}

describe('readReach', () => {
  it('a device with push on, or e-mail on where the deployment has e-mail, reaches a person; reminders as they chose', async () => {
    const { db } = fixture.database;
    const { userId } = await createPerson(fixture.database);
    expect(await readReach(db, userId, { emailAvailable: false })).toEqual({ reachable: false, reminders: false });
    expect(await readReach(db, userId, { emailAvailable: true })).toEqual({ reachable: true, reminders: false });
    await saveSettings(db, userId, { ...DEFAULT_SETTINGS, emailEnabled: false, reminders: true }, fixture.clock.now());
    expect(await readReach(db, userId, { emailAvailable: true })).toEqual({ reachable: false, reminders: true });
    await addDevice(fixture, push, userId);
    expect(await readReach(db, userId, { emailAvailable: false })).toEqual({ reachable: true, reminders: true });
    await saveSettings(db, userId, { ...DEFAULT_SETTINGS, pushEnabled: false, emailEnabled: false }, fixture.clock.now());
    expect(await readReach(db, userId, { emailAvailable: true })).toEqual({ reachable: false, reminders: false });
    expect(await readReach(db, 'usr_nobody', { emailAvailable: true })).toEqual({ reachable: false, reminders: false });
  });
});

describe('createReachCache', () => {
  it('answers from the cache, with no read, until a change to the person is told on the bus', async () => {
    const cache = cacheOf();
    const { userId } = await createPerson(fixture.database);
    expect(await cache.of(userId)).toEqual({ reachable: false, reminders: false });
    // A device saved with no one told: the cache still answers what it read (so it did not read again)…
    await untold(() => addDevice(fixture, push, userId));
    expect((await cache.of(userId)).reachable).toBe(false);
    // …until any change to the person is told: then it reads, and finds the device.
    const told = await changeTold(userId);
    await saveSettings(fixture.database.db, userId, { ...DEFAULT_SETTINGS, reminders: true }, fixture.clock.now());
    await told();
    expect(await cache.of(userId)).toEqual({ reachable: true, reminders: true });
  });

  it('every writer of devices and settings is heard: a device saved, removed, forgotten by the worker; settings; the person deleted', async () => {
    const cache = cacheOf();
    const { db } = fixture.database;
    const { userId } = await createPerson(fixture.database);
    /** Runs `change`, waits until it is told, then checks what the cache says. */
    const expectAfter = async <T>(change: () => Promise<T>, reachable: boolean): Promise<T> => {
      const told = await changeTold(userId);
      const result = await change();
      await told();
      expect((await cache.of(userId)).reachable).toBe(reachable);
      return result;
    };
    expect((await cache.of(userId)).reachable).toBe(false);
    const first = await expectAfter(() => addDevice(fixture, push, userId), true);
    await expectAfter(() => removeDevice(db, userId, first.deviceId), false);
    const second = await expectAfter(() => addDevice(fixture, push, userId), true);
    await expectAfter(() => forgetDevice(db, userId, second.deviceId), false);
    await expectAfter(() => addDevice(fixture, push, userId), true);
    await expectAfter(() => saveSettings(db, userId, { ...DEFAULT_SETTINGS, pushEnabled: false }, fixture.clock.now()), false);
    await expectAfter(() => saveSettings(db, userId, DEFAULT_SETTINGS, fixture.clock.now()), true);
    await expectAfter(() => db.delete(users).where(eq(users.id, userId)), false);
  });

  it('a read that was running when a change arrived is not kept', async () => {
    const { userId } = await createPerson(fixture.database);
    // Fault injection: the cache's reads are held after they return, until released.
    let release: (() => void) | undefined;
    const held = new Proxy(fixture.database.db, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (property !== 'execute' || typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          const result = await value.apply(target, args);
          if (release === undefined) await new Promise<void>((resolve) => (release = resolve));
          return result;
        };
      },
    }) as DbOrTx;
    const cache = cacheOf({ db: held });
    const reading = cache.of(userId); // reads "no device", then is held
    await expect.poll(() => release !== undefined).toBe(true);
    const told = await changeTold(userId);
    await addDevice(fixture, push, userId);
    await told();
    release!();
    expect((await reading).reachable).toBe(false); // what it read, before the device
    expect((await cache.of(userId)).reachable).toBe(true); // not kept past the change
  });

  it('an entry lapses after its TTL, should a change never be told', async () => {
    let now = 1_000_000;
    const cache = cacheOf({ now: () => now });
    const { userId } = await createPerson(fixture.database);
    expect((await cache.of(userId)).reachable).toBe(false);
    await untold(() => addDevice(fixture, push, userId));
    now += 59_000;
    expect((await cache.of(userId)).reachable).toBe(false);
    now += 1_000;
    expect((await cache.of(userId)).reachable).toBe(true);
  });

  it.runIf(onlyOn('notify: another replica drops reach on commit'))(
    'another replica drops the person on the change’s commit; when its listening connection is lost, it drops everyone',
    async () => {
      const replica = await openDatabase({ url: fixture.database.url!, poolMax: 2 });
      try {
        const cache = cacheOf({ database: replica });
        const { userId } = await createPerson(fixture.database);
        expect((await cache.of(userId)).reachable).toBe(false);
        const told = await changeTold(userId, replica);
        await addDevice(fixture, push, userId);
        await told();
        expect((await cache.of(userId)).reachable).toBe(true);
        // A change no one is told of, then the replica's LISTEN connection is killed: it re-reads.
        const other = await createPerson(fixture.database);
        expect((await cache.of(other.userId)).reachable).toBe(false);
        await untold(() => addDevice(fixture, push, other.userId));
        expect((await cache.of(other.userId)).reachable).toBe(false);
        let reconnected = false;
        replica.bus.onReconnect(() => {
          reconnected = true;
        });
        await queryRows(
          fixture.database.db,
          sql`select pg_terminate_backend(pid) from pg_stat_activity
               where application_name = 'sess-listen' and datname = current_database() and pid <> pg_backend_pid()`,
        );
        await expect.poll(() => reconnected, { timeout: 10_000 }).toBe(true);
        expect((await cache.of(other.userId)).reachable).toBe(true);
      } finally {
        await replica.close();
      }
    },
  );
});
