import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import {
  assertDataDirFree,
  DataDirInUseError,
  dumpEmbeddedDatabase,
  EmbeddedDatabaseNotEmptyError,
  EmbeddedDumpUnreadableError,
  knownMigrations,
  restoreEmbeddedDatabase,
} from '@sess/db';
import serverPackage from '../../package.json' with { type: 'json' };
import { type Config, ConfigError, embeddedDatabaseDir, loadConfig } from '../config.ts';
import { type CommandIo, exitWith, parseArgs, processIo, UsageError } from './args.ts';
import { BackupFileError, type BackupManifest, decodeBackup, encodeBackup, secretFingerprint } from './backup-file.ts';

export const BACKUP_USAGE = 'sess backup <file> [--force]';
export const RESTORE_USAGE = 'sess restore <file> [--force]';

/** Where the operator finds the procedure for PostgreSQL, and what these commands are not. */
const POSTGRES_PROCEDURE = 'docs/operations-backup.md';

/** This Sess's version, recorded in every backup. */
const SESS_VERSION: string = serverPackage.version;

/** A refusal: printed as `sess: <message>`, exit 1. */
class Refusal extends Error {}

/** The one file argument, `--force`, and the configuration; usage and configuration errors become exit 2. */
function prepare(
  args: readonly string[],
  io: CommandIo,
  usage: string,
): { file: string; force: boolean; config: Config } | number {
  try {
    const { flags, positionals } = parseArgs(args, { flags: ['force'] });
    if (positionals.length !== 1 || positionals[0] === '-') throw new UsageError(`usage: ${usage}`);
    return { file: positionals[0]!, force: flags.has('force'), config: loadConfig(io.env) };
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof ConfigError)) throw error;
    io.stderr.write(`sess: ${error.message}\n`);
    return 2;
  }
}

/** Runs a command body, printing a refusal as one line (exit 1). */
async function refusing(io: CommandIo, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    io.stderr.write(`sess: ${error.message}\n`);
    return 1;
  }
}

function refuseOnPostgres(config: Config, command: 'backup' | 'restore'): void {
  if (!config.databaseUrl) return;
  const tool = command === 'backup' ? 'pg_dump' : 'pg_restore';
  throw new Refusal(
    `DATABASE_URL is set: this Sess keeps its data in PostgreSQL, and \`sess ${command}\` is for the embedded database only. ` +
      `Use ${tool} as ${POSTGRES_PROCEDURE} describes (and keep SESS_SECRET with the backup).`,
  );
}

function serverRunning(error: DataDirInUseError, then: string): Refusal {
  return new Refusal(
    `the server is running (pid ${error.holder}) on the embedded database in ${error.dataDir}; stop it first, then ${then}.`,
  );
}

/** Refuses at once while a server holds the data dir (checked again, under the lock, when the files are touched). */
function refuseWhileRunning(dataDir: string, then: string): void {
  try {
    if (existsSync(dataDir)) assertDataDirFree(dataDir);
  } catch (error) {
    if (error instanceof DataDirInUseError) throw serverRunning(error, then);
    throw error;
  }
}

const BACKUP_AGAIN = 'run sess backup again (a copy taken under it could not be consistent)';
const RESTORE_AGAIN = 'restore (nothing was changed)';

/** The generated secret file of the data dir, when there is one (resolveSecret's file; it trims it too). */
function readSecretFile(config: Config): Buffer | undefined {
  const path = join(config.dataDir, 'secret');
  return existsSync(path) ? readFileSync(path) : undefined;
}

const secretOf = (file: Buffer) => file.toString('utf8').trim();

function migrationTag(when: number): string {
  return knownMigrations().find((m) => m.when === when)?.tag ?? `a migration this Sess does not know (${when})`;
}

function describeMigrations(migrations: BackupManifest['migrations']): string {
  return migrations.last ? `${migrations.count} migrations, the newest ${migrations.last.tag}` : 'no migrations';
}

/** Writes `bytes` to `file` readable by its owner only, through a temporary file beside it, so a cut-off write leaves no half backup under the name. */
function writePrivate(file: string, bytes: Buffer): void {
  const partial = join(dirname(file), `.${basename(file)}.partial-${process.pid}`);
  writeFileSync(partial, bytes, { mode: 0o600 });
  chmodSync(partial, 0o600);
  renameSync(partial, file);
}

