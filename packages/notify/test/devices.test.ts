import { randomBytes } from 'node:crypto';
import { isSessError, type SessErrorBody } from '@sess/core';
import type { EgressPolicy } from '@sess/core/egress';
import { vapidKeys } from '@sess/db';
import { refusal as refusalOf } from '@sess/forms/test-helpers';
import {
  listDevices,
  loadVapidKeys,
  MAX_DEVICES_PER_PERSON,
  parsePushTarget,
  readDeliveryTargets,
  removeDevice,
  saveDevice,
} from '@sess/notify';
import { createTestDatabase, recordSecret, type TestDatabase } from '@sess/testkit';
import { startPushService, type TestPushService } from '@sess/testkit/push-service';
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

  it('an endpoint saved by another person moves to the one whose browser sent it, within their cap', async () => {
    const before = await createPerson(fixture.database);
    const after = await createPerson(fixture.database);
    const now = fixture.clock.now();
    const shared = browserSubscription();
    const id = await saveDevice(fixture.database.db, fixture.sealers, {
      userId: before.userId,
      target: shared,
      name: 'Tablet',
      now,
    });
    expect(
      await saveDevice(fixture.database.db, fixture.sealers, { userId: after.userId, target: shared, name: 'Tablet', now }),
    ).toBe(id);
    expect(await listDevices(fixture.database.db, before.userId)).toEqual([]);
    expect((await listDevices(fixture.database.db, after.userId)).map((d) => d.id)).toEqual([id]);

    for (let i = 1; i < MAX_DEVICES_PER_PERSON; i++)
      await saveDevice(fixture.database.db, fixture.sealers, {
        userId: before.userId,
        target: browserSubscription(),
        name: 'Browser',
        now,
      });
    await saveDevice(fixture.database.db, fixture.sealers, {
      userId: before.userId,
      target: browserSubscription(),
      name: 'Browser',
      now,
    });
    expect(
      await refusalOf(
        saveDevice(fixture.database.db, fixture.sealers, { userId: before.userId, target: shared, name: 'Tablet', now }),
      ),
    ).toMatchObject({ code: 'INVALID_ARGUMENTS', limit: MAX_DEVICES_PER_PERSON });
    expect((await listDevices(fixture.database.db, after.userId)).map((d) => d.id)).toEqual([id]);
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
