export { notify } from './bus.ts';
export { isMigrated, MIGRATIONS_FOLDER, type MigrationReport, migrate } from './migrate.ts';
export { type OpenDatabaseOptions, openDatabase } from './open-database.ts';
export { DELETE_CHUNK, deleteInChunks, queryRows } from './rows.ts';
export {
  apiKeys,
  askRespondents,
  browserSessions,
  formAnswers,
  formRevisions,
  formSessions,
  idempotencyKeys,
  mcpHandles,
  memberships,
  oauthClients,
  oauthCodes,
  oauthGrants,
  oauthRefreshTokens,
  oauthSigningKeys,
  signInAttempts,
  signingKeys,
  signupTokens,
  userIdentities,
  users,
  workspaces,
} from './schema/index.ts';
export type { Database, Db, DbOrTx, Driver, NotifyBus, NotifyHandler, Schema, Tx } from './types.ts';
