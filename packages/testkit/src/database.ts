import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newSecret } from '@sess/core';
import { type Database, openDatabase } from '@sess/db';
import postgres from 'postgres';
import { inject } from 'vitest';
import { maintenanceUrl, testDatabasePrefix, testDriver, withDatabase } from './test-env.ts';

export interface TestDatabase extends Database {
  /** PostgreSQL: this test database's URL (for a second "replica" or raw connections). */
  readonly url?: string;
  /** PGlite: this test database's data directory. */
  readonly dataDir?: string;
  /** Closes and deletes the database. */
  destroy(): Promise<void>;
}

/**
 * A fresh database of this project's driver, private to the caller: migrated by default
 * (PostgreSQL: `CREATE DATABASE … TEMPLATE` the run's migrated template; PGlite: a copy of the
 * migrated template directory), or empty with `migrated: false`.
 */
export async function createTestDatabase(options: { poolMax?: number; migrated?: boolean } = {}): Promise<TestDatabase> {
  const migrated = options.migrated ?? true;
  if (testDriver() === 'postgres') {
    const template = inject('pgTemplate');
    const name = `${testDatabasePrefix(template)}${newSecret(9)
      .toLowerCase()
      .replace(/[^a-z0-9]/g, 'x')}`;
    const admin = postgres(maintenanceUrl(), { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`create database "${name}"${migrated ? ` template "${template}"` : ''}`);
    } finally {
      await admin.end({ timeout: 5 });
    }
    const url = new URL(withDatabase(maintenanceUrl(), name));
    const database = await openDatabase({ url: url.toString(), poolMax: options.poolMax ?? 10 });
    return {
      ...database,
      url: url.toString(),
      async destroy() {
        await database.close();
        const drop = postgres(maintenanceUrl(), { max: 1, onnotice: () => {} });
        try {
          await drop.unsafe(`drop database if exists "${name}" with (force)`);
        } finally {
          await drop.end({ timeout: 5 });
        }
      },
    };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'sess-pglite-test-'));
  if (migrated) {
    cpSync(inject('pgliteTemplate'), dataDir, { recursive: true });
    rmSync(join(dataDir, 'sess.lock'), { force: true });
  }
  const database = await openDatabase({ dataDir });
  return {
    ...database,
    dataDir,
    async destroy() {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
