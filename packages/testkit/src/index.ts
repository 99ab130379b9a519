export { createTestDatabase, type TestDatabase } from './database.ts';
export { maintenanceUrl, testDatabaseUrl, testDriver } from './test-env.ts';
