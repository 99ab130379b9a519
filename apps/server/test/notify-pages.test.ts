import { createECDH, randomBytes } from 'node:crypto';
import { queryRows } from '@sess/db';
import { readSettings } from '@sess/notify';
import { createTestUser, parseHtmlForms, signInTestUser, type TestUser } from '@sess/testkit';
import { type AppServer, startAppServer } from '@sess/testkit/app-server';
import { PWA_PATHS } from '@sess/web';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * /account/notifications over HTTP on the real app: the page (signed in only, its CSP, the VAPID
 * key), "Notify this device"'s JSON route (add, rename on re-add, CSRF, 401, 415, 413, bad
 * subscriptions answered 400 with the field), Remove (only one's own), and the settings form
 * (saved and read back; bad input 400 with the page and nothing changed). Then the installable
 * web app's files (manifest, icons, service worker) on the public host, and not on SESS_LINK_URL's.
 */

const PAGE = '/account/notifications';
let server: AppServer;
let person: TestUser;
let cookie: string;

beforeAll(async () => {
  server = await startAppServer();
  person = await createTestUser(server.database.db);
  cookie = (await signInTestUser(server.database.db, person.userId, server.clock.now())).cookie;
});
afterAll(async () => server?.close());

const get = (path: string, withCookie = cookie) =>
  fetch(new URL(path, server.url), { headers: withCookie ? { cookie: withCookie } : {}, redirect: 'manual' });

/** A subscription as a browser's PushSubscription.toJSON() gives it (endpoint on a loopback push service). */
function subscription(endpoint = `http://127.0.0.1:9/push/${randomBytes(12).toString('base64url')}`) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint,
    expirationTime: null,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

async function pageOf(withCookie = cookie, path = PAGE) {
  const response = await get(path, withCookie);
  expect(response.status).toBe(200);
  const html = await response.text();
  const csrf = /data-csrf="([^"]+)"/.exec(html)?.[1];
  if (!csrf) throw new Error('no device CSRF token on the page');
  return { response, html, csrf };
}

function addDevice(body: unknown, options: { csrf?: string; cookie?: string; type?: string; raw?: string } = {}) {
  const headers: Record<string, string> = { 'content-type': options.type ?? 'application/json' };
  if (options.csrf !== undefined) headers['x-csrf-token'] = options.csrf;
  const sendCookie = options.cookie ?? cookie;
  if (sendCookie) headers.cookie = sendCookie;
  return fetch(new URL(`${PAGE}/devices`, server.url), {
    method: 'POST',
    headers,
    body: options.raw ?? JSON.stringify(body),
    redirect: 'manual',
  });
}

function postForm(path: string, fields: Record<string, string>, withCookie = cookie) {
  return fetch(new URL(path, server.url), {
    method: 'POST',
    headers: { cookie: withCookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
}

async function deviceRows(userId: string) {
  return queryRows<{ id: string; name: string }>(
    server.database.db,
    sql`select id, name from push_subscriptions where user_id = ${userId} order by created_at`,
  );
}

describe('the page', () => {
  it('sends a person who is not signed in to sign in; the JSON route answers 401 JSON', async () => {
    const page = await get(PAGE, '');
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe(`/signin?return_to=${encodeURIComponent(PAGE)}`);
    const json = await addDevice({ subscription: subscription(), name: 'Phone' }, { cookie: '', csrf: 'x' });
    expect(json.status).toBe(401);
    expect(await json.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.any(String), field: '' } });
  });

  it('shows the button, the VAPID key, the settings, under a nonce CSP that allows the worker and the manifest', async () => {
    const { response, html } = await pageOf();
    const csp = response.headers.get('content-security-policy') ?? '';
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(response.headers.get('cache-control')).toBe('no-store');
    // One script, under this response's nonce.
    expect([...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])).toEqual([`<script nonce="${nonce}">`]);
    const key = /data-vapid-key="([^"]+)"/.exec(html)?.[1] ?? '';
    expect(Buffer.from(key, 'base64url')).toHaveLength(65);
    expect(html).toContain('Notify this device');
    expect(html).toContain('Add to Home Screen');
    expect(html).toContain('iOS 16.4');
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest"');
    expect(html).toContain('SMTP');
    const settings = parseHtmlForms(html).find((f) => f.action === `${PAGE}/settings`);
    expect(settings?.radios.ask_updates).toEqual({ values: ['each_answer', 'closed', 'off'], checked: 'closed' });
    expect(settings?.fields.time_zone).toBe('UTC');
    expect(html).toContain('data-zone-unsaved="true"');
  });

  it('is linked from /account', async () => {
    const account = await get('/account');
    expect(account.status).toBe(200);
    expect(await account.text()).toMatch(/<a class="button secondary" href="\/account\/notifications">\s*Notifications\s*<\/a>/);
  });
});

