import { sql } from 'drizzle-orm';
import { index, integer, json, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { workspaces } from './accounts.ts';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * The MCP adapter's durable records: one per handle an agent holds (`hdl_…`). A handle is bound
 * to the authority that created it (API origin, workspace, principal, OAuth client, grant and
 * grant generation) and carries the adapter state, the saved create intent and the exact
 * publish/complete request saved before dispatch. The link and the answer data are sealed with
 * the server secret (`sealed`) and removed once the handle is finished. `version` is the row's
 * compare-and-set counter: every state change is conditional on the version it read.
 */
export const mcpHandles = pgTable(
  'mcp_handles',
  {
    handle: text('handle').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    principalId: text('principal_id').notNull(),
    clientId: text('client_id').notNull(),
    grantId: text('grant_id').notNull(),
    grantGeneration: integer('grant_generation').notNull(),
    origin: text('origin').notNull(),
    kind: text('kind', { enum: ['interaction', 'ask'] }).notNull(),
    state: text('state', {
      enum: ['create_intent', 'create_unknown', 'waiting', 'answered', 'blocked', 'completed', 'expired', 'cancelled', 'closed'],
    }).notNull(),
    version: integer('version').notNull().default(1),
    sessionId: text('session_id'),
    askId: text('ask_id'),
    revision: integer('revision').notNull().default(1),
    surfaceSha256: text('surface_sha256'),
    title: text('title').notNull(),
    expiresAt: at('expires_at'),
    /** The create intent: idempotency key and request hash, saved before (or with) the create. */
    intent: jsonb('intent'),
    /**
     * The exact publish/complete/cancel request saved before dispatch (body, If-Match, idempotency
     * key). `json`, so a saved Surface is replayed byte for byte, its record rows in their order.
     */
    pending: json('pending'),
    /** The last confirmed mutation, so an identical replay can succeed without a request. */
    confirmed: json('confirmed'),
    /** AES-256-GCM sealed `{ humanUrl, response }`; null once the handle is finished. */
    sealed: text('sealed'),
    blockedReason: text('blocked_reason'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    index('mcp_handles_workspace_idx').on(t.workspaceId),
    // Whose form is this (a timeline's access rule, a task's handle): from the form to its handle.
    index('mcp_handles_session_idx').on(t.sessionId).where(sql`${t.sessionId} is not null`),
    index('mcp_handles_ask_idx').on(t.askId).where(sql`${t.askId} is not null`),
    // sess_list: a principal's handles, newest first, keyset-paginated on (created_at, handle).
    index('mcp_handles_principal_created_idx').on(t.workspaceId, t.principalId, t.createdAt.desc(), t.handle.desc()),
    // The 100-unfinished cap per principal counts these rows.
    index('mcp_handles_principal_unfinished_idx')
      .on(t.workspaceId, t.principalId)
      .where(sql`${t.state} in ('create_intent', 'create_unknown', 'waiting', 'answered', 'blocked')`),
    // The retention sweep deletes finished handles by age.
    index('mcp_handles_finished_updated_idx')
      .on(t.updatedAt)
      .where(sql`${t.state} in ('completed', 'expired', 'cancelled', 'closed')`),
  ],
);

/**
 * The MCP Tasks extension's tasks: a sess_response a client polls (`tasks/get`) instead of
 * waiting. The task id is a bearer-like secret, stored only as its SHA-256 (`task_id_sha256`);
 * every read names the owner (workspace, principal, client). The outcome is never stored: each
 * `tasks/get` reads the handle again without waiting, so any replica answers.
 */
export const mcpTasks = pgTable(
  'mcp_tasks',
  {
    taskIdSha256: text('task_id_sha256').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    principalId: text('principal_id').notNull(),
    clientId: text('client_id').notNull(),
    tool: text('tool', { enum: ['sess_response'] }).notNull(),
    handle: text('handle')
      .notNull()
      .references(() => mcpHandles.handle, { onDelete: 'cascade' }),
    revision: integer('revision').notNull(),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
    cancelledAt: at('cancelled_at'),
  },
  (t) => [index('mcp_tasks_workspace_idx').on(t.workspaceId), index('mcp_tasks_handle_idx').on(t.handle)],
);
