import { type DbOrTx, notify, queryRows } from '@sess/db';
import { type SQL, sql } from 'drizzle-orm';
import { reachablePredicate } from './reach.ts';
import type { NotifySealers } from './sealers.ts';
import { topicOf } from './topic.ts';

/** Who a form is for: the OAuth grant's person, or (an API key's form) the workspace's owners who chose so. */
export type NoticeRecipient = { userId: string } | { workspaceOwners: true };

/** An Ask's named respondents (`respondents.people`), each told on their own devices. */
export type PeopleRecipient = { userIds: readonly string[] };

/** What an outbox row carries, sealed: the form's title and its link. */
export interface NoticePayload {
  title: string;
  url: string;
}

export interface FormNotice {
  workspaceId: string;
  sessionId: string;
  recipient: NoticeRecipient | PeopleRecipient;
  /** `form`: a new form; `follow_up`: sess_publish showed a new revision on the same link. */
  kind: 'form' | 'follow_up';
  title: string;
  url: string;
  /** When the link lapses: the push's TTL ends there and the row is dropped after it. */
  expiresAt: Date;
  now: Date;
  /** Sent from then on, not at once (an Ask's backup people); never with a reminder. */
  notBefore?: Date | undefined;
}

export interface AskNotice {
  workspaceId: string;
  sessionId: string;
  recipient: NoticeRecipient;
  title: string;
  url: string;
  /** The Ask's deadline: its close is told then, unless its cap closes it first. */
  expiresAt: Date;
  now: Date;
}

/** An outbox row's payload: the form's title and link, sealed to its session. */
function sealPayload(sealers: NotifySealers, notice: { sessionId: string; title: string; url: string }): string {
  return sealers.outbox.seal(notice.sessionId, JSON.stringify({ title: notice.title, url: notice.url } satisfies NoticePayload));
}

/** How long before an unanswered link lapses its reminder goes: a quarter of its life, at most an hour. */
export function reminderAt(createdAt: Date, expiresAt: Date): Date {
  const life = expiresAt.getTime() - createdAt.getTime();
  return new Date(expiresAt.getTime() - Math.min(60 * 60_000, Math.floor(life / 4)));
}

/**
 * The people a notice is for who have a channel that can reach them (SQL; joined by the
 * enqueues). `who` picks them among the workspace's members `m` (users `u`, settings `s`).
 */
function recipientsWhere(who: SQL, workspaceId: SQL, emailAvailable: SQL) {
  return sql`
    select u.id as user_id, coalesce(s.reminders, false) as reminders, coalesce(s.ask_updates, 'closed') as ask_updates
      from users u
      join memberships m on m.user_id = u.id and m.workspace_id = ${workspaceId}
      left join notification_settings s on s.user_id = u.id
     where ${who}
       and ${reachablePredicate(emailAvailable)}`;
}

/** The owners who chose to hear of forms made with the workspace's API keys. */
const API_KEY_FORM_OWNERS = sql`m.role = 'owner' and coalesce(s.api_key_forms, false)`;

function recipients(recipient: NoticeRecipient | PeopleRecipient, workspaceId: string, emailAvailable: boolean) {
  const who =
    'userId' in recipient
      ? sql`u.id = ${recipient.userId}`
      : 'userIds' in recipient
        ? sql`u.id in (select json_array_elements_text(${JSON.stringify(recipient.userIds)}::json))`
        : API_KEY_FORM_OWNERS;
  return recipientsWhere(who, sql`${workspaceId}`, sql`${emailAvailable}::boolean`);
}

/**
 * Whether a form made with one of the workspace's API keys would tell anyone: an owner who chose
 * "API key forms" and has a channel that reaches them (the people `enqueueFormNotice` writes rows
 * for with `{ workspaceOwners: true }`). One indexed read; /v1 asks it before a create.
 */
export async function workspaceOwnersWantApiKeyForms(
  db: DbOrTx,
  workspaceId: string,
  options: { emailAvailable: boolean },
): Promise<boolean> {
  const rows = await queryRows<{ wanted: boolean }>(
    db,
    sql`select exists (${recipients({ workspaceOwners: true }, workspaceId, options.emailAvailable)}) as wanted`,
  );
  return rows[0]?.wanted === true;
}

/**
 * The bus channel that wakes the workers. Each enqueue sends on it in the caller's transaction,
 * so the wake is delivered on commit (and never for a rolled-back form).
 */
