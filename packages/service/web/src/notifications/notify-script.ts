import { type Messages, messagesFor } from '../i18n/messages.ts';
import { CSRF_HEADER } from './view.ts';

/**
 * The one script of the notifications page. It reads only the page's own data attributes
 * (`data-vapid-key`, `data-csrf`, `data-zone-unsaved`, and `data-texts`: its sentences in the
 * page's language, `notifyScriptTexts`) and writes only those sentences (through textContent)
 * plus the message of the server's JSON error, also as text. It:
 * - fills in a suggested device name from the user agent ("Chrome on Android", "Safari on
 *   iPhone"…) when the field is empty, and the browser's time zone when settings were never saved;
 * - shows the iOS "Add to Home Screen first" steps in Safari on an iPhone or iPad that is not
 *   running Sess as a Home Screen app, or says plainly that this browser cannot take push, or that
 *   notifications are blocked for this site;
 * - on a tap of "Notify this device": asks permission, registers /sw.js, subscribes with the
 *   VAPID key and POSTs { subscription, name } with the CSRF token in a header, then reloads the
 *   list. Subscribing makes the browser reach its vendor's push service, which may never answer
 *   (offline, a firewall, a VPN); that wait and the POST are each bounded by WAIT_MS, after which
 *   the page says what to do and the button works again.
 */
/** How long "Notify this device" waits for the browser's push service, and then for Sess. */
export const NOTIFY_WAIT_MS = 20_000;

/**
 * The sentences the script shows, in the page's language (the page puts them in `data-texts`).
 * `deviceName` keeps its `{browser}` and `{system}` for the script to fill in.
 */
export function notifyScriptTexts(m: Messages) {
  return {
    deviceName: m.t('notify.script.deviceName', { browser: '{browser}', system: '{system}' }),
    thisDevice: m.t('notify.script.thisDevice'),
    browser: m.t('notify.script.browser'),
    notAllowed: m.t('notify.script.notAllowed'),
    adding: m.t('notify.script.adding'),
    silent: m.t('notify.script.silent', { seconds: NOTIFY_WAIT_MS / 1000 }),
    subscribeFailed: m.t('notify.script.subscribeFailed'),
    late: m.t('notify.script.late'),
    unreachable: m.t('notify.script.unreachable'),
    refused: m.t('notify.script.refused'),
    failed: m.t('notify.script.failed'),
  };
}

/** What the page says (in English) when the browser's push service never answered. */
export const PUSH_SERVICE_SILENT = notifyScriptTexts(messagesFor('en')).silent;

export const NOTIFY_SCRIPT = `(() => {
  const root = document.getElementById('notify-device');
  if (!root) return;
  const button = document.getElementById('notify-button');
  const nameInput = document.getElementById('device-name');
  const status = document.getElementById('notify-status');
  const show = (id) => { const element = document.getElementById(id); if (element) element.hidden = false; };
  const say = (message) => { status.textContent = message; };
  let texts = {};
  try { texts = JSON.parse(root.dataset.texts || '{}'); } catch {}
  const WAIT_MS = ${NOTIFY_WAIT_MS};
  class TimedOut extends Error {}
  function within(promise, ms) {
    let timer;
    const late = new Promise((_, reject) => { timer = setTimeout(() => reject(new TimedOut()), ms); });
    return Promise.race([promise, late]).finally(() => clearTimeout(timer));
  }
  const ua = navigator.userAgent;
  const ios = /iPhone|iPad|iPod/.test(ua) || (/Macintosh/.test(ua) && navigator.maxTouchPoints > 1);
  function suggestedName() {
    const browser = /EdgA?\\//.test(ua) ? 'Edge' : /SamsungBrowser\\//.test(ua) ? 'Samsung Internet'
      : /Firefox\\/|FxiOS\\//.test(ua) ? 'Firefox' : /CriOS\\/|Chrome\\//.test(ua) ? 'Chrome' : /Safari\\//.test(ua) ? 'Safari' : texts.browser;
    const system = /iPhone/.test(ua) ? 'iPhone' : /iPad/.test(ua) || (ios && /Macintosh/.test(ua)) ? 'iPad' : /Android/.test(ua) ? 'Android'
      : /Windows/.test(ua) ? 'Windows' : /Macintosh/.test(ua) ? 'Mac' : /CrOS/.test(ua) ? 'ChromeOS' : /Linux/.test(ua) ? 'Linux' : texts.thisDevice;
    return texts.deviceName.replace('{browser}', () => browser).replace('{system}', () => system);
  }
  if (nameInput && !nameInput.value) nameInput.value = suggestedName();
  const zone = document.getElementById('time-zone');
  if (zone && root.dataset.zoneUnsaved === 'true') {
    try { const own = Intl.DateTimeFormat().resolvedOptions().timeZone; if (own) zone.value = own; } catch {}
  }
  const standalone = navigator.standalone === true || matchMedia('(display-mode: standalone)').matches;
  if (ios && !standalone) { show('notify-ios'); return; }
  if (!window.isSecureContext) { show('notify-insecure'); return; }
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) { show('notify-unsupported'); return; }
  if (Notification.permission === 'denied') { show('notify-denied'); return; }
  function keyBytes(base64url) {
    const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4);
    return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  }
  async function subscribe(registration, key) {
    const existing = await registration.pushManager.getSubscription();
    if (existing) {
      const same = existing.options && existing.options.applicationServerKey &&
        new Uint8Array(existing.options.applicationServerKey).join() === key.join();
      if (same) return existing;
      await existing.unsubscribe();
    }
    return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  }
  async function notifyThisDevice() {
    const permission = await Notification.requestPermission();
    if (permission !== 'granted') {
      if (permission === 'denied') show('notify-denied');
      return say(texts.notAllowed);
    }
    say(texts.adding);
    let subscription;
    try {
      subscription = await within((async () => {
        const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
        await navigator.serviceWorker.ready;
        return subscribe(registration, keyBytes(root.dataset.vapidKey));
      })(), WAIT_MS);
    } catch (error) {
      if (error instanceof TimedOut) {
        return say(texts.silent);
      }
      return say(texts.subscribeFailed);
    }
    const stop = new AbortController();
    let response;
    try {
      response = await within(fetch(root.dataset.action, {
        method: 'POST',
        signal: stop.signal,
        headers: { 'content-type': 'application/json', ${JSON.stringify(CSRF_HEADER)}: root.dataset.csrf },
        body: JSON.stringify({ subscription: subscription.toJSON(), name: nameInput ? nameInput.value : '' }),
      }), WAIT_MS);
    } catch (error) {
      stop.abort();
      return say(error instanceof TimedOut ? texts.late : texts.unreachable);
    }
    if (response.ok) return location.assign(location.pathname + '?added=1');
    let message = texts.refused;
    try { const body = await response.json(); if (body && body.error && typeof body.error.message === 'string') message = body.error.message; } catch {}
    say(message);
  }
  button.hidden = false;
  if (nameInput) document.getElementById('device-name-field').hidden = false;
  button.addEventListener('click', () => {
    button.disabled = true;
    notifyThisDevice().catch(() => say(texts.failed))
      .finally(() => { button.disabled = false; });
  });
})();`;
