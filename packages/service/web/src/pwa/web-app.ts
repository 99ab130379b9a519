import { NOTIFY_PATHS } from '../notifications/view.ts';
import { renderIconPng } from './icons.ts';

/** Where the installable web app's files are served (on PUBLIC_URL only: the app is a signed-in account's). */
export const PWA_PATHS = {
  manifest: '/manifest.webmanifest',
  serviceWorker: '/sw.js',
  iconSvg: '/icons/sess.svg',
  icon192: '/icons/sess-192.png',
  icon512: '/icons/sess-512.png',
  appleTouchIcon: '/apple-touch-icon.png',
} as const;

/** Where the installed app opens: the page that subscribes this device. */
export const NOTIFICATIONS_PATH = NOTIFY_PATHS.page;

/** The stylesheet's accent (--accent) and page background (--bg). */
export const THEME_COLOR = '#1d4ed8';
export const BACKGROUND_COLOR = '#f6f7f9';

/** The web app manifest (JSON text). */
export const WEB_MANIFEST = JSON.stringify({
  name: 'Sess',
  short_name: 'Sess',
  description: 'Questions your agents ask you, answered on your phone.',
  id: '/',
  start_url: NOTIFICATIONS_PATH,
  scope: '/',
  display: 'standalone',
  theme_color: THEME_COLOR,
  background_color: BACKGROUND_COLOR,
  icons: [
    { src: PWA_PATHS.iconSvg, sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
    { src: PWA_PATHS.icon192, sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: PWA_PATHS.icon512, sizes: '512x512', type: 'image/png', purpose: 'any' },
    { src: PWA_PATHS.icon512, sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
});

const pngs = new Map<number, Buffer>();

/** The PNG icon of `size` (192, 512, or 180 for the Apple touch icon), drawn once and kept. */
export function iconPng(size: 180 | 192 | 512): Buffer {
  let png = pngs.get(size);
  if (!png) {
    png = renderIconPng(size);
    pngs.set(size, png);
  }
  return png;
}

/**
 * The service worker. It shows notifications, opens their links and keeps its device's
 * subscription current: no fetch handler, no Cache API, nothing stored, so no link or answer is
 * ever kept on the device by it. A push's JSON payload `{ v, id, tag, kind, title, body, url }`
 * becomes a notification; a tap opens its url (or focuses a window already there). Only http(s)
 * urls on this origin, or answer links (`/s/…`) on the deployment's other origin (`linkOrigins`:
 * PUBLIC_URL's and SESS_LINK_URL's), are ever opened; anything else in a payload is dropped, a
 * defence should one ever be forged. When the push service replaces the subscription
 * (`pushsubscriptionchange`: it expired or was rotated), the worker subscribes again with the old
 * one's server key if the browser did not already, and sends the new one with the old one's
 * endpoint and auth secret, which prove it is the same device: the person keeps getting
 * notifications without visiting the page. A browser that gives no old subscription leaves nothing
 * to prove: the device is added again on the page.
 */
export function serviceWorkerScript(linkOrigins: readonly string[] = []): string {
  const origins = JSON.stringify([...new Set(linkOrigins.map((origin) => new URL(origin).origin))]);
  return `'use strict';
const LINK_ORIGINS = ${origins};
const ICON = ${JSON.stringify(PWA_PATHS.icon192)};
const RENEW_PATH = ${JSON.stringify(NOTIFY_PATHS.renewDevice)};
function allowedUrl(raw) {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 4096) return null;
  let url;
  try { url = new URL(raw, self.location.origin); } catch { return null; }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) return null;
  if (url.origin === self.location.origin) return url.href;
  if (LINK_ORIGINS.includes(url.origin) && url.pathname.startsWith('/s/')) return url.href;
  return null;
}
function text(value, max) {
  return typeof value === 'string' ? Array.from(value).slice(0, max).join('') : '';
}
self.addEventListener('install', () => { self.skipWaiting(); });
self.addEventListener('activate', (event) => { event.waitUntil(self.clients.claim()); });
self.addEventListener('push', (event) => {
  let payload = null;
  try { payload = event.data ? event.data.json() : null; } catch { payload = null; }
  if (!payload || typeof payload !== 'object') payload = {};
  const title = text(payload.title, 200) || 'Sess';
  const options = { body: text(payload.body, 500), data: { url: allowedUrl(payload.url) }, renotify: false, icon: ICON };
  const tag = text(payload.tag, 200);
  if (tag) options.tag = tag;
  const lang = text(payload.lang, 35);
  if (/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(lang)) options.lang = lang;
  event.waitUntil(self.registration.showNotification(title, options));
});
async function openLink(url) {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const client of windows) {
    if (client.url === url && 'focus' in client) return client.focus();
  }
  return self.clients.openWindow(url);
}
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = allowedUrl(event.notification.data && event.notification.data.url);
  if (url) event.waitUntil(openLink(url));
});
async function renewSubscription(event) {
  const old = event.oldSubscription;
  const proof = old && old.toJSON();
  if (!proof || !proof.endpoint || !proof.keys || !proof.keys.auth) return;
  let renewed = event.newSubscription;
  if (!renewed) {
    const key = old.options && old.options.applicationServerKey;
    if (!key) return;
    renewed = await self.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  }
  await fetch(RENEW_PATH, {
    method: 'POST',
    credentials: 'omit',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ old: { endpoint: proof.endpoint, auth: proof.keys.auth }, subscription: renewed.toJSON() }),
  });
}
self.addEventListener('pushsubscriptionchange', (event) => {
  event.waitUntil(renewSubscription(event).catch(() => undefined));
});
`;
}
