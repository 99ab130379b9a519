import { type DbOrTx, queryRows } from '@sess/db';
import { type SQL, sql } from 'drizzle-orm';
import type { NotificationKind } from './message.ts';
import type { NotifySealers } from './sealers.ts';
import { type NotificationSettings, type SettingsColumns, settingsFromColumns } from './settings.ts';
import { type DeliveryTarget, openDevice } from './subscriptions.ts';

/*
 * The worker's two shared statements: one claims the due rows and reads, in the same
 * statement, everything sending them needs (the form's state, the person's settings and
 * devices); one settles the rows that ended close together (deletes what is done, records the
 * deliveries). So a notification costs the database two round trips shared with others, not
 * one per fact.
 */

/** What the form a row tells of looks like now. */
export interface SessionFacts {
  state: 'open' | 'completed' | 'withdrawn';
  closesAt: Date;
  askAnswered: number;
  askMax: number | null;
  /** An Ask that decides: pending, approved or rejected; null otherwise. */
  askDecision: 'pending' | 'approved' | 'rejected' | null;
  /** The interaction's current revision has its answer (an Ask's answers carry a respondent). */
  answered: boolean;
}

/** A claimed outbox row with what sending it needs. */
export interface ClaimedNotice {
  id: string;
  userId: string;
  workspaceId: string;
  sessionId: string;
  kind: NotificationKind;
  topic: string;
  /** Sealed title and link (see enqueue.ts). */
  payload: string;
  expiresAt: Date;
  /** This claim's attempt (every later write to the row is fenced on it). */
  attempts: number;
  /** Undefined when the form is gone. */
  session: SessionFacts | undefined;
  settings: NotificationSettings;
  /**
   * The person's devices still to be pushed to, opened (a device that does not open is left
   * out; so is one that accepted this row on an earlier try).
   */
  devices: DeliveryTarget[];
  /** How many devices accepted this row on an earlier try (`sent_to`). */
  sentBefore: number;
  /** The language of the form (its current revision's `surface.locale`), when the agent set one. */
  formLocale: string | undefined;
  /** The recipient's saved language (`users.locale`, their picker choice), before the form's. */
  savedLocale: string | undefined;
  /** The person's time zone when they saved their settings (undefined: never saved). */
  savedTimeZone: string | undefined;
}

interface ClaimRow extends Record<string, unknown> {
  id: string;
  user_id: string;
  workspace_id: string;
  session_id: string;
  kind: NotificationKind;
  topic: string;
  payload: string;
  expires_at: string | Date;
  attempts: number;
  sent_before: number;
  state: SessionFacts['state'] | null;
  closes_at: string | Date | null;
  ask_answered: number | null;
  ask_max: number | null;
  ask_decision: 'pending' | 'approved' | 'rejected' | null;
  answered: boolean;
  push_enabled: boolean | null;
  email_enabled: boolean;
  quiet_start: number | null;
  quiet_end: number | null;
  time_zone: string;
  reminders: boolean;
  ask_updates: SettingsColumns['askUpdates'];
  api_key_forms: boolean;
  devices: string | { id: string; sealed: string }[];
  form_locale: string | null;
  saved_locale: string | null;
}

// Drivers differ: postgres.js (as drizzle sets it up) gives timestamps and json as text, PGlite parsed.
const toDate = (value: string | Date) => (value instanceof Date ? value : new Date(value));
const toJson = <T>(value: string | T): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

/**
 * Claims up to `batch` due rows for `leaseMs` (`for update skip locked`: replicas never take the
 * same row), counting the attempt, and returns them with their facts.
 */
