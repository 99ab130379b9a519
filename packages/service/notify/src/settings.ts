import { SessError } from '@sess/core';
import { type DbOrTx, notificationSettings } from '@sess/db';
import { eq } from 'drizzle-orm';

export const ASK_UPDATES = ['each_answer', 'closed', 'off'] as const;
export type AskUpdates = (typeof ASK_UPDATES)[number];

/** A person's notification choices (the defaults when they never saved any). */
export interface NotificationSettings {
  pushEnabled: boolean;
  emailEnabled: boolean;
  /** Minutes after midnight in `timeZone`; null = no quiet hours. */
  quietHours: { start: number; end: number } | null;
  /** An IANA time zone, such as Europe/Ljubljana. */
  timeZone: string;
  reminders: boolean;
  askUpdates: AskUpdates;
  apiKeyForms: boolean;
}

export const DEFAULT_SETTINGS: NotificationSettings = {
  pushEnabled: true,
  emailEnabled: true,
  quietHours: null,
  timeZone: 'UTC',
  reminders: false,
  askUpdates: 'closed',
  apiKeyForms: false,
};

/** True when `zone` is a time zone this Node.js knows. */
export function isTimeZone(zone: string): boolean {
  if (zone.length === 0 || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Checks settings before they are saved; the error names the field. */
export function checkSettings(settings: NotificationSettings): NotificationSettings {
  const { quietHours } = settings;
  if (quietHours) {
    for (const key of ['start', 'end'] as const) {
      const minutes = quietHours[key];
      if (!Number.isInteger(minutes) || minutes < 0 || minutes >= 24 * 60)
        throw new SessError('INVALID_ARGUMENTS', `Quiet hours ${key} must be a time of day from 00:00 to 23:59.`, {
          field: `/quietHours/${key}`,
        });
    }
    if (quietHours.start === quietHours.end)
      throw new SessError('INVALID_ARGUMENTS', 'Quiet hours must start and end at different times.', { field: '/quietHours' });
  }
  if (!isTimeZone(settings.timeZone))
    throw new SessError('INVALID_ARGUMENTS', 'The time zone must be one such as Europe/Ljubljana or UTC.', {
      field: '/timeZone',
    });
  if (!ASK_UPDATES.includes(settings.askUpdates))
    throw new SessError('INVALID_ARGUMENTS', `Ask updates must be one of ${ASK_UPDATES.join(', ')}.`, { field: '/askUpdates' });
  return settings;
}

/** The stored columns of a person's settings, or null/undefined when they never saved any. */
export interface SettingsColumns {
  pushEnabled: boolean;
  emailEnabled: boolean;
  quietStart: number | null;
  quietEnd: number | null;
  timeZone: string;
  reminders: boolean;
  askUpdates: AskUpdates;
  apiKeyForms: boolean;
}

/** Settings from their stored columns (the defaults for a person with no row): the one reading rule. */
export function settingsFromColumns(row: SettingsColumns | null | undefined): NotificationSettings {
  if (!row) return { ...DEFAULT_SETTINGS };
  return {
    pushEnabled: row.pushEnabled,
    emailEnabled: row.emailEnabled,
    quietHours: row.quietStart !== null && row.quietEnd !== null ? { start: row.quietStart, end: row.quietEnd } : null,
    timeZone: row.timeZone,
    reminders: row.reminders,
    askUpdates: row.askUpdates,
    apiKeyForms: row.apiKeyForms,
  };
}

/** The person's settings, and whether they ever saved any (false: the defaults). */
export async function readSavedSettings(db: DbOrTx, userId: string): Promise<{ settings: NotificationSettings; saved: boolean }> {
  const [row] = await db.select().from(notificationSettings).where(eq(notificationSettings.userId, userId));
  return { settings: settingsFromColumns(row), saved: row !== undefined };
}

export async function readSettings(db: DbOrTx, userId: string): Promise<NotificationSettings> {
  return (await readSavedSettings(db, userId)).settings;
}

/** Saves the person's settings whole (checked first). */
export async function saveSettings(db: DbOrTx, userId: string, settings: NotificationSettings, now: Date): Promise<void> {
  checkSettings(settings);
  const values = {
    pushEnabled: settings.pushEnabled,
    emailEnabled: settings.emailEnabled,
    quietStart: settings.quietHours?.start ?? null,
    quietEnd: settings.quietHours?.end ?? null,
    timeZone: settings.timeZone,
    reminders: settings.reminders,
    askUpdates: settings.askUpdates,
    apiKeyForms: settings.apiKeyForms,
    updatedAt: now,
  };
  await db
    .insert(notificationSettings)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: notificationSettings.userId, set: values });
}

/**
 * When a notification due at `at` may go out under `settings`' quiet hours: `at` itself outside
 * them, else the moment they end (in the person's time zone).
 */
export function afterQuietHours(settings: Pick<NotificationSettings, 'quietHours' | 'timeZone'>, at: Date): Date {
  const { quietHours } = settings;
  if (!quietHours) return at;
  const { start, end } = quietHours;
  const nowMinutes = localMinutes(settings.timeZone, at);
  const quiet = start < end ? nowMinutes >= start && nowMinutes < end : nowMinutes >= start || nowMinutes < end;
  if (!quiet) return at;
  const minutesLeft = (end - nowMinutes + 24 * 60) % (24 * 60);
  const until = new Date(at.getTime() + minutesLeft * 60_000);
  until.setUTCSeconds(0, 0);
  // A daylight-saving change in between moves the wall clock: correct by what it shows then.
  const drift = ((((end - localMinutes(settings.timeZone, until)) % (24 * 60)) + 36 * 60) % (24 * 60)) - 12 * 60;
  if (drift === 0) return until;
  const corrected = new Date(until.getTime() + drift * 60_000);
  // An end that does not exist that day (skipped by the change) stays the uncorrected moment.
  return corrected > at && localMinutes(settings.timeZone, corrected) === end ? corrected : until;
}

/** Minutes after midnight at `at` on the clocks of `timeZone`. */
function localMinutes(timeZone: string, at: Date): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const hour = Number(parts.find((p) => p.type === 'hour')?.value ?? 0);
  const minute = Number(parts.find((p) => p.type === 'minute')?.value ?? 0);
  return hour * 60 + minute;
}