describe('devices', () => {
  it('adds a device, lists it, renames it when the same browser subscribes again, removes it', async () => {
    const { csrf } = await pageOf();
    const sub = subscription();
    const added = await addDevice({ subscription: sub, name: 'Chrome on Android' }, { csrf });
    expect(added.status).toBe(201);
    const { device } = (await added.json()) as { device: { id: string; name: string } };
    expect(device).toEqual({ id: expect.stringMatching(/^dev_/), name: 'Chrome on Android' });
    let { html } = await pageOf();
    expect(html).toContain('Chrome on Android');
    expect(html).toMatch(/<li>Added [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d\d [AP]M \(UTC\)<\/li><li>No delivery yet<\/li>/);

    // The same endpoint again (new keys, new name): one device, renamed.
    const again = await addDevice({ subscription: { ...subscription(sub.endpoint) }, name: 'My phone' }, { csrf });
    expect(again.status).toBe(201);
    expect(((await again.json()) as { device: { id: string } }).device.id).toBe(device.id);
    expect(await deviceRows(person.userId)).toEqual([{ id: device.id, name: 'My phone' }]);
    ({ html } = await pageOf());
    expect(html).toContain('My phone');
    expect(html).not.toContain('Chrome on Android');
    // The endpoint and keys are never on the page (nor stored in the clear).
    expect(html).not.toContain(sub.endpoint);
    const [stored] = await queryRows<{ sealed: string }>(
      server.database.db,
      sql`select sealed from push_subscriptions where id = ${device.id}`,
    );
    expect(stored?.sealed).not.toContain(sub.endpoint);

    const remove = parseHtmlForms(html).find((f) => f.action === `${PAGE}/devices/remove`);
    expect(remove?.fields.device_id).toBe(device.id);
    const removed = await postForm(remove!.action, remove!.fields);
    expect(removed.status).toBe(303);
    expect(removed.headers.get('location')).toBe(`${PAGE}?removed=1`);
    expect(await deviceRows(person.userId)).toEqual([]);
    ({ html } = await pageOf(cookie, removed.headers.get('location')!));
    expect(html).toContain('Device removed.');
    expect(html).toContain('No devices yet.');
  });

  it('refuses a bad or missing CSRF token (403) and stores nothing', async () => {
    const other = await createTestUser(server.database.db);
    const otherCookie = (await signInTestUser(server.database.db, other.userId, server.clock.now())).cookie;
    // Another session's token is not this one's.
    const { csrf } = await pageOf();
    for (const token of [undefined, '', 'not-a-token', csrf]) {
      const response = await addDevice({ subscription: subscription(), name: 'Phone' }, { csrf: token, cookie: otherCookie });
      expect(response.status).toBe(403);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN');
    }
    expect(await deviceRows(other.userId)).toEqual([]);
  });

  it('takes application/json only, and bodies up to its limit', async () => {
    const { csrf } = await pageOf();
    const body = JSON.stringify({ subscription: subscription(), name: 'Phone' });
    const plain = await addDevice(undefined, { csrf, type: 'text/plain', raw: body });
    expect(plain.status).toBe(415);
    expect(((await plain.json()) as { error: { code: string } }).error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const form = await addDevice(undefined, { csrf, type: 'application/x-www-form-urlencoded', raw: 'a=b' });
    expect(form.status).toBe(415);
    const huge = await addDevice(undefined, {
      csrf,
      raw: JSON.stringify({ subscription: subscription(), name: 'x'.repeat(20_000) }),
    });
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as { error: { code: string } }).error.code).toBe('PAYLOAD_TOO_LARGE');
    const broken = await addDevice(undefined, { csrf, raw: '{"subscription":' });
    expect(broken.status).toBe(400);
    expect(await deviceRows(person.userId)).toEqual([]);
  });

  it('answers a bad subscription or name with 400 naming the field, and stores nothing', async () => {
    const { csrf } = await pageOf();
    const good = subscription();
    const cases: Array<[unknown, string]> = [
      [{ name: 'Phone' }, '/subscription'],
      [
        { subscription: { ...good, endpoint: 'https://push.example/' + 'x'.repeat(3000) }, name: 'Phone' },
        '/subscription/endpoint',
      ],
      [{ subscription: { ...good, endpoint: 'http://push.example.com/x' }, name: 'Phone' }, '/subscription/endpoint'],
      [
        { subscription: { ...good, keys: { ...good.keys, p256dh: randomBytes(33).toString('base64url') } }, name: 'Phone' },
        '/subscription/keys/p256dh',
      ],
      [
        { subscription: { ...good, keys: { ...good.keys, auth: randomBytes(8).toString('base64url') } }, name: 'Phone' },
        '/subscription/keys/auth',
      ],
      [{ subscription: { endpoint: good.endpoint }, name: 'Phone' }, '/subscription/keys'],
      [{ subscription: good, name: '' }, '/name'],
      [{ subscription: good, name: 'n'.repeat(81) }, '/name'],
      [[good], ''],
    ];
    for (const [body, field] of cases) {
      const response = await addDevice(body, { csrf });
      expect(response.status, field).toBe(400);
      const { error } = (await response.json()) as { error: { code: string; message: string; field: string } };
      expect(error).toEqual({ code: 'INVALID_ARGUMENTS', message: expect.any(String), field });
      expect(error.message.length).toBeGreaterThan(10);
    }
    expect(await deviceRows(person.userId)).toEqual([]);
  });

  it('removes only one’s own device', async () => {
    const other = await createTestUser(server.database.db);
    const otherCookie = (await signInTestUser(server.database.db, other.userId, server.clock.now())).cookie;
    const theirs = await pageOf(otherCookie);
    const added = await addDevice(
      { subscription: subscription(), name: 'Their phone' },
      { csrf: theirs.csrf, cookie: otherCookie },
    );
    expect(added.status).toBe(201);
    const { device } = (await added.json()) as { device: { id: string } };
    // My page's remove form (for a device of mine), posted with their device's id.
    const { csrf } = await pageOf();
    await addDevice({ subscription: subscription(), name: 'Mine' }, { csrf });
    const remove = parseHtmlForms((await pageOf()).html).find((f) => f.action === `${PAGE}/devices/remove`)!;
    const refused = await postForm(remove.action, { ...remove.fields, device_id: device.id });
    expect(refused.status).toBe(404);
    expect(await deviceRows(other.userId)).toHaveLength(1);
    const badToken = await postForm(remove.action, { ...remove.fields, _csrf: 'nope' });
    expect(badToken.status).toBe(403);
    expect(await deviceRows(person.userId)).toHaveLength(1);
    expect((await postForm(remove.action, remove.fields)).status).toBe(303);
    expect(await deviceRows(person.userId)).toEqual([]);
  });
});

