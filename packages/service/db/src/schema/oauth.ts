import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users, workspaces } from './accounts.ts';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * OAuth clients of the authorization server. Not a tenant table: a client (Claude, Cursor, …)
 * may be connected to many workspaces. `kind = 'dcr'` rows come from Dynamic Client
 * Registration (id `cli_…`; confidential ones keep only the SHA-256 of their secret);
 * `kind = 'cimd'` rows cache a Client ID Metadata Document (id = the document's https URL),
 * fresh until `metadata_expires_at` (from the document's HTTP caching headers).
 */
export const oauthClients = pgTable(
  'oauth_clients',
  {
    id: text('id').primaryKey(),
    kind: text('kind', { enum: ['dcr', 'cimd'] }).notNull(),
    clientName: text('client_name').notNull(),
    /** Exactly as registered (compared as strings, loopback ports aside). */
    redirectUris: jsonb('redirect_uris').$type<string[]>().notNull(),
    tokenEndpointAuthMethod: text('token_endpoint_auth_method', {
      enum: ['none', 'client_secret_basic', 'client_secret_post'],
    }).notNull(),
    clientSecretHash: text('client_secret_hash'),
    grantTypes: jsonb('grant_types').$type<string[]>().notNull(),
    applicationType: text('application_type', { enum: ['web', 'native'] }),
    /** The metadata as accepted (DCR response / CIMD document after validation). */
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull(),
    /** CIMD only: `fetched` from the URL, or the shipped `pinned` copy used when the fetch failed. */
    metadataSource: text('metadata_source', { enum: ['registered', 'fetched', 'pinned'] }).notNull(),
    metadataExpiresAt: at('metadata_expires_at'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
    lastUsedAt: at('last_used_at'),
  },
  (t) => [index('oauth_clients_kind_created_idx').on(t.kind, t.createdAt)],
);

/**
 * A person's consent: user × workspace × client, at most one row (the unique index). A new
 * consent re-issues the row with `generation + 1`; Disconnect sets `revoked_at` and bumps the
 * generation too. Access tokens carry the generation they were minted under and stop working
 * as soon as the row's generation moves on (the verifier's cache is invalidated through NOTIFY).
 */
export const oauthGrants = pgTable(
  'oauth_grants',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clientId: text('client_id')
      .notNull()
      .references(() => oauthClients.id, { onDelete: 'cascade' }),
    generation: integer('generation').notNull(),
    scope: text('scope').notNull(),
    resource: text('resource').notNull(),
    /** The redirect URI of the latest consent (shown as "redirect host" on the connected-apps page). */
    redirectUri: text('redirect_uri').notNull(),
    createdAt: at('created_at').notNull(),
    consentedAt: at('consented_at').notNull(),
    revokedAt: at('revoked_at'),
    lastUsedAt: at('last_used_at'),
  },
  (t) => [
    uniqueIndex('oauth_grants_user_workspace_client_key').on(t.userId, t.workspaceId, t.clientId),
    index('oauth_grants_workspace_idx').on(t.workspaceId),
    index('oauth_grants_client_idx').on(t.clientId),
  ],
);

/**
 * Authorization codes: only the SHA-256 of the code is stored. Single use (`redeemed_at`, set by
 * one conditional UPDATE), short-lived (`expires_at`), bound to client, redirect URI, PKCE
 * challenge, resource and the grant generation. `issued_family_id` names the refresh-token family
 * the redemption started, so a replay can revoke exactly what the code issued.
 */
export const oauthCodes = pgTable(
  'oauth_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    grantId: text('grant_id')
      .notNull()
      .references(() => oauthGrants.id, { onDelete: 'cascade' }),
    grantGeneration: integer('grant_generation').notNull(),
    clientId: text('client_id').notNull(),
    userId: text('user_id').notNull(),
    redirectUri: text('redirect_uri').notNull(),
    /** False when the authorization request left `redirect_uri` out (then the token request may too). */
    redirectUriGiven: boolean('redirect_uri_given').notNull(),
    codeChallenge: text('code_challenge').notNull(),
    scope: text('scope').notNull(),
    resource: text('resource').notNull(),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    redeemedAt: at('redeemed_at'),
    issuedFamilyId: text('issued_family_id'),
  },
  (t) => [
    index('oauth_codes_workspace_idx').on(t.workspaceId),
    index('oauth_codes_grant_idx').on(t.grantId),
    index('oauth_codes_expires_idx').on(t.expiresAt),
  ],
);

/**
 * Refresh tokens: only the SHA-256 is stored. Every code redemption starts a family; each
 * refresh rotates (the old row gets `rotated_at` and `replaced_by`). For a short grace window the
 * old row keeps `grace_response`: the exact token response it produced, AES-GCM sealed under a
 * key derived from the old token itself, so presenting it again returns the same pair while the
 * database alone can open nothing. Reuse outside the window revokes the whole family.
 */
export const oauthRefreshTokens = pgTable(
  'oauth_refresh_tokens',
  {
    id: text('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    familyId: text('family_id').notNull(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    grantId: text('grant_id')
      .notNull()
      .references(() => oauthGrants.id, { onDelete: 'cascade' }),
    grantGeneration: integer('grant_generation').notNull(),
    clientId: text('client_id').notNull(),
    userId: text('user_id').notNull(),
    scope: text('scope').notNull(),
    resource: text('resource').notNull(),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    rotatedAt: at('rotated_at'),
    replacedBy: text('replaced_by'),
    graceResponse: text('grace_response'),
    revokedAt: at('revoked_at'),
  },
  (t) => [
    uniqueIndex('oauth_refresh_tokens_token_hash_key').on(t.tokenHash),
    index('oauth_refresh_tokens_family_idx').on(t.familyId),
    index('oauth_refresh_tokens_grant_idx').on(t.grantId),
    index('oauth_refresh_tokens_workspace_idx').on(t.workspaceId),
    index('oauth_refresh_tokens_expires_idx').on(t.expiresAt),
  ],
);

/**
 * ES256 keys that sign access tokens (kept apart from the receipt keys in `signing_keys`: one
 * key, one purpose). The private JWK is sealed with the server secret, the kid bound as AAD.
 * Exactly one `active` key (partial unique index); `retired` keys stay published until every
 * token they signed has expired.
 */
export const oauthSigningKeys = pgTable(
  'oauth_signing_keys',
  {
    kid: text('kid').primaryKey(),
    alg: text('alg').notNull(),
    publicJwk: jsonb('public_jwk').$type<{ kty: 'EC'; crv: 'P-256'; x: string; y: string }>().notNull(),
    sealedPrivateJwk: text('sealed_private_jwk').notNull(),
    status: text('status', { enum: ['active', 'retired'] }).notNull(),
    createdAt: at('created_at').notNull(),
    retiredAt: at('retired_at'),
  },
  (t) => [uniqueIndex('oauth_signing_keys_one_active_key').on(t.status).where(sql`${t.status} = 'active'`)],
);
