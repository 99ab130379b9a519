import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** How sure Sess must be of who answered a form: whoever holds the link, the signed-in account, or its passkey at the moment of answering. */
export const ASSURANCE_LEVELS = ['link', 'account', 'passkey'] as const;

/** A tenant. Every tenant-owned row carries `workspace_id`; the plan sets its limits. */
export const workspaces = pgTable('workspaces', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  plan: text('plan').notNull().default('free'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** The least assurance of a form made with one of the workspace's API keys (its owners set it). */
  apiKeyAssuranceFloor: text('api_key_assurance_floor', { enum: ASSURANCE_LEVELS }).notNull().default('link'),
});

/** A person who signs in. `password_hash` is null for accounts that only use upstream OIDC. */
export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    displayName: text('display_name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The least assurance of a form this person's agents (their OAuth connections) make: the person's floor wins. */
    assuranceFloor: text('assurance_floor', { enum: ASSURANCE_LEVELS }).notNull().default('link'),
    /** The language this person picked for Sess's pages and e-mails (a BCP 47 tag); null: never picked. */
    locale: text('locale'),
  },
  (t) => [uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`)],
);

/** Who belongs to which workspace, and as what. */
export const memberships = pgTable(
  'memberships',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['owner', 'member'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('memberships_workspace_user_key').on(t.workspaceId, t.userId), index('memberships_user_idx').on(t.userId)],
);

/**
 * Workspace-scoped API keys for /v1. The key itself is shown once and never stored: only its
 * SHA-256 (`key_hash`) and a short public `prefix` that a person can recognise in a list.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('api_keys_key_hash_key').on(t.keyHash), index('api_keys_workspace_idx').on(t.workspaceId)],
);

/**
 * A signed-in browser. The cookie carries a random token; only its SHA-256 (`token_hash`) is
 * stored. `idle_expires_at` moves forward with use but never past `expires_at` (the absolute
 * limit), so a session is live exactly while `now < idle_expires_at`.
 */
export const browserSessions = pgTable(
  'browser_sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    idleExpiresAt: timestamp('idle_expires_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('browser_sessions_token_hash_key').on(t.tokenHash),
    index('browser_sessions_user_idx').on(t.userId),
    index('browser_sessions_idle_expires_idx').on(t.idleExpiresAt),
  ],
);

/**
 * Password sign-in attempts per account, counted here (not in process memory) so the limit
 * holds across replicas. Keyed by the SHA-256 of the normalised e-mail, for known and unknown
 * addresses alike, so the limit itself reveals nothing about which accounts exist.
 */
export const signInAttempts = pgTable(
  'sign_in_attempts',
  {
    emailHash: text('email_hash').primaryKey(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull(),
  },
  (t) => [index('sign_in_attempts_window_idx').on(t.windowStart)],
);

/**
 * One-time links that let someone create an account whatever the sign-up policy allows
 * otherwise: `first_account` (printed by `sess serve` on an empty database) and `invite`
 * (made by a signed-in member; the new account also joins `workspace_id`). Stored only as the
 * SHA-256 of the token; single-use (`used_at`) and expiring.
 */
export const signupTokens = pgTable(
  'signup_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    kind: text('kind', { enum: ['first_account', 'invite'] }).notNull(),
    /** The workspace an invitee joins as a member; null for the first-account link. */
    workspaceId: text('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    usedBy: text('used_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('signup_tokens_workspace_idx').on(t.workspaceId), index('signup_tokens_expires_idx').on(t.expiresAt)],
);

/** An upstream OpenID Provider account linked to a user: `(issuer, subject)` is the identity. */
export const userIdentities = pgTable(
  'user_identities',
  {
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.subject] }), index('user_identities_user_idx').on(t.userId)],
);

/**
 * A person's passkeys (WebAuthn credentials): several per person, named, with the signature
 * counter the last assertion reported. `id` is the credential id (base64url); `public_key` the
 * COSE public key (base64url).
 */
export const webauthnCredentials = pgTable(
  'webauthn_credentials',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').notNull().default([]),
    name: text('name').notNull(),
    deviceType: text('device_type').notNull(),
    backedUp: boolean('backed_up').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('webauthn_credentials_user_idx').on(t.userId)],
);

/**
 * WebAuthn challenges, single-use: only the SHA-256 of each is stored, with what it is for
 * (`register`, `sign_in`, `answer`), whose it is (null for a password-less sign-in, where the
 * account is not known yet), what it is bound to (an answer ceremony: session, revision and the
 * answer's hash) and when it expires. Taking one deletes it.
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    challengeHash: text('challenge_hash').primaryKey(),
    purpose: text('purpose', { enum: ['register', 'sign_in', 'answer'] }).notNull(),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    boundTo: text('bound_to'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('webauthn_challenges_expires_idx').on(t.expiresAt)],
);
