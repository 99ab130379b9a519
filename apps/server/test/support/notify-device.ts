import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { createEgress } from '@sess/core/egress';
import { type NotificationWorker, type NotificationWorkerOptions, startNotificationWorker } from '@sess/notify';
import { noticeTexts } from '@sess/notify-pages';
import { createTestLogger, TEST_SECRET, type TestUser } from '@sess/testkit';
import type { AppServer } from '@sess/testkit/app-server';
import type { TestPushService, TestPushSubscription } from '@sess/testkit/push-service';
import { PersonAtTheKeyboard } from './oauth-provider.ts';

/**
 * @sess/notify's worker on the app's database and clock, run by the test (`runOnce`), never in
 * the background; its pushes go to loopback only, as the app's own egress under the test flag.
 */
export function startTestWorker(server: AppServer, extra: Partial<NotificationWorkerOptions> = {}): NotificationWorker {
  return startNotificationWorker({
    database: server.database,
    secret: TEST_SECRET,
    logger: createTestLogger(),
    now: server.clock.now,
    vapidSubject: 'mailto:sess@localhost',
    background: false,
    egress: createEgress({ policy: 'loopback-only' }),
    texts: noticeTexts,
    // A slot wait is real time: generous, so a loaded machine never reschedules a row a test expects sent.
    slotWaitMs: 60_000,
    ...extra,
  });
}

/** Reads one `data-…` attribute of the notifications page (the script's inputs). */
function dataAttribute(html: string, name: string): string {
  const value = new RegExp(`\\sdata-${name}="([^"]+)"`).exec(html)?.[1];
  if (!value) throw new Error(`the notifications page has no data-${name}`);
  return value.replace(/&amp;/g, '&').replace(/&quot;/g, '"');
}

/**
 * "Notify this device", as the page's script does it: the signed-in person's page gives the
 * VAPID public key and the CSRF token, the (test) push service makes the subscription, and the
 * JSON route saves it. Returns the push service's id for the subscription.
 */
export async function notifyThisDevice(
  baseUrl: string,
  cookie: string,
  push: TestPushService,
  name = 'Test phone',
): Promise<string> {
  return (await addThisDevice(baseUrl, cookie, push, name)).id;
}

/** `notifyThisDevice`, also giving the subscription saved and the VAPID public key it is for. */
export async function addThisDevice(
  baseUrl: string,
  cookie: string,
  push: TestPushService,
  name = 'Test phone',
): Promise<{ id: string; subscription: TestPushSubscription; vapidKey: string }> {
  const page = await notificationsPage(baseUrl, cookie);
  const vapidKey = dataAttribute(page, 'vapid-key');
  const { id, subscription } = push.subscribe(vapidKey);
  await postDevice(baseUrl, cookie, dataAttribute(page, 'csrf'), subscription, name);
  return { id, subscription, vapidKey };
}

/**
 * "Notify this device" with a subscription made elsewhere (another person's browser, or the
 * same browser signed in to another account). Returns the device id Sess answered with.
 */
export async function saveThisDevice(
  baseUrl: string,
  cookie: string,
  subscription: TestPushSubscription,
  name = 'Test phone',
): Promise<string> {
  return postDevice(baseUrl, cookie, dataAttribute(await notificationsPage(baseUrl, cookie), 'csrf'), subscription, name);
}

async function notificationsPage(baseUrl: string, cookie: string): Promise<string> {
  const page = await fetch(`${baseUrl}/account/notifications`, { headers: { cookie } });
  if (page.status !== 200) throw new Error(`the notifications page answered ${page.status}`);
  return page.text();
}

async function postDevice(
  baseUrl: string,
  cookie: string,
  csrf: string,
  subscription: TestPushSubscription,
  name: string,
): Promise<string> {
  const saved = await fetch(`${baseUrl}/account/notifications/devices`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json', 'x-csrf-token': csrf, origin: baseUrl },
    body: JSON.stringify({ subscription, name }),
  });
  if (saved.status !== 201) throw new Error(`saving the device answered ${saved.status}: ${await saved.text()}`);
  return ((await saved.json()) as { device: { id: string } }).device.id;
}

/** The MCP client signed in by itself, through the real OAuth flow (discovery, DCR, PKCE, sign-in and consent pages). */
export async function connectSignedIn(baseUrl: string, user: Pick<TestUser, 'email' | 'password'>): Promise<Client> {
  const url = new URL(`${baseUrl}/mcp`);
  const provider = new PersonAtTheKeyboard(baseUrl, user);
  const options = { versionNegotiation: { mode: 'auto' as const } };
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  try {
    await new Client({ name: 'sess-test', version: '1' }, options).connect(first);
  } catch (error) {
    if (!(error instanceof UnauthorizedError)) throw error;
  }
  if (!provider.callback) throw new Error('the sign-in did not come back with a code');
  await first.finishAuth(provider.callback);
  const client = new Client({ name: 'sess-test', version: '1' }, options);
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  return client;
}

/** A client with a bearer (a workspace API key). */
export async function connectWithKey(baseUrl: string, key: string): Promise<Client> {
  const client = new Client({ name: 'sess-test', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}
