import { CSRF_HEADER } from './view.ts';

/**
 * The one script of the notifications page. It reads only the page's own data attributes
 * (`data-vapid-key`, `data-csrf`, `data-zone-unsaved`) and writes only its own fixed sentences
 * (through textContent) plus the message of the server's JSON error, also as text. It:
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

/** What the page says when the browser's push service never answered. */
export const PUSH_SERVICE_SILENT = `Your browser’s push service did not answer within ${NOTIFY_WAIT_MS / 1000} seconds, so this device was not added. Check that this device is online (a VPN, firewall or content blocker can keep the push service out of reach), then tap “Notify this device” again.`;

export const NOTIFY_SCRIPT = `(() => {
  const root = document.getElementById('notify-device');
  if (!root) return;
  const button = document.getElementById('notify-button');
  const nameInput = document.getElementById('device-name');
  const status = document.getElementById('notify-status');
  const show = (id) => { const element = document.getElementById(id); if (element) element.hidden = false; };
  const say = (message) => { status.textContent = message; };
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
      : /Firefox\\/|FxiOS\\//.test(ua) ? 'Firefox' : /CriOS\\/|Chrome\\//.test(ua) ? 'Chrome' : /Safari\\//.test(ua) ? 'Safari' : 'Browser';
    const system = /iPhone/.test(ua) ? 'iPhone' : /iPad/.test(ua) || (ios && /Macintosh/.test(ua)) ? 'iPad' : /Android/.test(ua) ? 'Android'
      : /Windows/.test(ua) ? 'Windows' : /Macintosh/.test(ua) ? 'Mac' : /CrOS/.test(ua) ? 'ChromeOS' : /Linux/.test(ua) ? 'Linux' : 'this device';
    return browser + ' on ' + system;
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
      return say('Notifications were not allowed, so this device was not added.');
    }
    say('Adding this device…');
    let subscription;
    try {
      subscription = await within((async () => {
        const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
        await navigator.serviceWorker.ready;
        return subscribe(registration, keyBytes(root.dataset.vapidKey));
      })(), WAIT_MS);
    } catch (error) {
      if (error instanceof TimedOut) {
        return say(${JSON.stringify(PUSH_SERVICE_SILENT)});
      }
      return say('This browser could not subscribe to push messages just now. Try again, or try another browser.');
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
      return say(error instanceof TimedOut
        ? 'Sess did not answer in time, so this device may not be added. Reload the page to see, and try again if it is not listed.'
        : 'Sess could not be reached, so this device was not added. Check your connection and try again.');
    }
    if (response.ok) return location.assign(location.pathname + '?added=1');
    let message = 'Sess could not add this device. Reload the page and try again.';
    try { const body = await response.json(); if (body && body.error && typeof body.error.message === 'string') message = body.error.message; } catch {}
    say(message);
  }
  button.hidden = false;
  if (nameInput) document.getElementById('device-name-field').hidden = false;
  button.addEventListener('click', () => {
    button.disabled = true;
    notifyThisDevice().catch(() => say('Something went wrong while adding this device. Reload the page and try again.'))
      .finally(() => { button.disabled = false; });
  });
})();`;
