import { sql } from 'drizzle-orm';
import { boolean, index, integer, json, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { ASSURANCE_LEVELS, workspaces } from './accounts.ts';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * One link (`/s/<token>`): an interaction (one person, revisions one after another) or an Ask
 * (many respondents, one revision). Only the SHA-256 of the link token is stored. `state` holds
 * what an agent or a person did (open → completed | withdrawn); "answered" and "expired" are
 * derived on read from the answers and the clock, so expiry needs no background job.
 *
 * Time: `expires_at` is the deadline as created; `deadline_at` is the current one (moved forward
 * by "Ask for more time" on extendable links, never past `horizon_at`); `closes_at` is the moment
 * the link is over for good (`horizon_at` when extendable, else `expires_at`).
 */
export const formSessions = pgTable(
  'form_sessions',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['interaction', 'ask'] }).notNull(),
    state: text('state', { enum: ['open', 'completed', 'withdrawn'] })
      .notNull()
      .default('open'),
    currentRevision: integer('current_revision').notNull().default(1),
    linkTokenHash: text('link_token_hash').notNull(),
    lifetimeSeconds: integer('lifetime_seconds').notNull(),
    extendable: boolean('extendable').notNull(),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    deadlineAt: at('deadline_at').notNull(),
    horizonAt: at('horizon_at'),
    closesAt: at('closes_at').notNull(),
    extendedAt: at('extended_at'),
    completedAt: at('completed_at'),
    withdrawnAt: at('withdrawn_at'),
    /** Ask settings and counters (null for an interaction). The counters move in the same transaction as their rows. */
    askMax: integer('ask_max'),
    askName: boolean('ask_name'),
    askRespondentSeconds: integer('ask_respondent_seconds'),
    askStarted: integer('ask_started').notNull().default(0),
    askAnswered: integer('ask_answered').notNull().default(0),
    /** An Ask that decides (`respondents.decide`): its rule and quorum as asked, fixed at create. */
    askDecide: text('ask_decide', { enum: ['any', 'all', 'quorum'] }),
    askQuorum: integer('ask_quorum'),
    /** The approvals that decide approve and the rejections that decide reject (the rule, counted at create). */
    askApproveAt: integer('ask_approve_at'),
    askRejectAt: integer('ask_reject_at'),
    askApproved: integer('ask_approved').notNull().default(0),
    askRejected: integer('ask_rejected').notNull().default(0),
    /** pending until the deciding answer is accepted (in its statement); null for an Ask that only collects. */
    askDecision: text('ask_decision', { enum: ['pending', 'approved', 'rejected'] }),
    askDecidedAt: at('ask_decided_at'),
    /** The decision receipt (compact JWS), signed once on the first read after the decision. */
    askDecisionReceipt: text('ask_decision_receipt'),
    /** Named respondents' backups (`respondents.escalate.to`): may start from `ask_escalate_at`, and are notified then. */
    askBackupUserIds: text('ask_backup_user_ids').array(),
    askEscalateAt: at('ask_escalate_at'),
    /** Whether the agent's chat may show the form and take its answer inline (an MCP App); an Ask never is. */
    answerInChat: boolean('answer_in_chat').notNull().default(true),
    /** How sure Sess must be of who answers (the agent's ask, raised to its person's floor). */
    assurance: text('assurance', { enum: ASSURANCE_LEVELS }).notNull().default('link'),
    /** The accounts (user ids) the form is for, at `account` or `passkey`; null: whoever holds the link. */
    forUserIds: text('for_user_ids').array(),
    /** When the person first opened the link's page in a browser (its `opened` event); null until then. */
    openedAt: at('opened_at'),
    /**
     * The next moment the clock may move the form (`lapsed`, `expired`, an Ask's `closed`) and the
     * last such event recorded; kept by the triggers of migration 0018, worked by the clock sweep.
     */
    clockAt: at('clock_at'),
    clockEvent: text('clock_event'),
  },
  (t) => [
    uniqueIndex('form_sessions_link_token_hash_key').on(t.linkTokenHash),
    // listSessions: newest first within a workspace, keyset-paginated on (created_at, id).
    index('form_sessions_workspace_created_idx').on(t.workspaceId, t.createdAt.desc(), t.id.desc()),
    // The plan's open-session count: open rows not yet closed for good.
    index('form_sessions_workspace_open_idx').on(t.workspaceId, t.closesAt).where(sql`${t.state} = 'open'`),
    // The clock sweep's queue.
    index('form_sessions_clock_idx').on(t.clockAt).where(sql`${t.clockAt} is not null`),
  ],
);

/**
 * Each Surface shown on a session, immutable once written; its SHA-256 is what receipts sign.
 * `surface` is `json`, not `jsonb`: jsonb reorders object keys, and a record's rows are shown in
 * the order the agent wrote them (the hash covers that order too).
 */
