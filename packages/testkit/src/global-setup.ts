import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate, openDatabase } from '@sess/db';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { isDefaultRunDatabase, maintenanceUrl, runDatabaseName, testDatabasePrefix, testDatabaseUrl } from './test-env.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PostgreSQL: the migrated database each test database is copied from. */
    pgTemplate: string;
    /** PGlite: the migrated data directory each test database is copied from. */
    pgliteTemplate: string;
  }
}

/**
 * Runs once per vitest project. Migrations are applied exactly as in production, once, into a
 * template; every test file then gets its own copy (CREATE DATABASE … TEMPLATE, or a copied
 * PGlite directory), so files never share rows and never wait on each other's migrations.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const driver = project.config.env?.SESS_TEST_DRIVER;
  if (driver === 'postgres') {
    const admin = postgres(maintenanceUrl(), { max: 1, onnotice: () => {} });
    const template = runDatabaseName();
    const stale = await admin<
      { datname: string }[]
    >`select datname from pg_database where datname like ${`${testDatabasePrefix(template)}%`}`;
    for (const { datname } of stale) await admin.unsafe(`drop database if exists "${datname}" with (force)`);
    await admin.unsafe(`drop database if exists "${template}" with (force)`);
    await admin.unsafe(`create database "${template}"`);
    const database = await openDatabase({ url: testDatabaseUrl(), poolMax: 1 });
    await migrate(database.db);
    await database.close();
    project.provide('pgTemplate', template);
    project.provide('pgliteTemplate', '');
    return async () => {
      const left = await admin<
        { datname: string }[]
      >`select datname from pg_database where datname like ${`${testDatabasePrefix(template)}%`}`;
      for (const { datname } of left) await admin.unsafe(`drop database if exists "${datname}" with (force)`);
      if (isDefaultRunDatabase()) await admin.unsafe(`drop database if exists "${template}" with (force)`);
      await admin.end({ timeout: 5 });
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'sess-pglite-template-'));
  const database = await openDatabase({ dataDir: dir });
  await migrate(database.db);
  await database.close();
  project.provide('pgliteTemplate', dir);
  project.provide('pgTemplate', '');
  return async () => rmSync(dir, { recursive: true, force: true });
}
