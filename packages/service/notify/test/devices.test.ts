import { randomBytes } from 'node:crypto';
import { isSessError, type SessErrorBody } from '@sess/core';
import type { EgressPolicy } from '@sess/core/egress';
import { openDatabase, queryRows, vapidKeys } from '@sess/db';
import { refusal as refusalOf } from '@sess/forms/test-helpers';
import {
  listDevices,
  loadVapidKeys,
  MAX_DEVICES_PER_PERSON,
  type PushTarget,
  parsePushTarget,
  type RenewalProof,
  readDeliveryTargets,
  removeDevice,
  renewDevice,
  saveDevice,
} from '@sess/notify';
import { createTestDatabase, onlyOn, recordSecret, type TestDatabase } from '@sess/testkit';
import { startPushService, type TestPushService } from '@sess/testkit/push-service';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNotifyFixture, createPerson, type NotifyFixture } from './notify-fixture.ts';

let fixture: NotifyFixture;
let push: TestPushService;

beforeAll(async () => {
  fixture = await createNotifyFixture();
  push = await startPushService();
});
afterAll(async () => {
  await push.close();
  await fixture.close();
});

const b64 = (bytes: number, first?: number) => {
  const buffer = randomBytes(bytes);
  if (first !== undefined) buffer[0] = first;
  return buffer.toString('base64url');
};

/** A subscription as a browser gives it, at a made-up push service (never contacted). */
function browserSubscription(endpoint = `https://push.sess.test/send/${b64(24)}`) {
  const subscription = { endpoint, keys: { p256dh: b64(65, 4), auth: b64(16) } };
  recordSecret(subscription.endpoint, 'credential');
  recordSecret(subscription.keys.p256dh, 'credential');
  recordSecret(subscription.keys.auth, 'credential');
  return subscription;
}

/** The SessError body `run` throws (fails the test if it returns). */
function refusal(run: () => unknown): SessErrorBody {
  try {
    run();
  } catch (error) {
    if (isSessError(error)) return error.toBody();
    throw error;
  }
  throw new Error('expected a SessError');
}

/** parsePushTarget under production's policy unless told. */
const parse = (input: unknown, policy: EgressPolicy = 'public') => parsePushTarget(input, { policy });

describe('parsePushTarget', () => {
  it('takes what PushSubscription.toJSON() gives (padding dropped)', () => {
    const subscription = browserSubscription();
    expect(parse({ ...subscription, expirationTime: null })).toEqual(subscription);
    expect(parse({ ...subscription, keys: { ...subscription.keys, auth: `${subscription.keys.auth}==` } })).toEqual(subscription);
  });

  it('refuses a bad endpoint, naming /endpoint', () => {
    for (const endpoint of [
      'not a url',
      'ftp://push.sess.test/x',
      'http://push.sess.test/x',
      'https://user:pass@push.sess.test/x',
      `https://push.sess.test/${'a'.repeat(2100)}`,
      42,
    ]) {
      expect(refusal(() => parse({ ...browserSubscription(), endpoint }))).toMatchObject({
        code: 'INVALID_ARGUMENTS',
        field: '/endpoint',
      });
    }
  });

  it('takes a plain-http loopback endpoint only under the test policy (a push service run by tests)', () => {
    const { subscription } = push.subscribe(b64(65, 4));
    expect(refusal(() => parse(subscription))).toMatchObject({ field: '/endpoint' });
    expect(parse(subscription, 'loopback-only').endpoint).toBe(subscription.endpoint);
    expect(refusal(() => parse({ ...subscription, endpoint: 'http://push.sess.test/x' }, 'loopback-only'))).toMatchObject({
      field: '/endpoint',
    });
  });

  it('refuses, when it is saved, an endpoint the egress policy would refuse by its address or name (no DNS asked)', () => {
    for (const host of [
      '127.0.0.1',
      'localhost',
      'push.localhost',
      '10.1.2.3',
      '169.254.169.254',
      '[::1]',
      '[::7f00:1]',
      '[::ffff:127.0.0.1]',
      '[64:ff9b::a9fe:a9fe]',
      '[64:ff9b:1::a9fe:a9fe]',
      '[2002:a9fe:a9fe::1]',
      '[2001:0:4136:e378:8000:63bf:3fff:fdd2]',
      '[fd00::1]',
      '[fe80::1]',
    ]) {
      const error = refusal(() => parse(browserSubscription(`https://${host}/send/x`)));
      expect(error, host).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/endpoint' });
      expect(error.message, host).toMatch(/public address/);
    }
    expect(parse(browserSubscription('https://[2a00:1450:4001::1]/send/x')).endpoint).toBe('https://[2a00:1450:4001::1]/send/x');
  });

  it('refuses keys of the wrong length or shape, naming the key and the length', () => {
    const subscription = browserSubscription();
    const p256dh = refusal(() => parse({ ...subscription, keys: { ...subscription.keys, p256dh: b64(64, 4) } }));
    expect(p256dh).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/keys/p256dh' });
    expect(p256dh.message).toContain('65 bytes; this is 64');
    expect(refusal(() => parse({ ...subscription, keys: { ...subscription.keys, p256dh: b64(65, 2) } }))).toMatchObject({
      field: '/keys/p256dh',
    });
    expect(refusal(() => parse({ ...subscription, keys: { ...subscription.keys, auth: b64(15) } }))).toMatchObject({
      field: '/keys/auth',
    });
    expect(refusal(() => parse({ ...subscription, keys: { ...subscription.keys, auth: 'not base64!' } }))).toMatchObject({
      field: '/keys/auth',
    });
    expect(refusal(() => parse({ endpoint: subscription.endpoint }))).toMatchObject({ field: '/keys' });
    expect(refusal(() => parse([subscription]))).toMatchObject({ field: '' });
  });
});