/** `sess backup <file>`: the embedded database (and the generated secret) in one file. */
export function runBackup(args: readonly string[], io: CommandIo): Promise<number> {
  const prepared = prepare(args, io, BACKUP_USAGE);
  if (typeof prepared === 'number') return Promise.resolve(prepared);
  const { file, force, config } = prepared;
  return refusing(io, async () => {
    refuseOnPostgres(config, 'backup');
    const dataDir = embeddedDatabaseDir(config);
    refuseWhileRunning(dataDir, BACKUP_AGAIN);
    if (existsSync(file) && !force) throw new Refusal(`${file} exists; give another name, or pass --force to replace it.`);
    if (!existsSync(join(dataDir, 'PG_VERSION'))) {
      throw new Refusal(`there is no embedded database in ${dataDir} to back up (SESS_DATA_DIR is ${config.dataDir}).`);
    }
    // The secret as the server would take it: SESS_SECRET first, else the data dir's file.
    const secretFile = config.secret ? undefined : readSecretFile(config);
    const secret = config.secret ?? (secretFile ? secretOf(secretFile) : undefined);
    let dump: Awaited<ReturnType<typeof dumpEmbeddedDatabase>>;
    try {
      dump = await dumpEmbeddedDatabase(dataDir);
    } catch (error) {
      if (error instanceof DataDirInUseError)
        throw serverRunning(error, 'run sess backup again (a copy taken under it could not be consistent)');
      throw error;
    }
    const last = dump.migrations.lastWhen;
    const manifest: Omit<BackupManifest, 'format' | 'parts'> = {
      createdAt: new Date().toISOString(),
      sessVersion: SESS_VERSION,
      postgresVersion: dump.postgresVersion,
      migrations: { count: dump.migrations.count, last: last === null ? null : { tag: migrationTag(last), when: last } },
      secret: {
        source: config.secret ? 'SESS_SECRET' : secretFile ? 'file' : 'none',
        fingerprint: secret ? secretFingerprint(secret) : null,
      },
    };
    const bytes = encodeBackup(manifest, [
      { name: 'pgdata.tar.gz', bytes: dump.tarball },
      ...(secretFile ? [{ name: 'secret' as const, bytes: secretFile }] : []),
    ]);
    writePrivate(file, bytes);
    io.stdout.write(
      `Backed up the embedded database in ${dataDir} to ${file} (${(bytes.length / 1024 / 1024).toFixed(1)} MB; ${describeMigrations(manifest.migrations)}; Sess ${SESS_VERSION}).\n`,
    );
    io.stdout.write(
      manifest.secret.source === 'file'
        ? `It holds the server secret (${join(config.dataDir, 'secret')}) and every answer: keep it as private as the data dir.\n`
        : manifest.secret.source === 'SESS_SECRET'
          ? 'SESS_SECRET is not in it: keep that value with the backup, a restore needs the same one. Keep the file private: it holds every answer.\n'
          : `There was no server secret yet (no SESS_SECRET, no ${join(config.dataDir, 'secret')}). Keep the file private: it holds every answer.\n`,
    );
    return 0;
  });
}

/** Refuses a backup whose database is newer than this Sess's migrations, or whose secret will not be the one in effect. */
function checkRestorable(file: string, manifest: BackupManifest, secretPart: Buffer | undefined, config: Config): void {
  const newest = knownMigrations().at(-1);
  const last = manifest.migrations.last;
  if (last && (!newest || last.when > newest.when)) {
    throw new Refusal(
      `${file} was made by a newer Sess (${manifest.sessVersion}, migration ${last.tag}); this Sess (${SESS_VERSION}) knows migrations up to ${newest?.tag ?? 'none'}: upgrade Sess, then restore. Nothing was changed.`,
    );
  }
  const expected = manifest.secret.fingerprint;
  if (!expected) return;
  // The secret the restored server will run with: SESS_SECRET, else the secret file after the restore.
  const existingFile = readSecretFile(config);
  const inEffect = config.secret ?? (secretPart ? secretOf(secretPart) : existingFile ? secretOf(existingFile) : undefined);
  if (inEffect && secretFingerprint(inEffect) === expected) return;
  const why = 'the signing keys, OAuth keys and sealed values in it open only under the secret it was made with';
  if (config.secret) {
    throw new Refusal(
      `SESS_SECRET is not the secret ${file} was made with (${why}). Set SESS_SECRET to that one${secretPart ? ', or unset it to use the secret in the backup' : ''}, then restore. Nothing was changed.`,
    );
  }
  throw new Refusal(
    `${file} was made with SESS_SECRET set and does not hold it (${why}): set SESS_SECRET to that value, then restore. Nothing was changed.`,
  );
}

