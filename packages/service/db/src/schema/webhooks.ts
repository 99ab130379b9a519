import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { workspaces } from './accounts.ts';

const at = (name: string) => timestamp(name, { withTimezone: true });

/** One try of a delivery, as the delivery log shows it. No body, header or secret is kept. */
export interface WebhookAttemptRecord {
  at: string;
  /** The receiver's HTTP status, or null when none came (`error` says why). */
  status: number | null;
  durationMs: number;
  /** `timeout`, `network`, `address_not_allowed`, `dns_failed`, `too_large`, `url_not_allowed`, `redirect`, `http_status`; null on a 2xx. */
  error: string | null;
}

/**
 * A workspace's webhook endpoint. The signing secret is sealed with the server secret (bound to
 * the row id); during a rotation the previous one signs too until `previous_secret_until`.
 * `cursor` is the last chain `seq` of the workspace handed to the outbox for this endpoint: the
 * fanout moves it in the transaction that writes the deliveries, so no event is skipped or
 * handed out twice.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    /** The event types sent; an empty array is every type. */
    eventTypes: text('event_types').array().notNull().default(sql`'{}'::text[]`),
    sealedSecret: text('sealed_secret').notNull(),
    sealedPreviousSecret: text('sealed_previous_secret'),
    previousSecretUntil: at('previous_secret_until'),
    disabledAt: at('disabled_at'),
    /** `gone` (the receiver answered 410). */
    disabledReason: text('disabled_reason'),
    cursor: bigint('cursor', { mode: 'number' }).notNull().default(0),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('webhook_endpoints_workspace_idx').on(t.workspaceId)],
);

/**
 * The webhook outbox: one row per endpoint and event, sent after commit by a worker on any
 * replica (`for update skip locked`, a lease in `locked_until`). A row is kept after it ends
 * (`delivered`, `failed` after a day of tries, `dropped` when its endpoint was disabled) for the
 * delivery log, with its last few tries in `last_attempts`.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').notNull(),
    /** The chain event (`iev_…`) or a test event (`wht_…`): the `webhook-id` of every try. */
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'failed', 'dropped'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at').notNull(),
    lockedUntil: at('locked_until'),
    lastAttempts: jsonb('last_attempts').$type<WebhookAttemptRecord[]>().notNull().default(sql`'[]'::jsonb`),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_endpoint_event_key').on(t.endpointId, t.eventId),
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
  ],
);
