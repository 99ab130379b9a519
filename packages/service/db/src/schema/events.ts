import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { workspaces } from './accounts.ts';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * What happened to an interaction or an Ask, one row per transition, written by the database's
 * own triggers in the transaction of the change (migration 0018), so no write path can change a
 * form without its event. No form text, answer value, link or address is ever in a row.
 *
 * `pos` is the order rows were written; `seq`, `prev_hash` and `hash` are set a moment after
 * commit by the chain sealer (`@sess/events`), which links each workspace's events into one hash
 * chain in `pos` order. `session_id` is not a foreign key: the audit trail outlives nothing but
 * its workspace.
 */
export const interactionEvents = pgTable(
  'interaction_events',
  {
    pos: bigint('pos', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    id: text('id').notNull(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    sessionId: text('session_id').notNull(),
    kind: text('kind', { enum: ['interaction', 'ask'] }).notNull(),
    type: text('type').notNull(),
    at: at('at').notNull(),
    revision: integer('revision'),
    /** An Ask's respondent (`rsp_…`, an opaque id); never a person's account or address. */
    respondent: text('respondent'),
    /** `notified`: which way (`push`, `email`). */
    channel: text('channel'),
    /** `answered`: the answer's event id, the `jti` of its receipt. */
    responseEventId: text('response_event_id'),
    /** `answered`: the level it was given at. */
    assurance: text('assurance'),
    seq: bigint('seq', { mode: 'number' }),
    prevHash: text('prev_hash'),
    hash: text('hash'),
  },
  (t) => [
    uniqueIndex('interaction_events_id_key').on(t.id),
    uniqueIndex('interaction_events_workspace_seq_key').on(t.workspaceId, t.seq),
    // A session's timeline, in order.
    index('interaction_events_session_idx').on(t.sessionId, t.pos),
    // The sealer's queue: rows not yet in their chain.
    index('interaction_events_unsealed_idx').on(t.pos).where(sql`${t.seq} is null`),
  ],
);

/** The head of each workspace's event chain: the last sealed event's position and hash. */
export const eventChains = pgTable('event_chains', {
  workspaceId: text('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  seq: bigint('seq', { mode: 'number' }).notNull(),
  hash: text('hash').notNull(),
});