export const OUTBOX_CHANNEL = 'notify_outbox';

async function wakeWorkers(db: DbOrTx, added: number): Promise<void> {
  if (added > 0) await notify(db, OUTBOX_CHANNEL, '');
}

const NEW_ID = sql`'ntf_' || replace(gen_random_uuid()::text, '-', '')`;

/**
 * Writes the notifications of a form into the outbox, in the caller's transaction (so they
 * commit with the form, or not at all): one row per person it is for who has a device or, when
 * e-mail is configured, e-mail on (an Ask's named people: each of them who is a member); and,
 * for a new form, a reminder row for those who chose reminders (never for named people). One
 * statement. Returns true when anyone will be told.
 */
export async function enqueueFormNotice(
  db: DbOrTx,
  sealers: NotifySealers,
  notice: FormNotice,
  options: { emailAvailable: boolean },
): Promise<boolean> {
  const payload = sealPayload(sealers, notice);
  const topic = topicOf(notice.sessionId);
  const now = notice.now.toISOString();
  const due = (notice.notBefore ?? notice.now).toISOString();
  const expires = notice.expiresAt.toISOString();
  const remindAt = reminderAt(notice.now, notice.expiresAt).toISOString();
  // No reminder for an Ask's named people: the outbox knows whether an Ask is open, not whether
  // each of them answered it, so a reminder could reach someone who already did.
  const remindable = !('userIds' in notice.recipient);
  const rows = await queryRows<{ n: number; total: number }>(
    db,
    sql`with r as (${recipients(notice.recipient, notice.workspaceId, options.emailAvailable)}),
         added as (
           insert into notification_outbox (id, user_id, workspace_id, session_id, kind, topic, payload, not_before, expires_at, created_at)
           select ${NEW_ID}, r.user_id, ${notice.workspaceId}, ${notice.sessionId}, ${notice.kind}, ${topic}, ${payload},
                  ${due}::timestamptz, ${expires}::timestamptz, ${now}::timestamptz
             from r
           union all
           select ${NEW_ID}, r.user_id, ${notice.workspaceId}, ${notice.sessionId}, 'reminder', ${topic}, ${payload},
                  ${remindAt}::timestamptz, ${expires}::timestamptz, ${now}::timestamptz
             from r
            where r.reminders and ${notice.kind} = 'form' and ${remindAt}::timestamptz > ${now}::timestamptz
              and ${remindable}::boolean
           returning kind)
       select count(*) filter (where kind <> 'reminder')::int as n, count(*)::int as total from added`,
  );
  await wakeWorkers(db, Number(rows[0]?.total ?? 0));
  return Number(rows[0]?.n ?? 0) > 0;
}

/**
 * A new form's notice as the `notice` create companion writes it (see `FORM_NOTICE_COMPANION`):
 * what `enqueueFormNotice` writes. For a person, the caller already knows their reach (a
 * `ReachCache`; only call this when they are reachable), so the statement looks no one up; the
 * workspace's owners are found in the create's own statement.
 */
export function formNoticeRow(
  sealers: NotifySealers,
  notice: Omit<FormNotice, 'kind' | 'recipient'> & { recipient: NoticeRecipient },
  options: { emailAvailable: boolean; reminders?: boolean },
) {
  return {
    user_id: 'userId' in notice.recipient ? notice.recipient.userId : null,
    reminders: options.reminders === true,
    owners: 'workspaceOwners' in notice.recipient,
    topic: topicOf(notice.sessionId),
    payload: sealPayload(sealers, notice),
    now: notice.now.toISOString(),
    expires_at: notice.expiresAt.toISOString(),
    remind_at: reminderAt(notice.now, notice.expiresAt).toISOString(),
    email: options.emailAvailable,
  };
}

/**
 * The notices of new forms as a create companion (@sess/forms' `CreateCompanion`): for each
 * admitted create with a `notice` row (`formNoticeRow`), the `form` row — and the reminder when
 * they chose reminders — of the person it is for (known reachable), or of each of the
 * workspace's owners who chose API key forms and can be reached, written in the create's own
 * statement, so they commit with the form or not at all. A `form` row counts as written (the
 * create's `notified`). Each written row also wakes the workers (`pg_notify` in its RETURNING,
 * delivered on the statement's commit and never for a create that did not commit; PostgreSQL
 * folds a transaction's identical notifications into one): no second round trip.
 */
