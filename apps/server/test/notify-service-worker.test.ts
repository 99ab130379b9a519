import { createECDH, createHash, randomBytes } from 'node:crypto';
import { queryRows } from '@sess/db';
import { createTestUser, signInTestUser, type TestUser } from '@sess/testkit';
import { type AppServer, startAppServer } from '@sess/testkit/app-server';
import { axeViolations, fitsWidth, launchTestBrowser, openWatchedContext, SCREEN_SIZES, screenshot } from '@sess/testkit/browser';
import { NOTIFY_WAIT_MS, PUSH_SERVICE_SILENT } from '@sess/web';
import { sql } from 'drizzle-orm';
import type { Browser, BrowserContext, BrowserContextOptions, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * The service worker and the notifications page in the system Chromium (playwright-core):
 * - a push delivered the way Chromium allows in tests (CDP ServiceWorker.deliverPushMessage to
 *   the registration) shows a notification with the payload's title, body, tag and url; a second
 *   push with the same tag replaces the first; a url off this origin or not http(s) is dropped;
 * - a tap: Chromium lets a service worker open a window only inside a real notificationclick,
 *   which nothing in headless Chromium can produce (a synthetic event is untrusted, and
 *   clients.openWindow then answers "Not allowed to open a window", shown below). So the click
 *   handler is run by a synthetic notificationclick with clients.openWindow/matchAll replaced by
 *   recorders: it closes the notification and opens exactly the notification's link, focuses a
 *   window already there instead, and opens nothing for a dropped url;
 * - "Notify this device" on the page: Chromium in a Playwright context cannot subscribe to push
 *   (no Push API in incognito contexts, and its push service is Google's), so
 *   PushManager.subscribe is replaced by one returning a subscription made here; everything
 *   else (the permission prompt answered by the granted permission, registering /sw.js, the
 *   POST with the CSRF header, the reload that lists the device) is the page's own;
 * - the page at phone size: the button and the settings, nothing sideways, no CSP violation;
 *   on an iPhone's Safari outside a Home Screen app, the Add to Home Screen steps instead.
 */

let server: AppServer;
let browser: Browser;
let person: TestUser;
let cookie: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer(), launchTestBrowser()]);
  person = await createTestUser(server.database.db);
  cookie = (await signInTestUser(server.database.db, person.userId, server.clock.now())).cookie;
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const PAGE = '/account/notifications';
/** Push delivery and the worker's start are asynchronous; a loaded machine may take seconds. */
const POLL = { timeout: 10_000 };
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

async function signedInContext(options: BrowserContextOptions, grant = true, at = { origin: '', cookie: '' }) {
  const origin = at.origin || server.url;
  const watched = await openWatchedContext(browser, options);
  const [name, value] = (at.cookie || cookie).split('=') as [string, string];
  await watched.context.addCookies([{ name, value, url: origin }]);
  if (grant) await watched.context.grantPermissions(['notifications'], { origin });
  return watched;
}

/** What the tests touch of the worker's global scope (the project's TypeScript has the DOM lib, not WebWorker's). */
type WorkerScope = {
  registration: ServiceWorkerRegistration;
  clients: { openWindow(url: string): Promise<unknown>; matchAll(): Promise<unknown[]> };
  NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
  dispatchEvent(event: Event): boolean;
};

type Shown = { title: string; body: string; tag: string; url: string | null; icon: string };

function notifications(page: Page): Promise<Shown[]> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      url: (n.data as { url: string | null }).url,
      icon: n.icon,
    }));
  });
}

/** Registers /sw.js from the page and returns its registration id, as DevTools knows it. */
async function registerWorker(
  context: BrowserContext,
  page: Page,
  origin = server.url,
): Promise<{ cdp: CDPSession; registrationId: string }> {
  const scope = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    await navigator.serviceWorker.ready;
    return registration.scope;
  });
  expect(scope).toBe(`${origin}/`);
  const cdp = await context.newCDPSession(page);
  const registrations: Array<{ registrationId: string; scopeURL: string; isDeleted: boolean }> = [];
  cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => registrations.push(...event.registrations));
  await cdp.send('ServiceWorker.enable');
  await expect.poll(() => registrations.find((r) => r.scopeURL === scope && !r.isDeleted), POLL).toBeDefined();
  return { cdp, registrationId: registrations.find((r) => r.scopeURL === scope)!.registrationId };
}

