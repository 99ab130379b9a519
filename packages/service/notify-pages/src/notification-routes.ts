import { type BrowserSession, readBrowserSession } from '@sess/accounts';
import { checkCsrfToken, createRateLimiter, csrfToken, isSessError } from '@sess/core';
import type { EgressPolicy } from '@sess/core/egress';
import type { Db } from '@sess/db';
import { errorPage } from '@sess/error-pages';
import {
  listDevices,
  loadVapidKeys,
  type NotifySealers,
  type PushTarget,
  parseDeviceName,
  parsePushTarget,
  parseRenewalProof,
  type RenewalProof,
  readSavedSettings,
  removeDevice,
  renewDevice,
  saveDevice,
  saveSettings,
} from '@sess/notify';
import {
  ACCOUNT_FORM_FIELDS,
  CSRF_HEADER,
  htmlPage,
  inLanguage,
  type Messages,
  NOTIFY_FORM_FIELDS,
  NOTIFY_PATHS,
  type NotificationsView,
  newNonce,
  type PageLanguage,
  pageHeaders,
  pageLanguage,
  renderMessagePage,
  renderNotificationsPage,
  seeOther,
} from '@sess/web';
import { type Context, type Handler, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { NotifyPagesEnv } from './env.ts';
import { parseSettingsForm, settingsToForm } from './settings-form.ts';
import { mountWebAppFiles } from './web-app-files.ts';

export interface NotificationRoutesDeps {
  db: Db;
  secret: string;
  sealers: NotifySealers;
  now: () => Date;
  /** The egress policy pushes go out under: a device's endpoint it refuses is refused when saved. */
  egressPolicy: EgressPolicy;
  /** PUBLIC_URL and SESS_LINK_URL: the origins whose answer links (`/s/…`) a notification tap may open. */
  linkOrigins?: readonly string[];
  /** Whether SMTP is configured (the page says whether e-mail can be sent at all). */
  emailConfigured?: boolean;
  /** The address the per-address limit of the renewal route keys on (apps/server's, SESS_TRUSTED_PROXIES). */
  clientAddress: (c: { env: unknown }) => string;
}

/**
 * Renewals one address may post a minute. A device renews once per subscription its push
 * service replaces; the route needs no session, so this bounds what a flood costs the database.
 */
export const RENEWALS_PER_MINUTE = 60;

/** The JSON body of "Notify this device" is a subscription and a name: a few hundred bytes. */
export const DEVICE_BODY_LIMIT_BYTES = 8 * 1024;

const PURPOSE = {
  device: 'notify:device',
  remove: 'notify:remove',
  settings: 'notify:settings',
} as const;

/** The page's notice after a redirect (`?added=1`…), in the page's language. */
const NOTICES: Record<string, (m: Messages) => string> = {
  added: (m) => m.t('notify.status.added'),
  removed: (m) => m.t('notify.status.removed'),
  saved: (m) => m.t('notify.status.saved'),
};

/** A device step's `INVALID_ARGUMENTS` in the person's language, by the field notify named. */
function deviceProblem(m: Messages, field: string, details: { limit?: unknown }): string {
  // The endpoint the egress policy refuses: say so (a push service must be at a public address).
  if (field === '/subscription/endpoint') return m.t('notify.error.endpointNotPublic');
  if (field.startsWith('/subscription')) return m.t('notify.error.subscription');
  if (field === '/name') return m.t('notify.error.deviceName');
  if (typeof details.limit === 'number') return m.t('notify.error.tooManyDevices', { max: details.limit });
  return m.t('notify.script.refused');
}

type JsonError = { code: string; message: string; field: string };
const jsonError = (
  c: Context<NotifyPagesEnv>,
  status: 400 | 401 | 403 | 404 | 413 | 415 | 429,
  error: JsonError,
  headers: Record<string, string> = {},
) => c.json({ error: error }, status, { 'Cache-Control': 'no-store', ...headers });

/** Bounds a device route's JSON body (a subscription and a name or an old subscription: a few hundred bytes). */
const deviceBodyLimit = bodyLimit({
  maxSize: DEVICE_BODY_LIMIT_BYTES,
  onError: (c) =>
    jsonError(c as Context<NotifyPagesEnv>, 413, {
      code: 'PAYLOAD_TOO_LARGE',
      message: `The request body is over ${DEVICE_BODY_LIMIT_BYTES} bytes.`,
      field: '',
    }),
});

/** A device route's body: a JSON object (`what` names its members for the error), or the 415/400 answer. */
async function readJsonObject(c: Context<NotifyPagesEnv>, what: string): Promise<Record<string, unknown> | Response> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json')
    return jsonError(c, 415, { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send the body as application/json.', field: '' });
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text());
  } catch {
    return jsonError(c, 400, { code: 'INVALID_ARGUMENTS', message: 'The body is not valid JSON.', field: '' });
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return jsonError(c, 400, { code: 'INVALID_ARGUMENTS', message: `The body must be a JSON object with ${what}.`, field: '' });
  return body as Record<string, unknown>;
}

/**
 * A step's `INVALID_ARGUMENTS` as a 400 naming its field by JSON pointer into the body (`prefix` +
 * its own); anything else is rethrown. With `m` (the page's script shows the message) the message
 * is said in the person's language; without it (the service worker's renewal) it is notify's own.
 */
function invalidField(c: Context<NotifyPagesEnv>, error: unknown, prefix: string, m?: Messages): Response {
  if (!isSessError(error) || error.code !== 'INVALID_ARGUMENTS') throw error;
  const details = error.details as { field?: unknown; limit?: unknown };
  const field = `${prefix}${String(details.field ?? '')}`;
  const message = m ? deviceProblem(m, field, details) : error.message;
  return jsonError(c, 400, { code: 'INVALID_ARGUMENTS', message, field });
}

/**
 * The notifications page with the page headers plus what it needs beyond them: registering the
 * service worker (`worker-src 'self'`) and the manifest (`manifest-src 'self'`).
 */
function notificationsPage(status: number, view: NotificationsView, language: PageLanguage): Response {
  const nonce = newNonce();
  const headers = new Headers({ ...pageHeaders({ nonce }), 'Content-Type': 'text/html; charset=utf-8' });
  headers.set('Content-Security-Policy', `${headers.get('Content-Security-Policy')}; worker-src 'self'; manifest-src 'self'`);
  headers.set('Content-Language', language.messages.tag);
  if (language.rememberCookie) headers.append('Set-Cookie', language.rememberCookie);
  return new Response(
    inLanguage(language.messages, () => renderNotificationsPage(view, nonce)),
    { status, headers },
  );
}

function message(status: number, language: PageLanguage, title: string, text: string): Response {
  const m = language.messages;
  return htmlPage(
    status,
    (nonce) =>
      renderMessagePage(
        { title, message: text, tone: 'error', link: { href: NOTIFY_PATHS.page, label: m.t('notify.error.backToPage') } },
        nonce,
      ),
    { language },
  );
}

const expiredPage = (language: PageLanguage) =>
  message(403, language, language.messages.t('notify.error.expiredTitle'), language.messages.t('notify.error.expired'));

/** A page, never JSON, when a page route fails (503 while the database is out of reach). */
function withFailurePage(handler: Handler<NotifyPagesEnv>): Handler<NotifyPagesEnv> {
  return async function notificationsRoute(c, next) {
    try {
      return await handler(c, next);
    } catch (error) {
      return errorPage(error, { backTo: NOTIFY_PATHS.page, logger: c.get('logger'), event: 'notify.page', request: c.req.raw });
    }
  };
}

/**
 * `/account/notifications` (the person's devices and settings, "Notify this device"), its form
 * posts and its one JSON route, and the installable web app's files. Every query is the
 * signed-in person's own; no endpoint, key, device name or link is ever logged. apps/server
 * mounts them with `app.route('/', …)` behind its request logger (which sets `logger`).
 */
export function createNotificationRoutes(deps: NotificationRoutesDeps): Hono<NotifyPagesEnv> {
  const app = new Hono<NotifyPagesEnv>();
  mountWebAppFiles(app, deps.linkOrigins ?? []);
  const session = (c: Context<NotifyPagesEnv>): Promise<BrowserSession | null> =>
    readBrowserSession(deps.db, c.req.header('cookie'), deps.now());
  const signIn = () => seeOther(`/signin?return_to=${encodeURIComponent(NOTIFY_PATHS.page)}`);

  async function view(browser: BrowserSession, extra: Partial<NotificationsView> = {}): Promise<NotificationsView> {
    const [devices, { settings, saved }, vapid] = await Promise.all([
      listDevices(deps.db, browser.userId),
      readSavedSettings(deps.db, browser.userId),
      loadVapidKeys(deps.db, deps.sealers),
    ]);
    const token = (purpose: string) => csrfToken(deps.secret, browser.sessionId, purpose);
    return {
      email: browser.email,
      devices,
      settings: settingsToForm(settings),
      settingsUnsaved: !saved,
      vapidPublicKey: vapid.publicKey,
      emailConfigured: deps.emailConfigured ?? false,
      csrf: {
        device: token(PURPOSE.device),
        remove: token(PURPOSE.remove),
        settings: token(PURPOSE.settings),
        signout: token('signout'),
      },
      ...extra,
    };
  }

  app.get(
    NOTIFY_PATHS.page,
    withFailurePage(async (c) => {
      const browser = await session(c);
      if (!browser) return signIn();
      const language = pageLanguage(c.req.raw);
      const notice = Object.keys(NOTICES).find((key) => c.req.query(key) === '1');
      const said = notice ? NOTICES[notice]?.(language.messages) : undefined;
      return notificationsPage(200, await view(browser, said ? { notice: said } : {}), language);
    }),
  );

  // "Notify this device": JSON { subscription, name } from the page's script, CSRF token in a header.
  app.post(NOTIFY_PATHS.devices, deviceBodyLimit, async (c) => {
    // The page's script shows this route's messages: in the language the page was shown in.
    const m = pageLanguage(c.req.raw).messages;
    const browser = await session(c);
    if (!browser) return jsonError(c, 401, { code: 'UNAUTHORIZED', message: m.t('notify.error.signIn'), field: '' });
    if (!checkCsrfToken(deps.secret, browser.sessionId, PURPOSE.device, c.req.header(CSRF_HEADER)))
      return jsonError(c, 403, { code: 'FORBIDDEN', message: m.t('notify.error.expired'), field: '' });
    const body = await readJsonObject(c, 'subscription and name');
    if (body instanceof Response) return body;
    let target: PushTarget;
    let name: string;
    try {
      target = parsePushTarget(body.subscription, { policy: deps.egressPolicy });
    } catch (error) {
      return invalidField(c, error, '/subscription', m);
    }
    try {
      name = parseDeviceName(body.name);
    } catch (error) {
      return invalidField(c, error, '', m);
    }
    let id: string;
    try {
      id = await saveDevice(deps.db, deps.sealers, { userId: browser.userId, target, name, now: deps.now() });
    } catch (error) {
      return invalidField(c, error, '', m);
    }
    c.get('logger').info({ event: 'notify.device_saved', deviceId: id }, 'device saved');
    return c.json({ device: { id, name } }, 201, { 'Cache-Control': 'no-store' });
  });

  // The service worker's pushsubscriptionchange: JSON { old: { endpoint, auth }, subscription }.
  // No session or CSRF token (the worker runs when the push service says, signed in or not): the
  // old subscription's auth secret is the proof (renewDevice), which no other site can know.
  const renewalsPerAddress = createRateLimiter({
    limit: RENEWALS_PER_MINUTE,
    windowMs: 60_000,
    now: () => deps.now().getTime(),
  });
  app.post(NOTIFY_PATHS.renewDevice, deviceBodyLimit, async (c) => {
    const hit = renewalsPerAddress.hit(deps.clientAddress(c));
    if (!hit.ok)
      return jsonError(
        c,
        429,
        {
          code: 'RATE_LIMITED',
          message: `Too many renewals from this address. Try again in ${hit.retryAfterSeconds} s.`,
          field: '',
        },
        { 'Retry-After': String(hit.retryAfterSeconds) },
      );
    const body = await readJsonObject(c, 'old and subscription');
    if (body instanceof Response) return body;
    let old: RenewalProof;
    let target: PushTarget;
    try {
      old = parseRenewalProof(body.old);
    } catch (error) {
      return invalidField(c, error, '/old');
    }
    try {
      target = parsePushTarget(body.subscription, { policy: deps.egressPolicy });
    } catch (error) {
      return invalidField(c, error, '/subscription');
    }
    const ids = await renewDevice(deps.db, deps.sealers, { old, target });
    if (ids.length === 0)
      return jsonError(c, 404, {
        code: 'NOT_FOUND',
        message:
          'No device is saved with this old subscription (it was removed, renewed already or never added). Add the device again on Sess’s notifications page.',
        field: '/old',
      });
    c.get('logger').info({ event: 'notify.device_renewed', deviceIds: ids }, 'device moved to its new push subscription');
    return c.json({ devices: ids.map((id) => ({ id })) }, 200, { 'Cache-Control': 'no-store' });
  });

  app.post(
    NOTIFY_PATHS.removeDevice,
    withFailurePage(async (c) => {
      const form = new URLSearchParams(await c.req.text());
      const browser = await session(c);
      if (!browser) return signIn();
      const language = pageLanguage(c.req.raw);
      if (!checkCsrfToken(deps.secret, browser.sessionId, PURPOSE.remove, form.get(ACCOUNT_FORM_FIELDS.csrf)))
        return expiredPage(language);
      const removed = await removeDevice(deps.db, browser.userId, (form.get(NOTIFY_FORM_FIELDS.device) ?? '').slice(0, 64));
      const m = language.messages;
      if (!removed) return message(404, language, m.t('notify.error.noDeviceTitle'), m.t('notify.error.noDevice'));
      c.get('logger').info({ event: 'notify.device_removed' }, 'device removed by its owner');
      return seeOther(`${NOTIFY_PATHS.page}?removed=1`);
    }),
  );

  app.post(
    NOTIFY_PATHS.settings,
    withFailurePage(async (c) => {
      const form = new URLSearchParams(await c.req.text());
      const browser = await session(c);
      if (!browser) return signIn();
      const language = pageLanguage(c.req.raw);
      if (!checkCsrfToken(deps.secret, browser.sessionId, PURPOSE.settings, form.get(ACCOUNT_FORM_FIELDS.csrf)))
        return expiredPage(language);
      const parsed = parseSettingsForm(form, language.messages);
      if (!parsed.ok)
        return notificationsPage(
          400,
          await view(browser, { settings: parsed.values, settingsUnsaved: false, error: parsed.error }),
          language,
        );
      await saveSettings(deps.db, browser.userId, parsed.settings, deps.now());
      return seeOther(`${NOTIFY_PATHS.page}?saved=1`);
    }),
  );
  return app;
}
