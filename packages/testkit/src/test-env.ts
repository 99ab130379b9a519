import type { Driver } from '@sess/db';

const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/sess_test';

/**
 * The PostgreSQL database of this test run: SESS_TEST_DATABASE_URL (.ci/run creates a fresh one),
 * or by default `sess_test_<pid of the vitest main process>`, so two runs on one server (a
 * developer's and CI's) never share, drop or template each other's databases. Call it in the
 * global setup only; test files get the name through `inject('pgTemplate')`.
 */
export function testDatabaseUrl(): string {
  if (process.env.SESS_TEST_DATABASE_URL) return process.env.SESS_TEST_DATABASE_URL;
  return withDatabase(DEFAULT_URL, `sess_test_${process.pid}`);
}

/** True when the run database is this process's own default (dropped again at the end). */
export function isDefaultRunDatabase(): boolean {
  return !process.env.SESS_TEST_DATABASE_URL;
}

/** The same server's URL with another database name. */
export function withDatabase(url: string, name: string): string {
  const copy = new URL(url);
  copy.pathname = `/${name}`;
  return copy.toString();
}

/** The server's maintenance database, from which test databases are created and dropped. */
export function maintenanceUrl(): string {
  return withDatabase(process.env.SESS_TEST_DATABASE_URL ?? DEFAULT_URL, 'postgres');
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

/** Test databases are named after their run's template, so a run only ever drops its own. */
export function testDatabasePrefix(template: string): string {
  return `${template}_t_`;
}
