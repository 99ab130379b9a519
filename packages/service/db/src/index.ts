export { REAL_TIMERS, type Timers } from '@sess/core';
export { type Breaker, createBreaker } from './breaker.ts';
export { notify } from './bus.ts';
export { type BusCache, type BusCacheOptions, createBusCache } from './bus-cache.ts';
export {
  classifyDatabaseError,
  type DatabaseFailure,
  databaseSessError,
  isConnectFailure,
  isDatabaseUnavailable,
  UNAVAILABLE_RETRY_AFTER_SECONDS,
  UNSTORABLE_INPUT_MESSAGE,
  unavailableMessage,
} from './classify-database-error.ts';
export { assertDataDirFree, DataDirInUseError, isProcessAlive } from './data-dir-lock.ts';
export {
  type AppliedMigrations,
  dumpEmbeddedDatabase,
  EmbeddedDatabaseNotEmptyError,
  type EmbeddedDump,
  EmbeddedDumpUnreadableError,
  hasEmbeddedData,
  restoreEmbeddedDatabase,
} from './embedded-backup.ts';
export { createKeyedGate, type KeyedGate, type KeyedGateOptions } from './keyed-gate.ts';
export { isMigrated, type KnownMigration, knownMigrations, MIGRATIONS_FOLDER, type MigrationReport, migrate } from './migrate.ts';
export { DATABASE_WAIT_DEFAULTS, type OpenDatabaseOptions, openDatabase } from './open-database.ts';
export {
  createPoolGate,
  type DatabaseWaitCode,
  DatabaseWaitError,
  defaultReadReserve,
  type GateKind,
  type PoolGate,
  type PoolStats,
} from './pool-gate.ts';
export { DELETE_CHUNK, deleteInChunks, PreparedSql, queryRows } from './rows.ts';
export {
  apiKeys,
  askRespondents,
  browserSessions,
  formAnswers,
  formRevisions,
  formSessions,
  idempotencyKeys,
  lockOpenCounts,
  mcpHandles,
  mcpTasks,
  memberships,
  notificationOutbox,
  notificationSettings,
  oauthClients,
  oauthCodes,
  oauthGrants,
  oauthRefreshTokens,
  oauthSigningKeys,
  openCounts,
  principalUnfinishedKey,
  pushSubscriptions,
  signInAttempts,
  signingKeys,
  signupTokens,
  userIdentities,
  users,
  vapidKeys,
  webauthnChallenges,
  webauthnCredentials,
  webhookDeliveries,
  webhookEndpoints,
  workspaceOpenKey,
  workspaces,
} from './schema/index.ts';
export type { WebhookAttemptRecord } from './schema/webhooks.ts';
export type { Database, Db, DbOrTx, Driver, NotifyBus, NotifyHandler, Schema, Tx } from './types.ts';