describe('settings', () => {
  const settingsForm = async () => parseHtmlForms((await pageOf()).html).find((f) => f.action === `${PAGE}/settings`)!;

  it('saves what the form says and shows it again', async () => {
    const form = await settingsForm();
    const saved = await postForm(form.action, {
      _csrf: form.fields._csrf!,
      push: 'on',
      quiet: 'on',
      quiet_from: '21:30',
      quiet_to: '06:45',
      time_zone: 'Europe/Ljubljana',
      reminders: 'on',
      ask_updates: 'each_answer',
      api_key_forms: 'on',
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe(`${PAGE}?saved=1`);
    expect(await readSettings(server.database.db, person.userId)).toEqual({
      pushEnabled: true,
      emailEnabled: false,
      quietHours: { start: 21 * 60 + 30, end: 6 * 60 + 45 },
      timeZone: 'Europe/Ljubljana',
      reminders: true,
      askUpdates: 'each_answer',
      apiKeyForms: true,
    });
    const { html } = await pageOf(cookie, saved.headers.get('location')!);
    expect(html).toContain('Settings saved.');
    expect(html).toContain('data-zone-unsaved="false"');
    const shown = parseHtmlForms(html).find((f) => f.action === `${PAGE}/settings`)!;
    expect(shown.fields).toMatchObject({ quiet_from: '21:30', quiet_to: '06:45', time_zone: 'Europe/Ljubljana' });
    expect(shown.radios.ask_updates?.checked).toBe('each_answer');
    expect(html).toMatch(/id="push" name="push" value="on" checked/);
    expect(html).not.toMatch(/id="email" name="email" value="on" checked/);
  });

  it('answers bad settings with 400 and the page saying what is wrong; nothing changes', async () => {
    const before = await readSettings(server.database.db, person.userId);
    const form = await settingsForm();
    const cases: Array<[Record<string, string>, string]> = [
      [{ time_zone: 'Mars/Olympus_Mons' }, 'The time zone must be one such as Europe/Ljubljana or UTC.'],
      [{ quiet: 'on', quiet_from: '25:00', quiet_to: '07:00' }, 'Quiet hours need a start time'],
      [{ quiet: 'on', quiet_from: '22:00', quiet_to: '' }, 'Quiet hours need an end time'],
      [{ quiet: 'on', quiet_from: '22:00', quiet_to: '22:00' }, 'Quiet hours must start and end at different times.'],
      [{ ask_updates: 'sometimes' }, 'Choose when Ask updates should reach you.'],
    ];
    for (const [fields, text] of cases) {
      const response = await postForm(form.action, {
        _csrf: form.fields._csrf!,
        email: 'on',
        time_zone: 'UTC',
        ask_updates: 'off',
        ...fields,
      });
      expect(response.status, text).toBe(400);
      const html = await response.text();
      expect(html).toContain(text);
      expect(html).toContain('role="alert"');
      expect(await readSettings(server.database.db, person.userId)).toEqual(before);
    }
    // What was typed stays in the form.
    const typed = await postForm(form.action, { _csrf: form.fields._csrf!, time_zone: 'Mars/Olympus_Mons', ask_updates: 'off' });
    expect(await typed.text()).toContain('value="Mars/Olympus_Mons"');
    const forged = await postForm(form.action, { _csrf: 'nope', time_zone: 'UTC', ask_updates: 'off' });
    expect(forged.status).toBe(403);
    expect(await readSettings(server.database.db, person.userId)).toEqual(before);
  });
});

/** The web app's files on `origin`, checked. */
async function expectWebAppFiles(origin: string) {
  const manifest = await fetch(`${origin}/manifest.webmanifest`);
  expect(manifest.status).toBe(200);
  expect(manifest.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
  const body = (await manifest.json()) as Record<string, unknown> & {
    icons: Array<{ src: string; sizes: string; type: string }>;
  };
  expect(body).toMatchObject({
    name: 'Sess',
    short_name: 'Sess',
    start_url: '/account/notifications',
    scope: '/',
    display: 'standalone',
    theme_color: '#1d4ed8',
    background_color: '#f6f7f9',
  });
  for (const icon of body.icons) {
    const response = await fetch(`${origin}${icon.src}`);
    expect(response.status, icon.src).toBe(200);
    expect(response.headers.get('content-type')).toBe(icon.type);
    if (icon.type === 'image/png') {
      const png = Buffer.from(await response.arrayBuffer());
      expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
      expect(`${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`).toBe(icon.sizes);
    } else {
      expect(await response.text()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    }
  }
  expect(body.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  const apple = Buffer.from(await (await fetch(`${origin}/apple-touch-icon.png`)).arrayBuffer());
  expect(`${apple.readUInt32BE(16)}x${apple.readUInt32BE(20)}`).toBe('180x180');

  const worker = await fetch(`${origin}/sw.js`);
  expect(worker.status).toBe(200);
  expect(worker.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(worker.headers.get('service-worker-allowed')).toBe('/');
  expect(worker.headers.get('cache-control')).toBe('no-cache');
  const script = await worker.text();
  expect(script).toContain("addEventListener('push'");
  expect(script).toContain("addEventListener('notificationclick'");
  expect(script).toContain("addEventListener('pushsubscriptionchange'");
  // Its own policy lets it post a renewed subscription to this origin, and load nothing else.
  expect(worker.headers.get('content-security-policy')).toBe("default-src 'none'; img-src 'self'; connect-src 'self'");
  // It keeps nothing: no fetch handler, no Cache API, no storage.
  expect(script).not.toMatch(/addEventListener\('fetch'|caches\.|indexedDB|localStorage/);
  return script;
}

describe('the installable web app', () => {
  it('serves the manifest, icons and service worker on PUBLIC_URL', async () => {
    await expectWebAppFiles(server.url);
  });

  it('on PUBLIC_URL only: SESS_LINK_URL’s host refuses them, as it refuses the page they open', async () => {
    const twoHosts = await startAppServer({
      env: ({ port }) => ({ PUBLIC_URL: `http://localhost:${port}`, SESS_LINK_URL: `http://127.0.0.1:${port}` }),
    });
    try {
      const port = new URL(twoHosts.url).port;
      // The worker on PUBLIC_URL may open answer links on the link origin.
      const origins = `const LINK_ORIGINS = ${JSON.stringify([`http://localhost:${port}`, `http://127.0.0.1:${port}`])};`;
      expect(await expectWebAppFiles(`http://localhost:${port}`)).toContain(origins);
      for (const path of Object.values(PWA_PATHS)) {
        const file = await fetch(`http://127.0.0.1:${port}${path}`);
        expect(file.status, path).toBe(404);
        expect(((await file.json()) as { error: { code: string } }).error.code, path).toBe('NOT_FOUND');
      }
      const page = await fetch(`http://127.0.0.1:${port}${PAGE}`, { headers: { accept: 'text/html' }, redirect: 'manual' });
      expect(page.status).toBe(404);
      for (const route of ['/devices', '/devices/renew']) {
        const post = await fetch(`http://127.0.0.1:${port}${PAGE}${route}`, { method: 'POST', body: '{}' });
        expect(post.status, route).toBe(404);
      }
    } finally {
      await twoHosts.close();
    }
  });
});
