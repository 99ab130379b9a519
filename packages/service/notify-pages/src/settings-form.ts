import { isSessError } from '@sess/core';
import { type AskUpdates, checkSettings, type NotificationSettings } from '@sess/notify';
import { NOTIFY_FORM_FIELDS as F, type Messages, messagesFor, type SettingsFormView } from '@sess/web';

const DEFAULT_QUIET = { from: '22:00', to: '07:00' };

const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** Saved settings as the form shows them. */
export function settingsToForm(settings: NotificationSettings): SettingsFormView {
  return {
    push: settings.pushEnabled,
    email: settings.emailEnabled,
    quiet: settings.quietHours !== null,
    quietFrom: settings.quietHours ? hhmm(settings.quietHours.start) : DEFAULT_QUIET.from,
    quietTo: settings.quietHours ? hhmm(settings.quietHours.end) : DEFAULT_QUIET.to,
    timeZone: settings.timeZone,
    reminders: settings.reminders,
    askUpdates: settings.askUpdates,
    apiKeyForms: settings.apiKeyForms,
  };
}

export type ParsedSettings =
  | { ok: true; settings: NotificationSettings }
  | { ok: false; values: SettingsFormView; error: { message: string; field: string } };

function minutesOf(value: string): number | null {
  const match = /^([01]\d|2[0-3]):([0-5]\d)(?::00)?$/.exec(value);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

/** The message of a settings problem at `field` (notify's checks name the field), in the page's language. */
function problemAt(m: Messages, field: string, fallback: string): string {
  switch (field) {
    case '/quietHours/start':
      return m.t('notify.error.quietStart');
    case '/quietHours/end':
      return m.t('notify.error.quietEnd');
    case '/quietHours':
      return m.t('notify.error.quietSame');
    case '/timeZone':
      return m.t('notify.error.timeZone');
    case '/askUpdates':
      return m.t('notify.error.askUpdates');
    default:
      return fallback;
  }
}

/**
 * The posted settings form, checked; on a problem, what was typed and the message naming the
 * field, in the page's language (`m`).
 */
export function parseSettingsForm(form: URLSearchParams, m: Messages = messagesFor('en')): ParsedSettings {
  const on = (name: string) => form.get(name) === 'on';
  const text = (name: string, max: number) => (form.get(name) ?? '').trim().slice(0, max);
  const values: SettingsFormView = {
    push: on(F.push),
    email: on(F.email),
    quiet: on(F.quiet),
    quietFrom: text(F.quietFrom, 8),
    quietTo: text(F.quietTo, 8),
    timeZone: text(F.timeZone, 64),
    reminders: on(F.reminders),
    askUpdates: text(F.askUpdates, 32),
    apiKeyForms: on(F.apiKeyForms),
  };
  const fail = (message: string, field: string): ParsedSettings => ({
    ok: false,
    values,
    error: { message: problemAt(m, field, message), field },
  });
  let quietHours: NotificationSettings['quietHours'] = null;
  if (values.quiet) {
    const start = minutesOf(values.quietFrom);
    const end = minutesOf(values.quietTo);
    if (start === null) return fail(m.t('notify.error.quietStart'), '/quietHours/start');
    if (end === null) return fail(m.t('notify.error.quietEnd'), '/quietHours/end');
    quietHours = { start, end };
  }
  try {
    const settings = checkSettings({
      pushEnabled: values.push,
      emailEnabled: values.email,
      quietHours,
      timeZone: values.timeZone,
      reminders: values.reminders,
      askUpdates: values.askUpdates as AskUpdates,
      apiKeyForms: values.apiKeyForms,
    });
    return { ok: true, settings };
  } catch (error) {
    if (isSessError(error) && error.code === 'INVALID_ARGUMENTS')
      return fail(error.message, String((error.details as { field?: unknown }).field ?? ''));
    throw error;
  }
}
