import { randomBytes } from 'node:crypto';
import { createApiKey } from '@sess/accounts';
import { newId } from '@sess/core';
import { queryRows } from '@sess/db';
import { API_KEY_NOTICES_TTL_MS, DEFAULT_SETTINGS, type NotificationWorker, saveSettings } from '@sess/notify';
import { RENEWALS_PER_MINUTE } from '@sess/notify-pages';
import { createTestUser, parseHtmlForms, recordSecret, sampleSurface, signInTestUser, type TestUser } from '@sess/testkit';
import { startPushService, type TestPushService, type TestPushSubscription } from '@sess/testkit/push-service';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppServer, startAppServer } from './support/app-server.ts';
import { addThisDevice, saveThisDevice, startTestWorker } from './support/notify-device.ts';

/*
 * A device's push subscription replaced by its push service (the service worker's
 * pushsubscriptionchange posts { old: { endpoint, auth }, subscription } to
 * /account/notifications/devices/renew, signed in or not): the device keeps its id, name and
 * person and the next notification reaches the new subscription, not the old one. Only the old
 * subscription's endpoint with its auth secret moves a device; anything else is a 404 that
 * changes nothing, and bad input a 400 naming the field. A device is a person's endpoint: what
 * one person saves, renews or removes never moves or deletes another's device with the same
 * endpoint (issue 32). The real app, the loopback RFC 8030 push service and @sess/notify's worker
 * driven with runOnce.
 */

const RENEW = '/account/notifications/devices/renew';

let server: AppServer;
let push: TestPushService;
let worker: NotificationWorker;

beforeAll(async () => {
  push = await startPushService();
  server = await startAppServer();
  worker = startTestWorker(server);
});
afterAll(async () => {
  await worker?.close();
  await server?.close();
  await push?.close();
});

/** A person with one device added on the notifications page, who chose to hear of API-key forms. */
async function personWithDevice(name = 'Test phone') {
  const user = await createTestUser(server.database.db);
  const { cookie } = await signInTestUser(server.database.db, user.userId);
  const device = await addThisDevice(server.url, cookie, push, name);
  await saveSettings(server.database.db, user.userId, { ...DEFAULT_SETTINGS, apiKeyForms: true }, server.clock.now());
  server.clock.advance(API_KEY_NOTICES_TTL_MS);
  return { user, cookie, ...device };
}

function renew(body: unknown, options: { type?: string; raw?: string; cookie?: string } = {}) {
  const headers: Record<string, string> = { 'content-type': options.type ?? 'application/json' };
  if (options.cookie) headers.cookie = options.cookie;
  return fetch(`${server.url}${RENEW}`, { method: 'POST', headers, body: options.raw ?? JSON.stringify(body) });
}

const proofOf = (subscription: TestPushSubscription) => ({ endpoint: subscription.endpoint, auth: subscription.keys.auth });

/** The person's devices as stored: id, name, the endpoint's hash and the sealed target (never the endpoint in the clear). */
function deviceRows(userId: string) {
  return queryRows<{ id: string; name: string; endpoint_sha256: string; sealed: string }>(
    server.database.db,
    sql`select id, name, endpoint_sha256, sealed from push_subscriptions where user_id = ${userId} order by created_at, id`,
  );
}

/**
 * A device row as stored with the system columns a row lock (xmax: FOR UPDATE sets it) or a
 * write (xmin, ctid) changes: equal before and after means the request neither locked nor wrote it.
 */
async function storedRow(id: string) {
  const [row] = await queryRows<{
    user_id: string;
    name: string;
    endpoint_sha256: string;
    sealed: string;
    xmin: string;
    xmax: string;
    ctid: string;
  }>(
    server.database.db,
    sql`select user_id, name, endpoint_sha256, sealed, xmin::text as xmin, xmax::text as xmax, ctid::text as ctid
          from push_subscriptions where id = ${id}`,
  );
  return row;
}

/** A form made with the person's workspace API key: each of their devices is told of it. */
async function formFor(user: TestUser, title: string): Promise<string> {
  const made = await createApiKey({
    ctx: { db: server.database.db, now: server.clock.now },
    input: { workspaceId: user.workspaceId, name: 'agent', createdBy: user.userId },
  });
  recordSecret(made.key, 'api-key');
  const response = await fetch(`${server.url}/v1/sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${made.key}`, 'content-type': 'application/json', 'idempotency-key': newId('session') },
    body: JSON.stringify({ interaction: sampleSurface(title) }),
  });
  const body = (await response.json()) as { humanUrl: string; notified: boolean };
  recordSecret(body.humanUrl, 'link');
  expect(response.status).toBe(201);
  expect(body.notified).toBe(true);
  return body.humanUrl;
}

