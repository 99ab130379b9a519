import type { Driver } from '@sess/db';

/** The PostgreSQL database of this test run (created fresh by .ci/run or by the global setup). */
export function testDatabaseUrl(): string {
  return process.env.SESS_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/sess_test';
}

/** The same server's maintenance database, from which test databases are created and dropped. */
export function maintenanceUrl(): string {
  const url = new URL(testDatabaseUrl());
  url.pathname = '/postgres';
  return url.toString();
}

export function runDatabaseName(): string {
  return new URL(testDatabaseUrl()).pathname.slice(1);
}

/** Which driver this vitest project runs its integration suites on. */
export function testDriver(): Driver {
  const driver = process.env.SESS_TEST_DRIVER;
  if (driver !== 'postgres' && driver !== 'pglite') throw new Error('SESS_TEST_DRIVER must be postgres or pglite');
  return driver;
}

export const TEST_DB_PREFIX = 'sess_t_';
