export { notify } from './bus.ts';
export { isMigrated, MIGRATIONS_FOLDER, type MigrationReport, migrate } from './migrate.ts';
export { type OpenDatabaseOptions, openDatabase } from './open-database.ts';
export { queryRows } from './rows.ts';
export { apiKeys, memberships, users, workspaces } from './schema/index.ts';
export type { Database, Db, DbOrTx, Driver, NotifyBus, NotifyHandler, Schema, Tx } from './types.ts';