async function errorOf(response: Response) {
  return { status: response.status, ...((await response.json()) as { error: { code: string; message: string; field: string } }) };
}

describe('renewing a device whose push subscription was replaced', () => {
  it('moves the device to the new subscription, with no session: the next form reaches the new one only', async () => {
    const { user, cookie, id: oldId, subscription, vapidKey } = await personWithDevice('My phone');
    const [before] = await deviceRows(user.userId);
    const next = push.subscribe(vapidKey);

    const renewed = await renew({ old: proofOf(subscription), subscription: next.subscription });
    expect(renewed.status).toBe(200);
    expect(renewed.headers.get('cache-control')).toBe('no-store');
    expect(await renewed.json()).toEqual({ devices: [{ id: before!.id }] });

    // The same device (id, name, person), now on the new endpoint; never stored in the clear.
    const after = await deviceRows(user.userId);
    expect(after).toEqual([
      { id: before!.id, name: 'My phone', endpoint_sha256: expect.any(String), sealed: expect.any(String) },
    ]);
    expect(after[0]!.endpoint_sha256).not.toBe(before!.endpoint_sha256);
    expect(after[0]!.sealed).not.toContain(next.subscription.endpoint);
    const page = await (await fetch(`${server.url}/account/notifications`, { headers: { cookie } })).text();
    expect(page).toContain('My phone');

    const link = await formFor(user, 'After the renewal?');
    expect(await worker.runOnce()).toBe(1);
    expect(push.received(next.id).map((p) => p.payload)).toMatchObject([
      { kind: 'form', title: 'After the renewal?', url: link },
    ]);
    expect(push.received(oldId)).toEqual([]);
    expect(push.requests(oldId)).toEqual([]);

    // The old subscription proves nothing now: the same renewal again is a 404.
    const again = await errorOf(await renew({ old: proofOf(subscription), subscription: next.subscription }));
    expect(again).toMatchObject({ status: 404, error: { code: 'NOT_FOUND', field: '/old' } });
    expect(await deviceRows(user.userId)).toEqual(after);
  });

  it('refuses a wrong auth secret, an unknown endpoint or another person’s secret alike (404), locking and changing nothing', async () => {
    const mine = await personWithDevice();
    const theirs = await personWithDevice();
    const before = [await deviceRows(mine.user.userId), await deviceRows(theirs.user.userId)];
    const [mineBefore] = before[0]!;
    const rowBefore = await storedRow(mineBefore!.id);
    const next = push.subscribe(mine.vapidKey);
    const attempts = [
      { endpoint: mine.subscription.endpoint, auth: randomBytes(16).toString('base64url') },
      { endpoint: `${push.url}/push/${randomBytes(12).toString('base64url')}`, auth: mine.subscription.keys.auth },
      { endpoint: mine.subscription.endpoint, auth: theirs.subscription.keys.auth },
      { endpoint: `${mine.subscription.endpoint}/`, auth: mine.subscription.keys.auth },
    ];
    const answers = [];
    for (const old of attempts) answers.push(await errorOf(await renew({ old, subscription: next.subscription })));
    // One answer for every failure: it tells nothing of which part was wrong.
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toEqual({
      status: 404,
      error: { code: 'NOT_FOUND', message: expect.stringContaining('Add the device again'), field: '/old' },
    });
    expect([await deviceRows(mine.user.userId), await deviceRows(theirs.user.userId)]).toEqual(before);
    // Three of the four named an endpoint Sess has: its row was neither locked nor written.
    expect(await storedRow(mineBefore!.id)).toEqual(rowBefore);
  });

  it('takes the place of another device of the same browser already saved with the new endpoint', async () => {
    const { user, cookie, subscription, vapidKey } = await personWithDevice('Old name');
    // The person added the browser again by hand after its subscription changed: two rows.
    const readded = await addThisDevice(server.url, cookie, push, 'Added again');
    const [kept] = await deviceRows(user.userId);
    expect(await deviceRows(user.userId)).toHaveLength(2);
    // Someone else signed in on the same browser saved it too: theirs stays as it is.
    const other = await createTestUser(server.database.db);
    const otherCookie = (await signInTestUser(server.database.db, other.userId)).cookie;
    const othersId = await saveThisDevice(server.url, otherCookie, readded.subscription, 'Their phone');
    const othersBefore = await storedRow(othersId);
    const renewed = await renew({ old: proofOf(subscription), subscription: readded.subscription });
    expect(renewed.status).toBe(200);
    expect(await renewed.json()).toEqual({ devices: [{ id: kept!.id }] });
    const after = await deviceRows(user.userId);
    expect(after.map((d) => ({ id: d.id, name: d.name }))).toEqual([{ id: kept!.id, name: 'Old name' }]);
    expect(await storedRow(othersId)).toEqual(othersBefore);
    await formFor(user, 'One push?');
    expect(await worker.runOnce()).toBe(1);
    expect(push.received(readded.id)).toHaveLength(1);
    expect(vapidKey).toBe(readded.vapidKey);
  });

  it('answers bad input with a clear error naming the field, and changes nothing', async () => {
    const { user, subscription, vapidKey } = await personWithDevice();
    const before = await deviceRows(user.userId);
    const next = push.subscribe(vapidKey).subscription;
    const old = proofOf(subscription);
    const cases: Array<[unknown, string]> = [
      [{ subscription: next }, '/old'],
      [{ old: 'x', subscription: next }, '/old'],
      [{ old: { auth: old.auth }, subscription: next }, '/old/endpoint'],
      [{ old: { endpoint: 'e'.repeat(3000), auth: old.auth }, subscription: next }, '/old/endpoint'],
      [{ old: { endpoint: old.endpoint }, subscription: next }, '/old/auth'],
      [{ old: { endpoint: old.endpoint, auth: randomBytes(8).toString('base64url') }, subscription: next }, '/old/auth'],
      [{ old: { endpoint: old.endpoint, auth: 'not base64url!' }, subscription: next }, '/old/auth'],
      [{ old }, '/subscription'],
      [{ old, subscription: { ...next, endpoint: 'http://push.example.com/x' } }, '/subscription/endpoint'],
      [{ old, subscription: { ...next, keys: { ...next.keys, auth: 'AAAA' } } }, '/subscription/keys/auth'],
      [[old], ''],
    ];
    for (const [body, field] of cases) {
      const answer = await errorOf(await renew(body));
      expect(answer, field).toEqual({ status: 400, error: { code: 'INVALID_ARGUMENTS', message: expect.any(String), field } });
      expect(answer.error.message.length, field).toBeGreaterThan(10);
    }
    const broken = await errorOf(await renew(undefined, { raw: '{"old":' }));
    expect(broken).toMatchObject({ status: 400, error: { code: 'INVALID_ARGUMENTS', field: '' } });
    const plain = await errorOf(await renew(undefined, { type: 'text/plain', raw: JSON.stringify({ old, subscription: next }) }));
    expect(plain).toMatchObject({ status: 415, error: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
    const huge = await errorOf(await renew({ old, subscription: next, pad: 'x'.repeat(20_000) }));
    expect(huge).toMatchObject({ status: 413, error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(await deviceRows(user.userId)).toEqual(before);
  });

  it('takes at most RENEWALS_PER_MINUTE a minute from one address, then 429 with Retry-After, changing nothing', async () => {
    server.clock.advance(60_000); // a window of its own, whatever the tests above posted
    const { user, subscription, vapidKey } = await personWithDevice();
    const before = await deviceRows(user.userId);
    const next = push.subscribe(vapidKey).subscription;
    const guess = { endpoint: subscription.endpoint, auth: randomBytes(16).toString('base64url') };
    for (let i = 0; i < RENEWALS_PER_MINUTE; i++) expect((await renew({ old: guess, subscription: next })).status).toBe(404);
    const limited = await renew({ old: proofOf(subscription), subscription: next });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ error: { code: 'RATE_LIMITED', field: '' } });
    expect(await deviceRows(user.userId)).toEqual(before);
    server.clock.advance(60_000);
    expect((await renew({ old: proofOf(subscription), subscription: next })).status).toBe(200);
  });
});

describe('a device is a person’s endpoint: one person’s request never moves or deletes another’s', () => {
  /** A person signed in with no device yet. */
  async function signedIn() {
    const user = await createTestUser(server.database.db);
    const { cookie } = await signInTestUser(server.database.db, user.userId);
    await saveSettings(server.database.db, user.userId, { ...DEFAULT_SETTINGS, apiKeyForms: true }, server.clock.now());
    return { user, cookie };
  }

  /** The names on the person's notifications page. */
  async function listed(cookie: string, names: string[]) {
    const page = await (await fetch(`${server.url}/account/notifications`, { headers: { cookie } })).text();
    return names.filter((name) => page.includes(name));
  }

  it('"Notify this device" with another person’s endpoint gives the caller a device of their own; the owner’s stays, listed and pushed to', async () => {
    const a = await personWithDevice('A’s phone');
    const [aRow] = await deviceRows(a.user.userId);
    const before = await storedRow(aRow!.id);
    const b = await signedIn();
    // B knows A's endpoint (not A's keys) and saves it with keys of B's own.
    const bKeys = push.subscribe(a.vapidKey).subscription.keys;
    const bId = await saveThisDevice(server.url, b.cookie, { endpoint: a.subscription.endpoint, keys: bKeys }, 'B’s claim');
    expect(bId).not.toBe(aRow!.id);
    // Then the whole of A's subscription (as if B signed in on A's browser): still B's own device.
    expect(await saveThisDevice(server.url, b.cookie, a.subscription, 'B on A’s browser')).toBe(bId);
    expect(await storedRow(aRow!.id)).toEqual(before);
    expect(await listed(a.cookie, ['A’s phone', 'B on A’s browser'])).toEqual(['A’s phone']);
    expect(await listed(b.cookie, ['A’s phone', 'B on A’s browser'])).toEqual(['B on A’s browser']);

    server.clock.advance(API_KEY_NOTICES_TTL_MS);
    const link = await formFor(a.user, 'Still mine?');
    expect(await worker.runOnce()).toBe(1);
    expect(push.received(a.id).map((p) => p.payload)).toMatchObject([{ kind: 'form', title: 'Still mine?', url: link }]);
  });

  it('a renewal proved with the caller’s own old subscription onto another person’s endpoint leaves that person’s device as it was', async () => {
    const a = await personWithDevice('A’s phone');
    const b = await personWithDevice('B’s phone');
    const [aRow] = await deviceRows(a.user.userId);
    const [bRow] = await deviceRows(b.user.userId);
    const before = await storedRow(aRow!.id);
    const ontoA = { endpoint: a.subscription.endpoint, keys: push.subscribe(b.vapidKey).subscription.keys };
    const renewed = await renew({ old: proofOf(b.subscription), subscription: ontoA });
    expect(renewed.status).toBe(200);
    expect(await renewed.json()).toEqual({ devices: [{ id: bRow!.id }] });
    expect(await storedRow(aRow!.id)).toEqual(before);
    expect(await listed(a.cookie, ['A’s phone'])).toEqual(['A’s phone']);

    const link = await formFor(a.user, 'Still reaching A?');
    expect(await worker.runOnce()).toBe(1);
    expect(push.received(a.id).map((p) => p.payload)).toMatchObject([{ title: 'Still reaching A?', url: link }]);
  });

  it('one browser saved by two people, renewed: both devices move to the new subscription, and both are pushed to there', async () => {
    const a = await personWithDevice('A here');
    const b = await signedIn();
    const bId = await saveThisDevice(server.url, b.cookie, a.subscription, 'B here');
    const [aRow] = await deviceRows(a.user.userId);
    const next = push.subscribe(a.vapidKey);
    const renewed = await renew({ old: proofOf(a.subscription), subscription: next.subscription });
    expect(renewed.status).toBe(200);
    const { devices } = (await renewed.json()) as { devices: { id: string }[] };
    expect(devices.map((d) => d.id).sort()).toEqual([aRow!.id, bId].sort());
    const [aAfter, bAfter] = [await storedRow(aRow!.id), await storedRow(bId)];
    expect(aAfter).toMatchObject({ user_id: a.user.userId, name: 'A here' });
    expect(bAfter).toMatchObject({ user_id: b.user.userId, name: 'B here', endpoint_sha256: aAfter!.endpoint_sha256 });

    server.clock.advance(API_KEY_NOTICES_TTL_MS);
    await formFor(a.user, 'For A');
    await formFor(b.user, 'For B');
    expect(await worker.runOnce()).toBe(2);
    expect(
      push
        .received(next.id)
        .map((p) => (p.payload as { title: string }).title)
        .sort(),
    ).toEqual(['For A', 'For B']);
    expect(push.requests(a.id)).toEqual([]);
  });

  it('removing a device removes only the caller’s, though another person saved the same subscription', async () => {
    const a = await personWithDevice('A keeps this');
    const b = await signedIn();
    const bId = await saveThisDevice(server.url, b.cookie, a.subscription, 'B removes this');
    const [aRow] = await deviceRows(a.user.userId);
    const page = await (await fetch(`${server.url}/account/notifications`, { headers: { cookie: b.cookie } })).text();
    const remove = parseHtmlForms(page).find((f) => f.fields.device_id === bId)!;
    const post = (fields: Record<string, string>) =>
      fetch(`${server.url}${remove.action}`, {
        method: 'POST',
        headers: { cookie: b.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
        redirect: 'manual',
      });
    expect((await post({ ...remove.fields, device_id: aRow!.id })).status).toBe(404);
    expect((await post(remove.fields)).status).toBe(303);
    expect(await deviceRows(b.user.userId)).toEqual([]);
    expect(await deviceRows(a.user.userId)).toEqual([aRow]);

    const link = await formFor(a.user, 'A still here?');
    expect(await worker.runOnce()).toBe(1);
    expect(push.received(a.id).map((p) => p.payload)).toMatchObject([{ title: 'A still here?', url: link }]);
  });
});
