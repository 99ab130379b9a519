import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users, workspaces } from './accounts.ts';
import { formSessions } from './forms.ts';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * The deployment's VAPID key pair (RFC 8292), made once on first use: one row, `id = 'vapid'`.
 * The private key is sealed with the server secret; the public key is the
 * `applicationServerKey` every browser subscription is made with, so it never changes.
 */
export const vapidKeys = pgTable('vapid_keys', {
  id: text('id').primaryKey(),
  publicKey: text('public_key').notNull(),
  sealedPrivateKey: text('sealed_private_key').notNull(),
  createdAt: at('created_at').notNull().defaultNow(),
});

/**
 * A browser that takes Web Push for a person ("Notify this device"). The endpoint and its keys
 * are a capability to reach the device, so they are sealed (bound to the row id); the endpoint's
 * SHA-256 finds the row again when the same browser subscribes twice. A device is a person's
 * endpoint: two people who saved the same browser each have their own row, and neither's request
 * changes the other's. The unique index leads with the endpoint, so the renewal (which knows only
 * the old endpoint) finds its rows by it; a person's rows are found by `user_id`'s index.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpointSha256: text('endpoint_sha256').notNull(),
    /** Sealed JSON `{ endpoint, keys: { p256dh, auth } }`. */
    sealed: text('sealed').notNull(),
    name: text('name').notNull(),
    createdAt: at('created_at').notNull(),
    lastDeliveryAt: at('last_delivery_at'),
    lastFailureAt: at('last_failure_at'),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_user_key').on(t.endpointSha256, t.userId),
    index('push_subscriptions_user_idx').on(t.userId),
  ],
);

/** A person's choices; no row means the defaults. */
export const notificationSettings = pgTable('notification_settings', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  pushEnabled: boolean('push_enabled').notNull().default(true),
  emailEnabled: boolean('email_enabled').notNull().default(true),
  /** Quiet hours, minutes after midnight in `time_zone`; both null = none. */
  quietStart: integer('quiet_start'),
  quietEnd: integer('quiet_end'),
  timeZone: text('time_zone').notNull().default('UTC'),
  /** A reminder shortly before an unanswered link lapses. */
  reminders: boolean('reminders').notNull().default(false),
  /** What an Ask this person's agent shared tells them: each answer, the close, or nothing. */
  askUpdates: text('ask_updates', { enum: ['each_answer', 'closed', 'off'] })
    .notNull()
    .default('closed'),
  /** Forms created with an API key of a workspace this person owns notify them too. */
  apiKeyForms: boolean('api_key_forms').notNull().default(false),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/**
 * The outbox: a notification written in the same transaction as the form it tells of, sent
 * after commit by a worker on any replica (`for update skip locked`, a lease in `locked_until`).
 * `payload` is sealed JSON (title and link; bound to the row id). A row is deleted once sent,
 * once its link has lapsed (`expires_at`), or when it can never be sent.
 */
export const notificationOutbox = pgTable(
  'notification_outbox',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    sessionId: text('session_id')
      .notNull()
      .references(() => formSessions.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['form', 'follow_up', 'reminder', 'ask_answer', 'ask_closed'] }).notNull(),
    /** RFC 8030 Topic (also the notification's tag on the device): a later one replaces an earlier one. */
    topic: text('topic').notNull(),
    payload: text('payload').notNull(),
    notBefore: at('not_before').notNull(),
    expiresAt: at('expires_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    lockedUntil: at('locked_until'),
    /**
     * The devices that already accepted this row on an earlier try: a retry (another device
     * failed) pushes only to the others, so a device that showed it is not shown it again.
     */
    sentTo: text('sent_to').array().notNull().default(sql`'{}'::text[]`),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    index('notification_outbox_due_idx').on(t.notBefore),
    index('notification_outbox_session_idx').on(t.sessionId),
    uniqueIndex('notification_outbox_one_ask_close').on(t.sessionId, t.userId).where(sql`${t.kind} = 'ask_closed'`),
  ],
);
