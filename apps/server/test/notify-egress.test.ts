import { createECDH, randomBytes } from 'node:crypto';
import { queryRows } from '@sess/db';
import { createTestUser, signInTestUser } from '@sess/testkit';
import { type AppServer, startAppServer } from '@sess/testkit/app-server';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * The device routes under production's egress policy (no test flag): an endpoint that can
 * never be a public push service, by its scheme, an address written in it or a localhost name,
 * is refused when it is saved or renewed to, with its field and nothing stored. A name is not
 * looked up here (that happens at each connection: docs/egress.md).
 */

const PAGE = '/account/notifications';
let server: AppServer;
let cookie: string;
let userId: string;
let csrf: string;

beforeAll(async () => {
  server = await startAppServer({ env: { SESS_TEST_LOOPBACK_EGRESS: '0' } });
  const person = await createTestUser(server.database.db);
  userId = person.userId;
  cookie = (await signInTestUser(server.database.db, userId, server.clock.now())).cookie;
  const html = await (await fetch(new URL(PAGE, server.url), { headers: { cookie } })).text();
  csrf = /data-csrf="([^"]+)"/.exec(html)?.[1] ?? '';
});
afterAll(async () => server?.close());

function subscription(endpoint: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { endpoint, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') } };
}

const post = (path: string, body: unknown, withSession = true) =>
  fetch(new URL(path, server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(withSession ? { cookie, 'x-csrf-token': csrf } : {}) },
    body: JSON.stringify(body),
  });

const devices = () =>
  queryRows<{ id: string }>(server.database.db, sql`select id from push_subscriptions where user_id = ${userId}`);

const NEVER_PUBLIC = [
  'http://push.example.com/send/x',
  'https://127.0.0.1/send/x',
  'https://localhost:8443/send/x',
  'https://push.localhost/send/x',
  'https://10.0.0.7/send/x',
  'https://169.254.169.254/send/x',
  'https://[::1]/send/x',
  'https://[::7f00:1]/send/x',
  'https://[::ffff:a9fe:a9fe]/send/x',
  'https://[64:ff9b::a9fe:a9fe]/send/x',
  'https://[64:ff9b:1::a9fe:a9fe]/send/x',
  'https://[2002:a9fe:a9fe::1]/send/x',
  'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/send/x',
  'https://[fd00::1]/send/x',
];

describe('device endpoints under the egress policy', () => {
  it.each(NEVER_PUBLIC)('"Notify this device" refuses %s: 400 at /subscription/endpoint, nothing saved', async (endpoint) => {
    const response = await post(`${PAGE}/devices`, { subscription: subscription(endpoint), name: 'Phone' });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { code: string; field: string; message: string } };
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/subscription/endpoint' });
    expect(error.message).toMatch(/public address/);
    expect(await devices()).toEqual([]);
  });

  it('saves a push service named by a public name (not looked up when saved), and a renewal cannot move it to a refused one', async () => {
    const first = subscription(`https://fcm.googleapis.com/fcm/send/${randomBytes(12).toString('base64url')}`);
    const saved = await post(`${PAGE}/devices`, { subscription: first, name: 'Phone' });
    expect(saved.status).toBe(201);
    for (const endpoint of NEVER_PUBLIC) {
      const renewed = await post(
        `${PAGE}/devices/renew`,
        { old: { endpoint: first.endpoint, auth: first.keys.auth }, subscription: subscription(endpoint) },
        false,
      );
      expect(renewed.status, endpoint).toBe(400);
      expect(((await renewed.json()) as { error: { field: string } }).error.field, endpoint).toBe('/subscription/endpoint');
    }
    expect(await devices()).toHaveLength(1);
  });
});