function push(cdp: CDPSession, registrationId: string, payload: Record<string, unknown>, origin = server.url) {
  return cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId, data: JSON.stringify(payload) });
}

/**
 * Delivers a push and waits until the notification with its tag shows `payload.title`. Under a
 * loaded machine a push sent through CDP right after another one was seen to be lost before it
 * reached the worker (the worker never got a push event); the same push is sent again then, which
 * the tag makes harmless. What is under test is what the worker does with a push it gets.
 */
async function pushUntilShown(
  cdp: CDPSession,
  registrationId: string,
  page: Page,
  payload: Record<string, unknown>,
  origin = server.url,
) {
  for (let attempt = 1; ; attempt++) {
    await push(cdp, registrationId, payload, origin);
    try {
      await expect
        .poll(async () => (await notifications(page)).some((n) => n.tag === payload.tag && n.title === payload.title), {
          timeout: 3_000,
        })
        .toBe(true);
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

describe('the service worker', () => {
  it('shows a push as a notification (title, body, tag, url), replaces it by tag, drops foreign urls; a tap opens the link', async () => {
    const { context, problems } = await signedInContext(SCREEN_SIZES.desktop);
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}${PAGE}`);
      const { cdp, registrationId } = await registerWorker(context, page);
      const link = `${server.url}/s/${randomBytes(12).toString('base64url')}`;
      const payload = {
        v: 1,
        id: 'ntf_one',
        tag: 'topic-one',
        kind: 'form',
        title: 'Approve the release?',
        body: 'Your agent asks',
        url: link,
      };
      await pushUntilShown(cdp, registrationId, page, payload);
      await expect
        .poll(() => notifications(page), POLL)
        .toEqual([
          {
            title: 'Approve the release?',
            body: 'Your agent asks',
            tag: 'topic-one',
            url: link,
            icon: `${server.url}/icons/sess-192.png`,
          },
        ]);

      // A follow-up with the same tag (the same Topic) replaces it; another tag stands beside it.
      await pushUntilShown(cdp, registrationId, page, { ...payload, id: 'ntf_two', title: 'Approve the release (step 2)?' });
      await pushUntilShown(cdp, registrationId, page, {
        ...payload,
        id: 'ntf_three',
        tag: 'topic-two',
        title: 'Pick a date',
        url: '/s/relative',
      });
      await expect
        .poll(async () => (await notifications(page)).map((n) => [n.tag, n.title, n.url]), POLL)
        .toEqual([
          ['topic-one', 'Approve the release (step 2)?', link],
          ['topic-two', 'Pick a date', `${server.url}/s/relative`],
        ]);

      // A url off this origin, with credentials, or not http(s) is never kept to be opened.
      for (const [index, url] of [
        'https://sess.invalid/s/x',
        'javascript:alert(1)',
        `http://user:pw@${new URL(server.url).host}/s/x`,
        42,
      ].entries()) {
        await pushUntilShown(cdp, registrationId, page, { ...payload, tag: `forged-${index}`, title: `Forged ${index}`, url });
      }
      await expect
        .poll(async () => (await notifications(page)).filter((n) => n.tag.startsWith('forged-')).map((n) => n.url), POLL)
        .toEqual([null, null, null, null]);

      const worker = context.serviceWorkers().find((w) => w.url() === `${server.url}/sw.js`);
      expect(worker).toBeDefined();
      // Outside a real notificationclick, Chromium refuses to open a window: a synthetic click cannot open one.
      expect(
        await worker!.evaluate(() =>
          (self as unknown as WorkerScope).clients.openWindow('/').then(
            () => 'opened',
            (e: unknown) => String(e),
          ),
        ),
      ).toBe('InvalidAccessError: Not allowed to open a window.');
      // The click handler, with openWindow and matchAll recorded: it closes the notification and opens its link.
      const clicked = await worker!.evaluate(
        async ({ tag, windowAt }) => {
          const scope = self as unknown as WorkerScope;
          const opened: string[] = [];
          const focused: string[] = [];
          const clients = scope.clients as unknown as Record<string, unknown>;
          clients.openWindow = async (url: string) => {
            opened.push(url);
            return null;
          };
          clients.matchAll = async () =>
            windowAt
              ? [
                  {
                    url: windowAt,
                    focus: async () => {
                      focused.push(windowAt);
                    },
                  },
                ]
              : [];
          const [notification] = await scope.registration.getNotifications({ tag });
          try {
            scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification: notification! }));
          } catch {
            // waitUntil throws on an untrusted event, after the handler has started its work.
          }
          await new Promise((resolve) => setTimeout(resolve, 200));
          const left = (await scope.registration.getNotifications({ tag })).length;
          return { opened, focused, left };
        },
        { tag: 'topic-one', windowAt: null as string | null },
      );
      expect(clicked).toEqual({ opened: [link], focused: [], left: 0 });

      const focusedThere = await worker!.evaluate(
        async ({ tag, windowAt }) => {
          const scope = self as unknown as WorkerScope;
          const opened: string[] = [];
          const focused: string[] = [];
          const clients = scope.clients as unknown as Record<string, unknown>;
          clients.openWindow = async (url: string) => {
            opened.push(url);
            return null;
          };
          clients.matchAll = async () => [
            {
              url: windowAt,
              focus: async () => {
                focused.push(windowAt);
              },
            },
          ];
          const [notification] = await scope.registration.getNotifications({ tag });
          try {
            scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification: notification! }));
          } catch {}
          await new Promise((resolve) => setTimeout(resolve, 200));
          return { opened, focused };
        },
        { tag: 'topic-two', windowAt: `${server.url}/s/relative` },
      );
      expect(focusedThere).toEqual({ opened: [], focused: [`${server.url}/s/relative`] });

      const forged = await worker!.evaluate(async () => {
        const scope = self as unknown as WorkerScope;
        const opened: string[] = [];
        const clients = scope.clients as unknown as Record<string, unknown>;
        clients.openWindow = async (url: string) => {
          opened.push(url);
          return null;
        };
        clients.matchAll = async () => [];
        for (const notification of await scope.registration.getNotifications()) {
          try {
            scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification }));
          } catch {}
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
        return { opened, left: (await scope.registration.getNotifications()).length };
      });
      expect(forged).toEqual({ opened: [], left: 0 });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('the service worker with answer links on SESS_LINK_URL', () => {
  it('keeps and opens answer links (/s/…) on the link origin, nothing else there', async () => {
    const twoHosts = await startAppServer({
      env: ({ port }) => ({ PUBLIC_URL: `http://localhost:${port}`, SESS_LINK_URL: `http://127.0.0.1:${port}` }),
    });
    const port = new URL(twoHosts.url).port;
    const publicOrigin = `http://localhost:${port}`;
    const linkOrigin = `http://127.0.0.1:${port}`;
    const user = await createTestUser(twoHosts.database.db);
    const signedIn = (await signInTestUser(twoHosts.database.db, user.userId, twoHosts.clock.now())).cookie;
    const { context, problems } = await signedInContext(SCREEN_SIZES.desktop, true, { origin: publicOrigin, cookie: signedIn });
    try {
      const page = await context.newPage();
      await page.goto(`${publicOrigin}${PAGE}`);
      const { cdp, registrationId } = await registerWorker(context, page, publicOrigin);
      const link = `${linkOrigin}/s/${randomBytes(12).toString('base64url')}`;
      const base = { v: 1, kind: 'form', body: 'Your agent asks' };
      // Each push until shown: a CDP push sent right after another can be lost (see pushUntilShown).
      await pushUntilShown(
        cdp,
        registrationId,
        page,
        { ...base, id: 'ntf_a', tag: 'answer', title: 'An answer link', url: link },
        publicOrigin,
      );
      await pushUntilShown(
        cdp,
        registrationId,
        page,
        { ...base, id: 'ntf_b', tag: 'other', title: 'Not a link', url: `${linkOrigin}/account` },
        publicOrigin,
      );
      await expect
        .poll(async () => (await notifications(page)).map((n) => [n.tag, n.url]), POLL)
        .toEqual([
          ['answer', link],
          ['other', null],
        ]);
      const worker = context.serviceWorkers().find((w) => w.url() === `${publicOrigin}/sw.js`)!;
      const opened = await worker.evaluate(async () => {
        const scope = self as unknown as WorkerScope;
        const urls: string[] = [];
        const clients = scope.clients as unknown as Record<string, unknown>;
        clients.openWindow = async (url: string) => {
          urls.push(url);
          return null;
        };
        clients.matchAll = async () => [];
        for (const notification of await scope.registration.getNotifications()) {
          try {
            scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification }));
          } catch {}
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
        return urls;
      });
      expect(opened).toEqual([link]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      await twoHosts.close();
    }
  });
});