export async function claimDue(
  db: DbOrTx,
  sealers: NotifySealers,
  options: { at: Date; leaseMs: number; batch: number },
): Promise<ClaimedNotice[]> {
  const at = options.at.toISOString();
  const lease = new Date(options.at.getTime() + options.leaseMs).toISOString();
  const rows = await queryRows<ClaimRow>(
    db,
    sql`with due as (
          select id from notification_outbox
           where not_before <= ${at}::timestamptz and (locked_until is null or locked_until < ${at}::timestamptz)
           order by not_before
           limit ${options.batch}
           for update skip locked),
        claimed as (
          update notification_outbox o set locked_until = ${lease}::timestamptz, attempts = o.attempts + 1
            from due where o.id = due.id
          returning o.id, o.user_id, o.workspace_id, o.session_id, o.kind, o.topic, o.payload, o.expires_at, o.attempts,
                    o.sent_to)
        select c.id, c.user_id, c.workspace_id, c.session_id, c.kind, c.topic, c.payload, c.expires_at, c.attempts,
               cardinality(c.sent_to) as sent_before, s.state, s.closes_at, s.ask_answered, s.ask_max, s.ask_decision,
               exists (select 1 from form_answers a
                        where a.session_id = s.id and a.revision = s.current_revision and a.respondent_id is null) as answered,
               ns.push_enabled, ns.email_enabled, ns.quiet_start, ns.quiet_end, ns.time_zone, ns.reminders,
               ns.ask_updates, ns.api_key_forms,
               coalesce((select json_agg(json_build_object('id', p.id, 'sealed', p.sealed))
                           from push_subscriptions p where p.user_id = c.user_id and p.id <> all(c.sent_to)),
                        '[]'::json) as devices,
               (select r.surface ->> 'locale' from form_revisions r
                 where r.session_id = s.id and r.revision = s.current_revision) as form_locale,
               (select u.locale from users u where u.id = c.user_id) as saved_locale
          from claimed c
          left join form_sessions s on s.id = c.session_id and s.workspace_id = c.workspace_id
          left join notification_settings ns on ns.user_id = c.user_id`,
  );
  return rows.map((row) => ({
    id: row.id,
    userId: row.user_id,
    workspaceId: row.workspace_id,
    sessionId: row.session_id,
    kind: row.kind,
    topic: row.topic,
    payload: row.payload,
    expiresAt: toDate(row.expires_at),
    attempts: Number(row.attempts),
    session:
      row.state === null || row.closes_at === null
        ? undefined
        : {
            state: row.state,
            closesAt: toDate(row.closes_at),
            askAnswered: Number(row.ask_answered ?? 0),
            askMax: row.ask_max === null ? null : Number(row.ask_max),
            askDecision: row.ask_decision,
            answered: row.answered,
          },
    settings: settingsFromColumns(
      row.push_enabled === null
        ? null
        : {
            pushEnabled: row.push_enabled,
            emailEnabled: row.email_enabled,
            quietStart: row.quiet_start,
            quietEnd: row.quiet_end,
            timeZone: row.time_zone,
            reminders: row.reminders,
            askUpdates: row.ask_updates,
            apiKeyForms: row.api_key_forms,
          },
    ),
    devices: toJson<{ id: string; sealed: string }[]>(row.devices)
      .map((device) => openDevice(sealers, device))
      .filter((device): device is DeliveryTarget => device !== undefined),
    sentBefore: Number(row.sent_before),
    formLocale: row.form_locale ?? undefined,
    savedLocale: row.saved_locale ?? undefined,
    savedTimeZone: row.push_enabled === null ? undefined : row.time_zone,
  }));
}

/** A list of pairs for `in`; an empty one is a pair of nulls, which matches nothing. */
const pairs = (items: SQL[]) => sql`(${items.length === 0 ? sql`(null, null)` : sql.join(items, sql`, `)})`;

/**
 * Settles rows that ended in one statement: deletes those that are done (each only while it is still
 * this claim's: same id and attempt) and records each device's delivery (scoped to its person).
 */
export async function settleBatch(
  db: DbOrTx,
  input: { done: { id: string; attempts: number }[]; delivered: { userId: string; deviceId: string }[]; at: Date },
): Promise<void> {
  if (input.done.length === 0 && input.delivered.length === 0) return;
  const done = pairs(input.done.map((row) => sql`(${row.id}, ${row.attempts}::int)`));
  const delivered = pairs(input.delivered.map((d) => sql`(${d.deviceId}, ${d.userId})`));
  await db.execute(
    sql`with finished as (
          delete from notification_outbox where (id, attempts) in ${done} returning 1),
        seen as (
          update push_subscriptions set last_delivery_at = ${input.at.toISOString()}::timestamptz
           where (id, user_id) in ${delivered} returning 1)
        select (select count(*) from finished) as finished, (select count(*) from seen) as seen`,
  );
}
