/**
 * What the notifications page (`/account/notifications`) is given to render. Plain data; every
 * string is escaped by hono/jsx.
 */

/** Where the page's forms and its one JSON route live. */
export const NOTIFY_PATHS = {
  page: '/account/notifications',
  devices: '/account/notifications/devices',
  removeDevice: '/account/notifications/devices/remove',
  /** The service worker's: a device moved to the subscription its push service replaced it with. */
  renewDevice: '/account/notifications/devices/renew',
  settings: '/account/notifications/settings',
} as const;

/** The header the page's script sends its CSRF token in (the JSON route reads it there). */
export const CSRF_HEADER = 'x-csrf-token';

/** The names of the settings form's fields (and the remove form's). */
export const NOTIFY_FORM_FIELDS = {
  device: 'device_id',
  push: 'push',
  email: 'email',
  quiet: 'quiet',
  quietFrom: 'quiet_from',
  quietTo: 'quiet_to',
  timeZone: 'time_zone',
  reminders: 'reminders',
  askUpdates: 'ask_updates',
  apiKeyForms: 'api_key_forms',
} as const;

/** One device as listed (never its endpoint or keys). */
export interface DeviceView {
  id: string;
  name: string;
  createdAt: Date;
  lastDeliveryAt: Date | null;
  lastFailureAt: Date | null;
}

/** The settings form's values, as saved or as typed (quiet hours as HH:MM). */
export interface SettingsFormView {
  push: boolean;
  email: boolean;
  quiet: boolean;
  quietFrom: string;
  quietTo: string;
  timeZone: string;
  reminders: boolean;
  askUpdates: string;
  apiKeyForms: boolean;
}

export interface NotificationsView {
  email: string;
  devices: DeviceView[];
  settings: SettingsFormView;
  /** True when the person never saved settings: the script may fill in the browser's time zone. */
  settingsUnsaved: boolean;
  /** The deployment's VAPID public key (base64url), the `applicationServerKey` the browser subscribes with. */
  vapidPublicKey: string;
  /** Whether this server has SMTP settings (e-mail can be sent at all). */
  emailConfigured: boolean;
  csrf: { device: string; remove: string; settings: string; signout: string };
  notice?: string;
  /** A problem with the settings just posted (nothing was saved). */
  error?: { message: string; field: string };
}