export const formRevisions = pgTable(
  'form_revisions',
  {
    sessionId: text('session_id')
      .notNull()
      .references(() => formSessions.id, { onDelete: 'cascade' }),
    revision: integer('revision').notNull(),
    workspaceId: text('workspace_id').notNull(),
    surface: json('surface').notNull(),
    surfaceSha256: text('surface_sha256').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.revision] }), index('form_revisions_workspace_idx').on(t.workspaceId)],
);

/**
 * One person of an Ask: their own page token (hashed), their own deadline. A slot is taken from
 * the start until the answer, or until `expires_at` passes unanswered. A named respondent's row
 * carries their account, one row per person.
 */
export const askRespondents = pgTable(
  'ask_respondents',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull(),
    sessionId: text('session_id')
      .notNull()
      .references(() => formSessions.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    name: text('name'),
    startedAt: at('started_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    answeredAt: at('answered_at'),
    /** A named respondent's account (`respondents.people`): their one page of the Ask; null for an Ask anyone with the link answers. */
    userId: text('user_id'),
  },
  (t) => [
    uniqueIndex('ask_respondents_token_hash_key').on(t.tokenHash),
    // One page per named person of an Ask (rows without a user are many, as NULLs are distinct).
    uniqueIndex('ask_respondents_session_user_key').on(t.sessionId, t.userId),
    index('ask_respondents_session_idx').on(t.sessionId, t.expiresAt),
    index('ask_respondents_workspace_idx').on(t.workspaceId),
  ],
);

/**
 * Accepted answers: one per revision of an interaction (the partial unique index makes the
 * first answer win atomically) and one per respondent of an Ask. Each carries its signed receipt.
 */
export const formAnswers = pgTable(
  'form_answers',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull(),
    sessionId: text('session_id')
      .notNull()
      .references(() => formSessions.id, { onDelete: 'cascade' }),
    revision: integer('revision').notNull(),
    respondentId: text('respondent_id').references(() => askRespondents.id, { onDelete: 'cascade' }),
    actionId: text('action_id').notNull(),
    values: jsonb('values').notNull(),
    answerSha256: text('answer_sha256').notNull(),
    receipt: text('receipt').notNull(),
    answeredAt: at('answered_at').notNull(),
    /** Which way the answer came: `link` (the answer page) or `chat` (the form inside the agent's chat). */
    via: text('via', { enum: ['link', 'chat'] })
      .notNull()
      .default('link'),
    /** For `via = 'chat'`: the OAuth principal whose connector carried the answer; null for a link answer. */
    viaPrincipalId: text('via_principal_id'),
    /** The assurance the answer was given at, and who gave it (null at `link`: nobody is known). */
    assurance: text('assurance', { enum: ASSURANCE_LEVELS }).notNull().default('link'),
    answeredByUserId: text('answered_by_user_id'),
    /** At `passkey`: the credential that signed, and the SHA-256 of the WebAuthn assertion. */
    passkeyCredentialId: text('passkey_credential_id'),
    assertionSha256: text('assertion_sha256'),
  },
  (t) => [
    uniqueIndex('form_answers_session_revision_key').on(t.sessionId, t.revision).where(sql`${t.respondentId} is null`),
    uniqueIndex('form_answers_respondent_key').on(t.respondentId).where(sql`${t.respondentId} is not null`),
    index('form_answers_session_idx').on(t.sessionId, t.answeredAt),
    index('form_answers_workspace_idx').on(t.workspaceId),
  ],
);

/**
 * Idempotent writes: the first request with a key stores its response; the same key with the
 * same request replays it, with another request it is refused. A response that carries a link
 * (a create) is stored sealed with the server secret. Rows older than 24 hours are swept.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    requestSha256: text('request_sha256').notNull(),
    status: integer('status').notNull(),
    response: jsonb('response').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.scope, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

/**
 * Receipt signing keys (global, not per tenant). The private JWK is sealed with the server
 * secret (AES-256-GCM, kid bound). At most one `active` and one `previous` key; both are
 * published in the JWKS, `retired` keys are not.
 */
export const signingKeys = pgTable(
  'signing_keys',
  {
    kid: text('kid').primaryKey(),
    alg: text('alg').notNull(),
    publicJwk: jsonb('public_jwk').notNull(),
    sealedPrivateJwk: text('sealed_private_jwk').notNull(),
    status: text('status', { enum: ['active', 'previous', 'retired'] }).notNull(),
    createdAt: at('created_at').notNull(),
    rotatedAt: at('rotated_at'),
  },
  (t) => [
    uniqueIndex('signing_keys_one_active_key').on(t.status).where(sql`${t.status} = 'active'`),
    uniqueIndex('signing_keys_one_previous_key').on(t.status).where(sql`${t.status} = 'previous'`),
  ],
);