export const FORM_NOTICE_COMPANION = {
  name: 'notice',
  insert: sql`insert into notification_outbox (id, user_id, workspace_id, session_id, kind, topic, payload, not_before, expires_at, created_at)
              select ${NEW_ID}, r.user_id, a.workspace_id, a.id, k.kind, n.topic, n.payload, k.not_before, n.expires_at, n.now
                from admitted a
               cross join lateral json_to_record(a.companions -> 'notice') as n(
                 user_id text, reminders boolean, owners boolean, topic text, payload text, now timestamptz,
                 expires_at timestamptz, remind_at timestamptz, email boolean)
               cross join lateral (
                 select n.user_id, n.reminders where n.user_id is not null
                 union all
                 select o.user_id, o.reminders
                   from (${recipientsWhere(API_KEY_FORM_OWNERS, sql`a.workspace_id`, sql`n.email`)}) o
                  where n.owners) r
               cross join lateral (values ('form', n.now), ('reminder', n.remind_at)) as k(kind, not_before)
               where a.companions -> 'notice' is not null
                 and (k.kind = 'form' or (r.reminders and n.remind_at > n.now))
              returning case when kind = 'form' then session_id end as session_id, pg_notify(${OUTBOX_CHANNEL}, '')`,
} as const;

/**
 * Registers the people an Ask tells of its progress (those whose `ask_updates` is not off): an
 * `ask_closed` row due at the deadline, which also marks them as its watchers for
 * `enqueueAskAnswer`. Nobody is told that the Ask was created: they created it. Returns true
 * when anyone watches.
 */
export async function enqueueAskWatch(
  db: DbOrTx,
  sealers: NotifySealers,
  notice: AskNotice,
  options: { emailAvailable: boolean },
): Promise<boolean> {
  const payload = sealPayload(sealers, notice);
  const now = notice.now.toISOString();
  const expires = notice.expiresAt.toISOString();
  const rows = await queryRows<{ n: number }>(
    db,
    sql`with r as (${recipients(notice.recipient, notice.workspaceId, options.emailAvailable)}),
         added as (
           insert into notification_outbox (id, user_id, workspace_id, session_id, kind, topic, payload, not_before, expires_at, created_at)
           select ${NEW_ID}, r.user_id, ${notice.workspaceId}, ${notice.sessionId}, 'ask_closed', ${topicOf(notice.sessionId)}, ${payload},
                  ${expires}::timestamptz, ${expires}::timestamptz + interval '1 day', ${now}::timestamptz
             from r
            where r.ask_updates <> 'off'
           on conflict do nothing
           returning 1)
       select count(*)::int as n from added`,
  );
  // No wake: these rows are due at the deadline, which the workers' poll finds.
  return Number(rows[0]?.n ?? 0) > 0;
}

/**
 * An answer to an Ask, in the answer's transaction: watchers who chose `each_answer` get an
 * `ask_answer` row now; when this answer filled the Ask (`closed`), every watcher's close is
 * moved to now. One statement.
 */
export async function enqueueAskAnswer(db: DbOrTx, input: { sessionId: string; closed: boolean; now: Date }): Promise<void> {
  const now = input.now.toISOString();
  const rows = await queryRows<{ n: number }>(
    db,
    sql`with watch as (
          select o.id, o.user_id, o.workspace_id, o.topic, o.payload, o.expires_at, coalesce(s.ask_updates, 'closed') as ask_updates
            from notification_outbox o
            left join notification_settings s on s.user_id = o.user_id
           where o.session_id = ${input.sessionId} and o.kind = 'ask_closed'),
        closing as (
          update notification_outbox o set not_before = ${now}::timestamptz
            from watch w
           where o.id = w.id and ${input.closed}::boolean and w.ask_updates <> 'off'
          returning 1),
        added as (
          insert into notification_outbox (id, user_id, workspace_id, session_id, kind, topic, payload, not_before, expires_at, created_at)
          select ${NEW_ID}, w.user_id, w.workspace_id, ${input.sessionId}, 'ask_answer', w.topic, w.payload,
                 ${now}::timestamptz, w.expires_at, ${now}::timestamptz
            from watch w
           where not ${input.closed}::boolean and w.ask_updates = 'each_answer'
          returning 1)
      select ((select count(*) from closing) + (select count(*) from added))::int as n`,
  );
  await wakeWorkers(db, Number(rows[0]?.n ?? 0));
}