/** Puts the backup's secret file in place; a different one already there is moved into `asideDir` first. */
function restoreSecretFile(config: Config, secretPart: Buffer, asideDir: string): string | undefined {
  const path = join(config.dataDir, 'secret');
  let movedTo: string | undefined;
  if (existsSync(path)) {
    if (readFileSync(path).equals(secretPart)) return undefined;
    mkdirSync(asideDir, { recursive: true, mode: 0o700 });
    movedTo = join(asideDir, 'secret');
    renameSync(path, movedTo);
  }
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  writePrivate(path, secretPart);
  return movedTo;
}

/** `sess restore <file>`: a backup back into the embedded data dir, the data it replaces kept aside. */
export function runRestore(args: readonly string[], io: CommandIo): Promise<number> {
  const prepared = prepare(args, io, RESTORE_USAGE);
  if (typeof prepared === 'number') return Promise.resolve(prepared);
  const { file, force, config } = prepared;
  return refusing(io, async () => {
    refuseOnPostgres(config, 'restore');
    const dataDir = embeddedDatabaseDir(config);
    refuseWhileRunning(dataDir, RESTORE_AGAIN);
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') throw new Refusal(`${file} does not exist. Nothing was changed.`);
      if (code === 'EISDIR') throw new Refusal(`${file} is a directory, not a Sess backup. Nothing was changed.`);
      throw error;
    }
    let decoded: ReturnType<typeof decodeBackup>;
    try {
      decoded = decodeBackup(bytes);
    } catch (error) {
      if (error instanceof BackupFileError) throw new Refusal(`${file} ${error.message} Nothing was changed.`);
      throw error;
    }
    const { manifest, parts } = decoded;
    const secretPart = parts.get('secret');
    checkRestorable(file, manifest, secretPart, config);
    const asideDir = resolve(config.dataDir, `before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    let restored: Awaited<ReturnType<typeof restoreEmbeddedDatabase>>;
    try {
      restored = await restoreEmbeddedDatabase({
        dataDir,
        tarball: parts.get('pgdata.tar.gz')!,
        replace: force,
        asideDir: join(asideDir, basename(dataDir)),
      });
    } catch (error) {
      if (error instanceof DataDirInUseError) throw serverRunning(error, RESTORE_AGAIN);
      if (error instanceof EmbeddedDatabaseNotEmptyError) {
        throw new Refusal(
          `${dataDir} already holds a database. Pass --force to replace it: the current one is then moved to ${config.dataDir}/before-restore-<time>/, not deleted. Nothing was changed.`,
        );
      }
      if (error instanceof EmbeddedDumpUnreadableError)
        throw new Refusal(`${file} could not be restored: ${error.message}. Nothing was changed.`);
      throw error;
    }
    const secretMovedTo = secretPart ? restoreSecretFile(config, secretPart, asideDir) : undefined;
    io.stdout.write(
      `Restored ${file} (made ${manifest.createdAt} by Sess ${manifest.sessVersion}; ${describeMigrations(manifest.migrations)}) into ${dataDir}${secretPart ? ', with its server secret' : ''}.\n`,
    );
    if (restored.asideDir || secretMovedTo) {
      io.stdout.write(`What it replaced is kept in ${asideDir}: delete it once the restored Sess is checked.\n`);
    }
    io.stdout.write('Start Sess (npm start): it applies any migration newer than the backup.\n');
    return 0;
  });
}

export function backupCommand(): Promise<void> {
  return exitWith(runBackup(process.argv.slice(3), processIo()));
}

export function restoreCommand(): Promise<void> {
  return exitWith(runRestore(process.argv.slice(3), processIo()));
}