describe('the notifications page in Chromium', () => {
  it('at phone size: Notify this device adds this browser (subscribe stubbed), the device is listed, the settings are there', async () => {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const subscription = {
      endpoint: `http://127.0.0.1:9/push/${randomBytes(12).toString('base64url')}`,
      expirationTime: null,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
    };
    const { context, problems } = await signedInContext(SCREEN_SIZES.phone);
    try {
      await context.addInitScript((json) => {
        const made = JSON.parse(json) as object;
        PushManager.prototype.getSubscription = async () => null;
        PushManager.prototype.subscribe = async function subscribe(options?: PushSubscriptionOptionsInit) {
          sessionStorage.setItem('subscribedWith', String(new Uint8Array(options!.applicationServerKey as ArrayBuffer).length));
          return { toJSON: () => made } as PushSubscription;
        };
      }, JSON.stringify(subscription));
      const page = await context.newPage();
      await page.goto(`${server.url}${PAGE}`);
      const button = page.getByRole('button', { name: 'Notify this device' });
      expect(await button.isVisible()).toBe(true);
      expect((await button.boundingBox())?.height).toBeGreaterThanOrEqual(44);
      expect(await page.getByLabel('Device name').inputValue()).toMatch(/^Chrome on /);
      expect(await page.getByLabel('Time zone').inputValue()).toBe(
        await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone),
      );
      expect(await page.getByRole('heading', { name: 'Settings' }).isVisible()).toBe(true);
      expect(await page.getByLabel('Push notifications to my devices').isChecked()).toBe(true);
      expect(await page.getByRole('button', { name: 'Save settings' }).isVisible()).toBe(true);
      expect(await page.locator('#notify-ios').isVisible()).toBe(false);
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, 'notifications-phone');

      await page.getByLabel('Device name').fill('Test phone');
      await button.click();
      await page.waitForURL(`${server.url}${PAGE}?added=1`);
      expect(await page.getByRole('status').first().textContent()).toContain('This device is added');
      expect(await page.locator('.device .name').allTextContents()).toEqual(['Test phone']);
      expect(await page.evaluate(() => sessionStorage.getItem('subscribedWith'))).toBe('65');
      expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration('/'))?.active?.scriptURL)).toBe(
        `${server.url}/sw.js`,
      );
      const rows = await queryRows<{ name: string }>(
        server.database.db,
        sql`select name from push_subscriptions where user_id = ${person.userId}`,
      );
      expect(rows).toEqual([{ name: 'Test phone' }]);
      await screenshot(page, 'notifications-phone-added');

      await page.getByRole('button', { name: 'Remove Test phone' }).click();
      await page.waitForURL(`${server.url}${PAGE}?removed=1`);
      expect(await page.textContent('body')).toContain('No devices yet.');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a push service that never answers: the wait is bounded, the page says what to do, and the button works again', async () => {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const subscription = {
      endpoint: `http://127.0.0.1:9/push/${randomBytes(12).toString('base64url')}`,
      expirationTime: null,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
    };
    const { context, problems } = await signedInContext(SCREEN_SIZES.phone);
    try {
      // The first subscribe hangs, as when the browser cannot reach its push service; the second answers.
      await context.addInitScript((json) => {
        const made = JSON.parse(json) as object;
        let calls = 0;
        PushManager.prototype.getSubscription = async () => null;
        PushManager.prototype.subscribe = function subscribe() {
          calls += 1;
          return calls === 1
            ? new Promise<PushSubscription>(() => {})
            : Promise.resolve({ toJSON: () => made } as PushSubscription);
        };
      }, JSON.stringify(subscription));
      const page = await context.newPage();
      // The page's timers run on Playwright's clock: the test moves time on, it never waits it out.
      await page.clock.install();
      await page.goto(`${server.url}${PAGE}`);
      await page.clock.pauseAt(new Date(Date.now() + 1_000));
      const button = page.getByRole('button', { name: 'Notify this device' });
      await page.getByLabel('Device name').fill('Offline phone');
      await button.click();
      await expect.poll(() => page.locator('#notify-status').textContent(), POLL).toBe('Adding this device…');
      expect(await button.isDisabled()).toBe(true);
      await page.clock.runFor(NOTIFY_WAIT_MS - 1_000);
      expect(await page.locator('#notify-status').textContent()).toBe('Adding this device…');
      await page.clock.runFor(1_000);
      await expect.poll(() => page.locator('#notify-status').textContent(), POLL).toBe(PUSH_SERVICE_SILENT);
      await expect.poll(() => button.isEnabled(), POLL).toBe(true);
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, 'notifications-phone-push-silent');
      // The person can try again, and this time the push service answers.
      await button.click();
      await page.waitForURL(`${server.url}${PAGE}?added=1`);
      expect(await page.locator('.device .name').allTextContents()).toContain('Offline phone');
      await page.getByRole('button', { name: 'Remove Offline phone' }).click();
      await page.waitForURL(`${server.url}${PAGE}?removed=1`);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('when the push service replaces the subscription, the worker moves the device to the new one (pushsubscriptionchange)', async () => {
    // Chromium never fires pushsubscriptionchange, and a Playwright context cannot subscribe to
    // push: the event is dispatched in the worker with the subscriptions a browser would hand it,
    // and pushManager.subscribe is a recorder. The worker's own request goes to the real server,
    // under the worker's own Content-Security-Policy.
    const owner = await createTestUser(server.database.db);
    const ownerCookie = (await signInTestUser(server.database.db, owner.userId, server.clock.now())).cookie;
    const made = () => {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      return {
        endpoint: `http://127.0.0.1:9/push/${randomBytes(12).toString('base64url')}`,
        expirationTime: null,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
      };
    };
    const [first, resubscribed, handed] = [made(), made(), made()];
    const stored = () =>
      queryRows<{ name: string; endpoint_sha256: string }>(
        server.database.db,
        sql`select name, endpoint_sha256 from push_subscriptions where user_id = ${owner.userId}`,
      );
    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
    const { context, problems } = await signedInContext({}, true, { origin: '', cookie: ownerCookie });
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}${PAGE}`);
      const root = page.locator('#notify-device');
      const [csrf, vapidKey] = [await root.getAttribute('data-csrf'), await root.getAttribute('data-vapid-key')];
      const added = await page.evaluate(
        async ({ csrf, subscription }) =>
          (
            await fetch('/account/notifications/devices', {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-csrf-token': csrf! },
              body: JSON.stringify({ subscription, name: 'Renewed phone' }),
            })
          ).status,
        { csrf, subscription: first },
      );
      expect(added).toBe(201);
      await registerWorker(context, page);
      const worker = context.serviceWorkers().find((w) => w.url() === `${server.url}/sw.js`)!;
      expect(worker).toBeDefined();

      /** Dispatches pushsubscriptionchange with these subscriptions (JSON), recording what the worker subscribes and posts. */
      const change = (old: object | null, given: object | null, resubscribe: object) =>
        worker.evaluate(
          async ({ old, given, resubscribe, key }) => {
            type Scope = {
              registration: { pushManager: { subscribe(options: PushSubscriptionOptionsInit): Promise<unknown> } };
              fetch: typeof fetch;
              ExtendableEvent: new (type: string) => Event;
              dispatchEvent(event: Event): boolean;
            };
            const scope = self as unknown as Scope;
            const keyBytes = Uint8Array.from(atob(key.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
            const subscribed: Array<{ userVisibleOnly: boolean; key: string }> = [];
            scope.registration.pushManager.subscribe = async (options) => {
              const bytes = new Uint8Array(options.applicationServerKey as ArrayBuffer);
              const base64 = btoa(String.fromCharCode(...bytes));
              subscribed.push({
                userVisibleOnly: options.userVisibleOnly === true,
                key: base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
              });
              return { toJSON: () => resubscribe };
            };
            const posted: Array<{ url: string; credentials: string; status: number; body: unknown }> = [];
            const realFetch = scope.fetch;
            let settled = () => {};
            const done = new Promise<void>((resolve) => {
              settled = resolve;
            });
            scope.fetch = async (url, init) => {
              try {
                const response = await realFetch(url, init);
                posted.push({
                  url: response.url,
                  credentials: String(init?.credentials),
                  status: response.status,
                  body: await response.clone().json(),
                });
                return response;
              } catch (error) {
                posted.push({ url: String(url), credentials: String(init?.credentials), status: 0, body: String(error) });
                throw error;
              } finally {
                settled();
              }
            };
            const event = new scope.ExtendableEvent('pushsubscriptionchange');
            Object.defineProperties(event, {
              oldSubscription: { value: old && { toJSON: () => old, options: { applicationServerKey: keyBytes.buffer } } },
              newSubscription: { value: given && { toJSON: () => given } },
            });
            try {
              scope.dispatchEvent(event);
            } catch {
              // waitUntil throws on an untrusted event, after the handler has started its work.
            }
            await Promise.race([done, new Promise((resolve) => setTimeout(resolve, old ? 5_000 : 500))]);
            scope.fetch = realFetch;
            return { subscribed, posted };
          },
          { old, given, resubscribe, key: vapidKey! },
        );
      const renewedAnswer = (status: number) => [
        { url: `${server.url}/account/notifications/devices/renew`, credentials: 'omit', status, body: expect.any(Object) },
      ];

      // The browser handed no new subscription: the worker subscribes again with the old one's server key.
      const resubscribing = await change(first, null, resubscribed);
      expect(resubscribing).toEqual({ subscribed: [{ userVisibleOnly: true, key: vapidKey }], posted: renewedAnswer(200) });
      expect(await stored()).toEqual([{ name: 'Renewed phone', endpoint_sha256: sha256(resubscribed.endpoint) }]);

      // The browser handed one: it is sent as it is.
      const handedOn = await change(resubscribed, handed, made());
      expect(handedOn).toEqual({ subscribed: [], posted: renewedAnswer(200) });
      expect(await stored()).toEqual([{ name: 'Renewed phone', endpoint_sha256: sha256(handed.endpoint) }]);

      // No old subscription: nothing proves the device, so nothing is sent.
      expect(await change(null, made(), made())).toEqual({ subscribed: [], posted: [] });
      // An old subscription Sess does not have: the server's 404 is the end of it.
      expect((await change(first, made(), made())).posted).toEqual(renewedAnswer(404));
      expect(await stored()).toEqual([{ name: 'Renewed phone', endpoint_sha256: sha256(handed.endpoint) }]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('on an iPhone’s Safari outside a Home Screen app: Add to Home Screen first, no button', async () => {
    const { context, problems } = await signedInContext({ ...SCREEN_SIZES.phone, userAgent: IPHONE_SAFARI }, false);
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}${PAGE}`);
      const steps = page.locator('#notify-ios');
      expect(await steps.isVisible()).toBe(true);
      expect(await steps.textContent()).toContain('Share');
      expect(await steps.textContent()).toContain('iOS 16.4');
      expect(await page.getByRole('button', { name: 'Notify this device' }).isVisible()).toBe(false);
      expect(await page.getByLabel('Device name').inputValue()).toBe('Safari on iPhone');
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, 'notifications-iphone');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('where push is unsupported, or notifications are blocked, it says so plainly', async () => {
    for (const [tweak, id] of [
      [
        () => {
          delete (window as { PushManager?: unknown }).PushManager;
        },
        '#notify-unsupported',
      ],
      [
        () => {
          Object.defineProperty(Notification, 'permission', { get: () => 'denied' });
        },
        '#notify-denied',
      ],
    ] as const) {
      const { context, problems } = await signedInContext(SCREEN_SIZES.desktop, false);
      try {
        await context.addInitScript(tweak);
        const page = await context.newPage();
        await page.goto(`${server.url}${PAGE}`);
        expect(await page.locator(id).isVisible()).toBe(true);
        expect(await page.getByRole('button', { name: 'Notify this device' }).isVisible()).toBe(false);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });
});