describe('saveDevice', () => {
  it('the same endpoint twice updates the one device (keys and name)', async () => {
    const person = await createPerson(fixture.database);
    const first = browserSubscription();
    const now = fixture.clock.now();
    const id = await saveDevice(fixture.database.db, fixture.sealers, {
      userId: person.userId,
      target: first,
      name: 'Phone',
      now,
    });
    const again = { ...browserSubscription(first.endpoint) };
    expect(
      await saveDevice(fixture.database.db, fixture.sealers, { userId: person.userId, target: again, name: 'My phone', now }),
    ).toBe(id);
    expect((await listDevices(fixture.database.db, person.userId)).map((d) => [d.id, d.name])).toEqual([[id, 'My phone']]);
    expect(await readDeliveryTargets(fixture.database.db, fixture.sealers, person.userId)).toEqual([{ id, ...again }]);
  });

  it(`keeps at most ${MAX_DEVICES_PER_PERSON} devices per person, and says how to make room`, async () => {
    const person = await createPerson(fixture.database);
    const now = fixture.clock.now();
    const save = () =>
      saveDevice(fixture.database.db, fixture.sealers, {
        userId: person.userId,
        target: browserSubscription(),
        name: 'Browser',
        now,
      });
    const ids: string[] = [];
    for (let i = 0; i < MAX_DEVICES_PER_PERSON; i++) ids.push(await save());
    const full = await refusalOf(save());
    expect(full).toMatchObject({ code: 'INVALID_ARGUMENTS', limit: MAX_DEVICES_PER_PERSON });
    expect(full.message).toMatch(/Remove one/);
    expect(await removeDevice(fixture.database.db, person.userId, ids[0]!)).toBe(true);
    await save();
    expect(await listDevices(fixture.database.db, person.userId)).toHaveLength(MAX_DEVICES_PER_PERSON);
  });

  it('a device new to the person takes a place; saving one of their own again does not', async () => {
    const person = await createPerson(fixture.database);
    const now = fixture.clock.now();
    const first = browserSubscription();
    await saveDevice(fixture.database.db, fixture.sealers, { userId: person.userId, target: first, name: 'First', now });
    for (let i = 1; i < MAX_DEVICES_PER_PERSON; i++)
      await saveDevice(fixture.database.db, fixture.sealers, {
        userId: person.userId,
        target: browserSubscription(),
        name: 'Browser',
        now,
      });
    const again = browserSubscription(first.endpoint);
    await saveDevice(fixture.database.db, fixture.sealers, { userId: person.userId, target: again, name: 'First again', now });
    expect(await listDevices(fixture.database.db, person.userId)).toHaveLength(MAX_DEVICES_PER_PERSON);
  });

  it('two people saving the same browsers at once each keep their own, up to their own cap', async () => {
    const [a, b] = [await createPerson(fixture.database), await createPerson(fixture.database)];
    const now = fixture.clock.now();
    const shared = Array.from({ length: MAX_DEVICES_PER_PERSON + 3 }, () => browserSubscription());
    const outcomes = await Promise.allSettled(
      shared.flatMap((target) =>
        [a, b].map((person) =>
          saveDevice(fixture.database.db, fixture.sealers, { userId: person.userId, target, name: 'B', now }),
        ),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(2 * MAX_DEVICES_PER_PERSON);
    for (const o of outcomes)
      if (o.status === 'rejected') expect(isSessError(o.reason) && o.reason.code).toBe('INVALID_ARGUMENTS');
    expect(await listDevices(fixture.database.db, a.userId)).toHaveLength(MAX_DEVICES_PER_PERSON);
    expect(await listDevices(fixture.database.db, b.userId)).toHaveLength(MAX_DEVICES_PER_PERSON);
  });

  it('a person removes only their own devices', async () => {
    const owner = await createPerson(fixture.database);
    const other = await createPerson(fixture.database);
    const id = await saveDevice(fixture.database.db, fixture.sealers, {
      userId: owner.userId,
      target: browserSubscription(),
      name: 'Laptop',
      now: fixture.clock.now(),
    });
    expect(await removeDevice(fixture.database.db, other.userId, id)).toBe(false);
    expect((await listDevices(fixture.database.db, owner.userId)).map((d) => d.id)).toEqual([id]);
  });
});

/** A device row as stored, with the system columns a lock (xmax) or a write (xmin, ctid) changes. */
async function storedRow(id: string) {
  const [row] = await queryRows<{
    user_id: string;
    endpoint_sha256: string;
    sealed: string;
    xmin: string;
    xmax: string;
    ctid: string;
  }>(
    fixture.database.db,
    sql`select user_id, endpoint_sha256, sealed, xmin::text as xmin, xmax::text as xmax, ctid::text as ctid
          from push_subscriptions where id = ${id}`,
  );
  return row;
}

const proofOf = (subscription: PushTarget): RenewalProof => ({ endpoint: subscription.endpoint, auth: subscription.keys.auth });

/** Saves `target` as a device of `userId`. */
const save = (userId: string, target: PushTarget, name = 'Phone') =>
  saveDevice(fixture.database.db, fixture.sealers, { userId, target, name, now: fixture.clock.now() });

const renew = (old: RenewalProof, target: PushTarget) => renewDevice(fixture.database.db, fixture.sealers, { old, target });

describe('a device is a person’s endpoint', () => {
  it('another person saving the endpoint (with keys of their own) gets a device of their own; the first is untouched', async () => {
    const [a, b] = [await createPerson(fixture.database), await createPerson(fixture.database)];
    const mine = browserSubscription();
    const aId = await save(a.userId, mine, 'A’s phone');
    const before = await storedRow(aId);
    const theirs = browserSubscription(mine.endpoint); // the endpoint alone was known
    const bId = await save(b.userId, theirs, 'B’s guess');
    expect(bId).not.toBe(aId);
    expect(await storedRow(aId)).toEqual(before);
    expect((await listDevices(fixture.database.db, a.userId)).map((d) => [d.id, d.name])).toEqual([[aId, 'A’s phone']]);
    expect(await readDeliveryTargets(fixture.database.db, fixture.sealers, a.userId)).toEqual([{ id: aId, ...mine }]);
    expect(await readDeliveryTargets(fixture.database.db, fixture.sealers, b.userId)).toEqual([{ id: bId, ...theirs }]);
    // B saving it again updates B's device only.
    expect(await save(b.userId, mine, 'Renamed by B')).toBe(bId);
    expect(await storedRow(aId)).toEqual(before);
  });

  it('the other person’s copy takes a place of theirs, and is refused at their cap, changing nothing of the first', async () => {
    const [a, b] = [await createPerson(fixture.database), await createPerson(fixture.database)];
    const shared = browserSubscription();
    const aId = await save(a.userId, shared);
    for (let i = 0; i < MAX_DEVICES_PER_PERSON; i++) await save(b.userId, browserSubscription());
    expect(await refusalOf(save(b.userId, shared))).toMatchObject({ code: 'INVALID_ARGUMENTS', limit: MAX_DEVICES_PER_PERSON });
    expect((await listDevices(fixture.database.db, a.userId)).map((d) => d.id)).toEqual([aId]);
    expect(await listDevices(fixture.database.db, b.userId)).toHaveLength(MAX_DEVICES_PER_PERSON);
  });

  it('removing a device removes only the caller’s, even when both saved the same subscription', async () => {
    const [a, b] = [await createPerson(fixture.database), await createPerson(fixture.database)];
    const shared = browserSubscription();
    const aId = await save(a.userId, shared);
    const bId = await save(b.userId, shared);
    expect(await removeDevice(fixture.database.db, b.userId, aId)).toBe(false);
    expect(await removeDevice(fixture.database.db, b.userId, bId)).toBe(true);
    expect(await readDeliveryTargets(fixture.database.db, fixture.sealers, a.userId)).toEqual([{ id: aId, ...shared }]);
    expect(await listDevices(fixture.database.db, b.userId)).toEqual([]);
  });
});

describe('renewDevice', () => {
  it('moves the device the old subscription proves, keeping its id, person and name', async () => {
    const person = await createPerson(fixture.database);
    const old = browserSubscription();
    const id = await save(person.userId, old, 'My phone');
    const next = browserSubscription();
    expect(await renew(proofOf(old), next)).toEqual([id]);
    expect((await listDevices(fixture.database.db, person.userId)).map((d) => [d.id, d.name])).toEqual([[id, 'My phone']]);
    expect(await readDeliveryTargets(fixture.database.db, fixture.sealers, person.userId)).toEqual([{ id, ...next }]);
    expect(await renew(proofOf(old), browserSubscription())).toEqual([]);
  });

  it('a wrong secret for a saved endpoint finds nothing, and neither locks nor writes the row', async () => {
    const [a, b] = [await createPerson(fixture.database), await createPerson(fixture.database)];
    const mine = browserSubscription();
    const id = await save(a.userId, mine);
    const guessed = browserSubscription(mine.endpoint);
    const bId = await save(b.userId, guessed); // B's copy: the endpoint with keys of B's own
    const before = [await storedRow(id), await storedRow(bId)];
    for (const auth of [b64(16), guessed.keys.auth.slice(0, 21), ''])
      expect(await renew({ endpoint: mine.endpoint, auth }, browserSubscription())).toEqual([]);
    // A lock would have set xmax (FOR UPDATE); a write, xmin and ctid.
    expect([await storedRow(id), await storedRow(bId)]).toEqual(before);
    expect(await renew(proofOf(browserSubscription()), browserSubscription())).toEqual([]);
  });

  it('moves only what the proof proves: B’s own old subscription onto A’s endpoint leaves A’s device as it was', async () => {
    const [a, b] = [await createPerson(fixture.database), await createPerson(fixture.database)];
    const aSubscription = browserSubscription();
    const aId = await save(a.userId, aSubscription);
    const bOld = browserSubscription();
    const bId = await save(b.userId, bOld);
    const before = await storedRow(aId);
    const ontoA = browserSubscription(aSubscription.endpoint);
    expect(await renew(proofOf(bOld), ontoA)).toEqual([bId]);
    expect(await storedRow(aId)).toEqual(before);
    expect(await readDeliveryTargets(fixture.database.db, fixture.sealers, a.userId)).toEqual([{ id: aId, ...aSubscription }]);
    expect(await readDeliveryTargets(fixture.database.db, fixture.sealers, b.userId)).toEqual([{ id: bId, ...ontoA }]);
    // And B's copy of A's endpoint (B's keys) is not proved by A's secret, nor A's by B's.
    const guessed = browserSubscription(aSubscription.endpoint);
    const guessId = await save(b.userId, guessed);
    expect(guessId).toBe(bId); // B already has a device on that endpoint: it is updated
    const next = browserSubscription();
    expect(await renew(proofOf(aSubscription), next)).toEqual([aId]);
    expect((await storedRow(bId))?.endpoint_sha256).toBe(before?.endpoint_sha256);
  });

  it('the same subscription saved by two people moves for both (one browser, two accounts)', async () => {
    const [a, b] = [await createPerson(fixture.database), await createPerson(fixture.database)];
    const shared = browserSubscription();
    const aId = await save(a.userId, shared);
    const bId = await save(b.userId, shared);
    const next = browserSubscription();
    expect((await renew(proofOf(shared), next)).sort()).toEqual([aId, bId].sort());
    expect(await readDeliveryTargets(fixture.database.db, fixture.sealers, a.userId)).toEqual([{ id: aId, ...next }]);
    expect(await readDeliveryTargets(fixture.database.db, fixture.sealers, b.userId)).toEqual([{ id: bId, ...next }]);
  });

  it('the same person’s device already on the new endpoint gives way; another person’s there is untouched', async () => {
    const [a, b] = [await createPerson(fixture.database), await createPerson(fixture.database)];
    const old = browserSubscription();
    const aId = await save(a.userId, old, 'Kept');
    const next = browserSubscription();
    await save(a.userId, next, 'Added again'); // the person added the browser again by hand
    const bId = await save(b.userId, next, 'Theirs');
    const theirs = await storedRow(bId);
    expect(await renew(proofOf(old), next)).toEqual([aId]);
    expect((await listDevices(fixture.database.db, a.userId)).map((d) => [d.id, d.name])).toEqual([[aId, 'Kept']]);
    expect(await readDeliveryTargets(fixture.database.db, fixture.sealers, a.userId)).toEqual([{ id: aId, ...next }]);
    expect(await storedRow(bId)).toEqual(theirs);
  });

  it('renewed onto the endpoint it already has (new keys), the device stays one', async () => {
    const person = await createPerson(fixture.database);
    const old = browserSubscription();
    const id = await save(person.userId, old);
    const rekeyed = browserSubscription(old.endpoint);
    expect(await renew(proofOf(old), rekeyed)).toEqual([id]);
    expect(await readDeliveryTargets(fixture.database.db, fixture.sealers, person.userId)).toEqual([{ id, ...rekeyed }]);
  });

  it.runIf(onlyOn('notify: a device changed between proof and move'))(
    'a device changed between the proof and the move is left as it is: the person’s other device is not deleted for it',
    async () => {
      const person = await createPerson(fixture.database);
      const old = browserSubscription();
      const id = await save(person.userId, old);
      const next = browserSubscription();
      const readdedId = await save(person.userId, next, 'Added again');
      const other = await openDatabase({ url: fixture.database.url!, poolMax: 1 });
      try {
        let renewal: Promise<string[]> | undefined;
        await other.db.transaction(async (tx) => {
          // Holds the person's device lock, so the renewal proves the device and then waits to move it…
          await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`push_subscriptions:${person.userId}`}, 0))`);
          renewal = renew(proofOf(old), next);
          await expect
            .poll(async () => {
              const [waiting] = await queryRows<{ n: number }>(
                tx,
                sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted
                      and database = (select oid from pg_database where datname = current_database())`,
              );
              return waiting?.n;
            })
            .toBe(1);
          // …while the person removes it.
          await tx.execute(sql`delete from push_subscriptions where id = ${id}`);
        });
        expect(await renewal).toEqual([]);
      } finally {
        await other.close();
      }
      expect((await listDevices(fixture.database.db, person.userId)).map((d) => d.id)).toEqual([readdedId]);
      expect(await readDeliveryTargets(fixture.database.db, fixture.sealers, person.userId)).toEqual([
        { id: readdedId, ...next },
      ]);
    },
  );
});

describe('loadVapidKeys', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.destroy();
  });

  it('makes the pair once: concurrent first calls get the same pair, stored with the private key sealed', async () => {
    const [a, b] = await Promise.all([loadVapidKeys(database.db, fixture.sealers), loadVapidKeys(database.db, fixture.sealers)]);
    expect(a).toEqual(b);
    expect(await loadVapidKeys(database.db, fixture.sealers)).toEqual(a);
    expect(Buffer.from(a!.publicKey, 'base64url')).toHaveLength(65);
    expect(Buffer.from(a!.privateKey, 'base64url')).toHaveLength(32);
    const rows = await database.db.select().from(vapidKeys);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.sealedPrivateKey).not.toContain(a!.privateKey);
  });
});
