import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { type MigrationMeta, readMigrationFiles } from 'drizzle-orm/migrator';
import { queryRows } from './rows.ts';
import type { Db } from './types.ts';

/**
 * The committed SQL migrations at the repository's top level, found by walking up from this
 * module, so it resolves the same from the sources and from a bundled build in dist/.
 */
export const MIGRATIONS_FOLDER = findMigrationsFolder(dirname(fileURLToPath(import.meta.url)));

function findMigrationsFolder(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'migrations');
    if (existsSync(join(candidate, 'meta', '_journal.json'))) return candidate;
    if (dirname(dir) === dir) throw new Error(`No migrations/ folder found above ${from}.`);
  }
}

// An arbitrary constant shared by every replica: the key of the migration advisory lock.
const MIGRATION_LOCK_KEY = 7_368_024_417;

let cached: MigrationMeta[] | undefined;
function migrationFiles(): MigrationMeta[] {
  cached ??= readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER });
  return cached;
}

/** A committed migration as the journal names it: its tag (file name) and its `when`, the order drizzle applies them in. */
export interface KnownMigration {
  tag: string;
  when: number;
}

let journal: KnownMigration[] | undefined;
/** Every committed migration, oldest first (`migrations/meta/_journal.json`). */
export function knownMigrations(): KnownMigration[] {
  journal ??= (
    JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: KnownMigration[] }
  ).entries.map(({ tag, when }) => ({ tag, when }));
  return journal;
}

export interface MigrationReport {
  applied: number;
  total: number;
}

/**
 * Applies every pending migration in one transaction, without the pool's lock and statement
 * timeouts, that first takes a transaction-scoped advisory lock, so replicas starting together apply each migration exactly once: the others
 * wait on the lock, then find nothing left to do. Bookkeeping uses drizzle-kit's own table
 * (`drizzle.__drizzle_migrations`), so drizzle tooling sees the same history.
 */
export async function migrate(db: Db): Promise<MigrationReport> {
  const migrations = migrationFiles();
  return db.transaction(async (tx) => {
    // The pool's lock and statement timeouts bound requests, not this: a replica waits for the
    // one migrating, and a migration may wait for a busy table or build an index for minutes.
    await tx.execute(sql`select set_config('lock_timeout', '0', true), set_config('statement_timeout', '0', true)`);
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
    await tx.execute(sql`create schema if not exists drizzle`);
    await tx.execute(
      sql`create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)`,
    );
    const done = await queryRows<{ created_at: string | number }>(
      tx,
      sql`select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`,
    );
    const last = done[0] ? Number(done[0].created_at) : -1;
    let applied = 0;
    for (const migration of migrations) {
      if (migration.folderMillis <= last) continue;
      for (const statement of migration.sql) {
        if (statement.trim()) await tx.execute(sql.raw(statement));
      }
      await tx.execute(
        sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${migration.hash}, ${migration.folderMillis})`,
      );
      applied++;
    }
    return { applied, total: migrations.length };
  });
}

/** True when the newest committed migration is recorded as applied (for /readyz). */
export async function isMigrated(db: Db): Promise<boolean> {
  const migrations = migrationFiles();
  const newest = migrations.at(-1);
  if (!newest) return true;
  try {
    const rows = await queryRows<{ n: string | number }>(
      db,
      sql`select count(*) as n from drizzle.__drizzle_migrations where created_at = ${newest.folderMillis}`,
    );
    return Number(rows[0]?.n ?? 0) > 0;
  } catch {
    return false;
  }
}