describe('the notifications page: language and accessibility', () => {
  /** Lists a device for the person through the page's own JSON route (as "Notify this device" posts it). */
  async function listDevice(page: Page, name: string): Promise<void> {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const subscription = {
      endpoint: `http://127.0.0.1:9/push/${randomBytes(12).toString('base64url')}`,
      expirationTime: null,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
    };
    const status = await page.evaluate(
      async ({ subscription, name }) => {
        const root = document.getElementById('notify-device') as HTMLElement;
        const response = await fetch(root.dataset.action ?? '', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': root.dataset.csrf ?? '' },
          body: JSON.stringify({ subscription, name }),
        });
        return response.status;
      },
      { subscription, name },
    );
    expect(status).toBe(201);
  }

  it('speaks German when picked: the page, its script’s device name, its dates and its errors', {
    timeout: 120_000,
  }, async () => {
    const { context, problems } = await signedInContext(SCREEN_SIZES.desktop);
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}${PAGE}?lang=de`);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
      await page.getByRole('heading', { level: 1, name: 'Benachrichtigungen' }).waitFor();
      expect(await page.getByLabel('Gerätename').inputValue()).toMatch(/^Chrome auf /);
      await listDevice(page, 'Testtelefon');
      await page.goto(`${server.url}${PAGE}`);
      // The picker's choice is remembered; the device's dates are German, in the browser's zone.
      await page.getByRole('heading', { name: 'Ihre Geräte' }).waitFor();
      expect(await page.locator('.device-when li').allTextContents()).toEqual([
        expect.stringMatching(/^Hinzugefügt am \d{1,2}\.\d{1,2}\.\d{4}, \d\d:\d\d$/),
        'Noch nichts zugestellt',
      ]);
      await page.getByRole('checkbox', { name: 'Benachrichtigungen während der Ruhezeiten zurückhalten' }).check();
      await page.getByLabel('Von', { exact: true }).fill('');
      await page.getByRole('button', { name: 'Einstellungen speichern' }).click();
      await page.getByText('Für die Ruhezeiten fehlt eine Anfangszeit, zum Beispiel 22:00.').first().waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      await server.database.db.execute(sql`delete from push_subscriptions where user_id = ${person.userId}`);
    }
  });

  it('reflows at 320 px in German with a device listed: nothing sideways', { timeout: 120_000 }, async () => {
    const { context, problems } = await signedInContext({ viewport: { width: 320, height: 640 } });
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}${PAGE}?lang=de`);
      await listDevice(page, 'Ein Telefon mit einem ziemlich langen Namen');
      await page.goto(`${server.url}${PAGE}?added=1`);
      await page.locator('.device').first().waitFor();
      expect(await fitsWidth(page)).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      await server.database.db.execute(sql`delete from push_subscriptions where user_id = ${person.userId}`);
    }
  });

  for (const language of ['en', 'de']) {
    for (const [size, screen] of Object.entries(SCREEN_SIZES)) {
      for (const colorScheme of ['light', 'dark'] as const) {
        it(`has no axe violations with a device listed: ${language}, ${size}, ${colorScheme}`, { timeout: 120_000 }, async () => {
          const { context, problems } = await signedInContext({ ...screen, colorScheme });
          try {
            const page = await context.newPage();
            await page.goto(`${server.url}${PAGE}?lang=${language}`);
            await listDevice(page, `Phone ${size} ${colorScheme}`);
            await page.goto(`${server.url}${PAGE}?added=1`);
            await page.locator('.device').first().waitFor();
            expect(await page.evaluate(() => document.documentElement.lang)).toBe(language);
            expect(await axeViolations(page)).toEqual([]);
            expect(await fitsWidth(page)).toBe(true);
            expect(problems).toEqual([]);
          } finally {
            await context.close();
            await server.database.db.execute(sql`delete from push_subscriptions where user_id = ${person.userId}`);
          }
        });
      }
    }
  }
});
