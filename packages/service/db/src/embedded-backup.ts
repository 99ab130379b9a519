import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.ts';

/*
 * Backups of the embedded database: the whole PGlite data directory as one gzipped tar
 * (PGlite's own `dumpDataDir`, loaded back with its `loadDataDir`). Both take the data dir's
 * lock, so neither runs beside a Sess that has the files open (a copy under a live single
 * in-process backend could not be consistent); the caller says so with the holder's pid.
 */

const LOCK_FILE = 'sess.lock';

/** How far a database was migrated: how many migrations are recorded, and the newest one's `when` (null: none). */
export interface AppliedMigrations {
  count: number;
  lastWhen: number | null;
}

/** A dump of the embedded database and what it holds. */
export interface EmbeddedDump {
  /** The data directory as a gzipped tar. */
  tarball: Uint8Array;
  migrations: AppliedMigrations;
  /** `server_version` of the embedded PostgreSQL that wrote it (a data dir opens only in the same major). */
  postgresVersion: string;
}

/** A restore was asked into a data dir that already holds files, without leave to replace them. */
export class EmbeddedDatabaseNotEmptyError extends Error {
  override readonly name = 'EmbeddedDatabaseNotEmptyError';
  constructor(readonly dataDir: string) {
    super(`${dataDir} already holds a database.`);
  }
}

/** The tarball could not be opened as a database by this PGlite (damaged, not a dump, or another PostgreSQL major). */
export class EmbeddedDumpUnreadableError extends Error {
  override readonly name = 'EmbeddedDumpUnreadableError';
  constructor(cause: unknown) {
    super(`the embedded PostgreSQL could not open it (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
  }
}

/** True when `dataDir` holds anything but a lock file. */
export function hasEmbeddedData(dataDir: string): boolean {
  return existsSync(dataDir) && readdirSync(dataDir).some((name) => name !== LOCK_FILE);
}

async function readState(pg: PGlite): Promise<Omit<EmbeddedDump, 'tarball'>> {
  const version = await pg.query<{ server_version: string }>('show server_version');
  const table = await pg.query<{ present: boolean }>("select to_regclass('drizzle.__drizzle_migrations') is not null as present");
  let migrations: AppliedMigrations = { count: 0, lastWhen: null };
  if (table.rows[0]?.present) {
    const { rows } = await pg.query<{ count: number; last: string | null }>(
      'select count(*)::int as count, max(created_at)::text as last from drizzle.__drizzle_migrations',
    );
    const last = rows[0]?.last;
    migrations = { count: rows[0]?.count ?? 0, lastWhen: last == null ? null : Number(last) };
  }
  return { migrations, postgresVersion: version.rows[0]?.server_version ?? 'unknown' };
}

async function pglite(): Promise<typeof PGlite> {
  return (await import('@electric-sql/pglite')).PGlite;
}

/**
 * Dumps the embedded database in `dataDir` (PGlite's data directory), holding its lock.
 * @throws DataDirInUseError when a live process (a running Sess) has it open.
 */
export async function dumpEmbeddedDatabase(dataDir: string): Promise<EmbeddedDump> {
  if (!existsSync(join(dataDir, 'PG_VERSION'))) throw new Error(`no embedded database in ${dataDir}`);
  const lock = acquireDataDirLock(dataDir);
  try {
    const pg = await (await pglite()).create(dataDir);
    try {
      const state = await readState(pg);
      // Every commit is then in the data files: the restored copy starts without replaying WAL.
      await pg.query('checkpoint');
      const blob = await pg.dumpDataDir('gzip');
      return { tarball: new Uint8Array(await blob.arrayBuffer()), ...state };
    } finally {
      await pg.close();
    }
  } finally {
    lock.release();
  }
}

/** Loads a dump into the empty directory `dir` and opens it once: only a tarball this PGlite can run passes. */
async function loadAndCheck(dir: string, tarball: Uint8Array): Promise<Omit<EmbeddedDump, 'tarball'>> {
  const pg = await (await pglite()).create(dir, {
    loadDataDir: new Blob([new Uint8Array(tarball)], { type: 'application/x-gzip' }),
  });
  try {
    return await readState(pg);
  } finally {
    await pg.close();
  }
}

/**
 * Restores a dump into `dataDir`. It is loaded into a staging directory beside it and opened
 * there first, so a tarball that does not open changes nothing; then the current directory, if
 * it holds anything, is moved to `asideDir` (never deleted) and the staging one takes its place.
 * The target's lock is held throughout, so no Sess opens either set of files meanwhile.
 * @throws DataDirInUseError when a live process has `dataDir` open.
 * @throws EmbeddedDatabaseNotEmptyError when it holds files and `replace` is false.
 * @throws EmbeddedDumpUnreadableError when the tarball does not open (nothing changed).
 */
export async function restoreEmbeddedDatabase(options: {
  dataDir: string;
  tarball: Uint8Array;
  replace: boolean;
  asideDir: string;
}): Promise<Omit<EmbeddedDump, 'tarball'> & { asideDir: string | undefined }> {
  const dataDir = resolve(options.dataDir);
  mkdirSync(dirname(dataDir), { recursive: true, mode: 0o700 });
  const staging = `${dataDir}.restoring-${process.pid}`;
  let target: DataDirLock | undefined;
  let stagingLock: DataDirLock | undefined;
  let swapped = false;
  try {
    if (existsSync(dataDir)) target = acquireDataDirLock(dataDir);
    const hasData = hasEmbeddedData(dataDir);
    if (hasData && !options.replace) throw new EmbeddedDatabaseNotEmptyError(dataDir);
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { mode: 0o700 });
    let state: Omit<EmbeddedDump, 'tarball'>;
    try {
      state = await loadAndCheck(staging, options.tarball);
    } catch (error) {
      throw new EmbeddedDumpUnreadableError(error);
    }
    // The dump carries the lock file of the process that made it: the restored files get this
    // process's own until they are in place.
    rmSync(join(staging, LOCK_FILE), { force: true });
    stagingLock = acquireDataDirLock(staging);
    let asideDir: string | undefined;
    if (hasData) {
      mkdirSync(dirname(options.asideDir), { recursive: true, mode: 0o700 });
      renameSync(dataDir, options.asideDir);
      asideDir = options.asideDir;
      rmSync(join(asideDir, LOCK_FILE), { force: true });
    } else {
      rmSync(dataDir, { recursive: true, force: true });
    }
    renameSync(staging, dataDir);
    swapped = true;
    return { ...state, asideDir };
  } finally {
    if (!swapped) rmSync(staging, { recursive: true, force: true });
    // After the swap the lock file in `dataDir` is the one taken on the staging files (ours):
    // the target's release removes it, or, when there was no target, it is removed here. A
    // release never touches a lock another process took since.
    if (swapped && !target) rmSync(join(dataDir, LOCK_FILE), { force: true });
    target?.release();
    stagingLock?.release();
  }
}
