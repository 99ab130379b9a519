import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLogger } from '@sess/core';
import { type Database, isMigrated, MIGRATIONS_FOLDER, openDatabase } from '@sess/db';
import { loadSigningKeyRing } from '@sess/forms';
import { JWKS_PATH } from '@sess/v1-api';
import {
  deriveCapacity,
  describeCapacity,
  describeOpenFiles,
  FEW_WAITS,
  headroomOf,
  type OpenFileLimit,
  readOpenFileLimit,
} from '../capacity.ts';
import { type Config, ConfigError, embeddedDatabaseDir } from '../config.ts';
import { resolveSecret } from '../secret.ts';
import { loadCommandConfig, SERVER_RECORD_FILE, type ServerRecord } from '../server-record.ts';
import { type CommandIo, exitWith, parseArgs, processIo, UsageError } from './args.ts';

/*
 * `sess doctor`: one line per check, `ok`, `warn` or `FAIL`, each saying what to do. The exit
 * code is 1 when any check fails. A server that is not running is a warning, not a failure:
 * doctor is also run before the first start. A running server that PUBLIC_URL does not reach,
 * or that answers wrongly there, is a failure.
 */

type Status = 'ok' | 'warn' | 'FAIL';
export interface Check {
  status: Status;
  name: string;
  detail: string;
}

/** How long each HTTP probe may take. */
const PROBE_TIMEOUT_MS = 3_000;

/** Where the configured database is, without credentials (a DATABASE_URL can hold a password). */
function describeDatabase(config: Config): string {
  if (!config.databaseUrl) return `embedded PGlite in ${embeddedDatabaseDir(config)}`;
  const url = new URL(config.databaseUrl);
  const host = url.hostname || url.searchParams.get('host') || 'localhost';
  return `PostgreSQL at ${host}${url.port ? `:${url.port}` : ''}${url.pathname}`;
}

function describeConfig(config: Config, server: ServerRecord | undefined): string {
  const recorded = server ? ` (the running Sess's, process ${server.pid}, from ${join(config.dataDir, SERVER_RECORD_FILE)})` : '';
  const parts = [`PUBLIC_URL ${config.publicUrl}${recorded}`];
  if (config.linkUrl !== config.publicUrl) parts.push(`answer links at ${config.linkUrl}`);
  parts.push(`listening on ${config.host}:${config.port}`, `NODE_ENV ${config.nodeEnv}`, describeDatabase(config));
  return parts.join(', ');
}

/** The data dir's secret, only when it already exists: doctor never creates one. */
async function existingSecret(config: Config): Promise<string | undefined> {
  if (config.secret) return config.secret;
  return existsSync(join(config.dataDir, 'secret')) ? await resolveSecret(config) : undefined;
}

function migrationCount(): number {
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
  return journal.entries.length;
}

/** A GET with a short deadline: the response, or why there is none. */
async function probe(url: string): Promise<{ response: Response } | { failure: string; refused: boolean }> {
  try {
    return { response: await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) }) };
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if ((error as Error).name === 'TimeoutError')
      return { failure: `no answer within ${PROBE_TIMEOUT_MS / 1000} s`, refused: false };
    return { failure: code ?? (error as Error).message, refused: code === 'ECONNREFUSED' };
  }
}

const RAISE_IT = 'raise it (LimitNOFILE= in the systemd unit, ulimits: nofile: in Docker Compose, ulimit -n in a shell)';

/**
 * The open-file limit of this environment (a `sess serve` started the same way gets the same):
 * whether it holds the parked waits it must, with headroom for pages and health beside them and
 * the files the process keeps for itself.
 */
export function checkOpenFiles(config: Config, openFiles: OpenFileLimit | undefined): Check {
  const capacity = deriveCapacity(config, openFiles);
  const limit = openFiles?.soft;
  if (limit === undefined || !Number.isFinite(limit) || !capacity.connections) {
    const detail = `${describeOpenFiles(openFiles)} here, so Sess sets no connection cap of its own: set SESS_MAX_CONNECTIONS below the limit the service gets`;
    return { status: limit === undefined ? 'warn' : 'ok', name: 'open files', detail };
  }
  const { hard } = capacity.connections;
  const waits = capacity.admission.waits;
  const headroom = headroomOf(hard);
  if (config.maxConnections !== undefined && config.maxConnections + capacity.reserve > limit) {
    return {
      status: 'warn',
      name: 'open files',
      detail: `SESS_MAX_CONNECTIONS=${config.maxConnections} and the ${capacity.reserve} files Sess keeps for itself need ${config.maxConnections + capacity.reserve}, but the limit is ${limit}: at the limit new connections are reset. Lower SESS_MAX_CONNECTIONS or ${RAISE_IT}.`,
    };
  }
  const needed = waits + 2 * headroom + capacity.reserve;
  if (config.admission.waits !== undefined && waits > 0 && needed > limit) {
    return {
      status: 'warn',
      name: 'open files',
      detail: `SESS_ADMIT_WAITS=${waits} parked waits, with headroom for pages and health (${2 * headroom}) and the ${capacity.reserve} files Sess keeps, need ${needed}; the limit is ${limit}. Lower SESS_ADMIT_WAITS or ${RAISE_IT}.`,
    };
  }
  if (waits > 0 && waits < FEW_WAITS) {
    return {
      status: 'warn',
      name: 'open files',
      detail: `${describeCapacity(capacity)}: fewer than ${FEW_WAITS} agents and answer pages can wait at once. To hold more, ${RAISE_IT}, e.g. to 65536.`,
    };
  }
  return { status: 'ok', name: 'open files', detail: describeCapacity(capacity) };
}

/** Database, migrations and signing keys, read directly. */
async function checkDatabase(config: Config, database: Database): Promise<Check[]> {
  const checks: Check[] = [];
  try {
    await database.ping();
    checks.push({ status: 'ok', name: 'database', detail: `connected (${describeDatabase(config)})` });
  } catch (error) {
    const code = (error as { code?: string }).code;
    checks.push({
      status: 'FAIL',
      name: 'database',
      detail: `cannot reach ${describeDatabase(config)} (${code ?? (error as Error).message}). Is it running, and is DATABASE_URL right?`,
    });
    return checks;
  }
  const total = migrationCount();
  checks.push(
    (await isMigrated(database.db))
      ? { status: 'ok', name: 'migrations', detail: `all ${total} applied` }
      : {
          status: 'FAIL',
          name: 'migrations',
          detail: `not all ${total} are applied: run \`sess migrate\` (a start applies them too)`,
        },
  );
  const secret = await existingSecret(config);
  if (!secret) {
    checks.push({
      status: 'warn',
      name: 'signing keys',
      detail: `no SESS_SECRET and no ${join(config.dataDir, 'secret')} yet: the first start makes one`,
    });
    return checks;
  }
  try {
    const ring = await loadSigningKeyRing(database.db, secret);
    checks.push(
      ring
        ? { status: 'ok', name: 'signing keys', detail: `active key ${ring.signer.kid} opens with the secret` }
        : {
            status: 'ok',
            name: 'signing keys',
            detail: 'none yet: the first is made when a receipt is first signed or the JWKS first read',
          },
    );
  } catch {
    checks.push({
      status: 'FAIL',
      name: 'signing keys',
      detail:
        'the active key cannot be opened with this secret: restore the SESS_SECRET (or data dir secret) it was made with, or run `sess keys rotate` for a new key',
    });
  }
  return checks;
}

/** The running server that holds the embedded database, asked over HTTP instead. */
async function checkThroughServer(config: Config, pid: string): Promise<Check[]> {
  const ready = await probe(`${config.publicUrl}/readyz`);
  if ('failure' in ready) {
    return [
      {
        status: 'FAIL',
        name: 'database',
        detail: `the embedded database is in use by process ${pid}, but ${config.publicUrl}/readyz does not answer (${ready.failure}): is that process this Sess, and PUBLIC_URL its address?`,
      },
    ];
  }
  const body = (await ready.response.json().catch(() => ({}))) as { status?: string };
  const checks: Check[] = [
    ready.response.status === 200
      ? {
          status: 'ok',
          name: 'database',
          detail: `in use by the running Sess (process ${pid}); it reports the database ready and migrated`,
        }
      : {
          status: 'FAIL',
          name: 'database',
          detail: `in use by the running Sess (process ${pid}), which reports "${body.status ?? ready.response.status}"`,
        },
  ];
  const jwks = await probe(`${config.publicUrl}${JWKS_PATH}`);
  const keys =
    'response' in jwks && jwks.response.ok ? ((await jwks.response.json()) as { keys?: Array<{ kid: string }> }).keys : undefined;
  checks.push(
    keys && keys.length > 0
      ? { status: 'ok', name: 'signing keys', detail: `the running Sess publishes ${keys.map((k) => k.kid).join(', ')}` }
      : { status: 'FAIL', name: 'signing keys', detail: `the running Sess publishes no receipt key at ${JWKS_PATH}` },
  );
  return checks;
}

/** PUBLIC_URL reached from this machine: health, and the OAuth metadata naming PUBLIC_URL as its issuer. */
async function checkPublicUrl(config: Config, serverExpected: boolean): Promise<Check> {
  const health = await probe(`${config.publicUrl}/healthz`);
  if ('failure' in health) {
    if (health.refused && !serverExpected) {
      return {
        status: 'warn',
        name: 'public URL',
        detail: `${config.publicUrl} is not running (start it with npm start), so it was not checked`,
      };
    }
    return {
      status: 'FAIL',
      name: 'public URL',
      detail: `${config.publicUrl}/healthz cannot be reached from here (${health.failure})`,
    };
  }
  if (health.response.status !== 200) {
    return {
      status: 'FAIL',
      name: 'public URL',
      detail: `${config.publicUrl}/healthz answered HTTP ${health.response.status}: a wrong Host, or another service on that address?`,
    };
  }
  const metadata = await probe(`${config.publicUrl}/.well-known/oauth-authorization-server`);
  const issuer =
    'response' in metadata && metadata.response.ok ? ((await metadata.response.json()) as { issuer?: string }).issuer : undefined;
  if (issuer !== config.publicUrl) {
    return {
      status: 'FAIL',
      name: 'public URL',
      detail: `${config.publicUrl} answers, but its OAuth metadata names ${issuer ? `issuer ${issuer}` : 'no issuer'}: is it this Sess, started with the same PUBLIC_URL?`,
    };
  }
  return {
    status: 'ok',
    name: 'public URL',
    detail: `${config.publicUrl} answers /healthz and its OAuth metadata (issuer ${issuer})`,
  };
}

export async function runDoctor(args: readonly string[], io: CommandIo): Promise<number> {
  try {
    const { positionals } = parseArgs(args, {});
    if (positionals.length > 0) throw new UsageError('usage: sess doctor');
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`sess: ${error.message}\n`);
    return 2;
  }
  const checks: Check[] = [];
  const print = (check: Check) => {
    checks.push(check);
    io.stdout.write(`${check.status.padEnd(5)} ${check.name.padEnd(14)} ${check.detail}\n`);
  };
  let config: Config;
  let server: ServerRecord | undefined;
  try {
    ({ config, server } = loadCommandConfig(io.env));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    print({
      status: 'FAIL',
      name: 'configuration',
      detail: `${error.message} Fix it in the environment, then run sess doctor again.`,
    });
    return 1;
  }
  print({ status: 'ok', name: 'configuration', detail: describeConfig(config, server) });
  print(checkOpenFiles(config, readOpenFileLimit()));

  // A server that recorded itself in the data dir is running: its address must answer.
  let serverExpected = server !== undefined;
  const dataDir = embeddedDatabaseDir(config);
  if (!config.databaseUrl && !existsSync(join(dataDir, 'PG_VERSION'))) {
    print({
      status: 'warn',
      name: 'database',
      detail: `no embedded database in ${dataDir} yet: the first start (npm start) creates it`,
    });
  } else {
    // Quiet: a failed connection is this check's line, not a log.
    const logger = createLogger({ level: 'silent' });
    let database: Database | undefined;
    try {
      database = await openDatabase({ url: config.databaseUrl, dataDir, poolMax: 1, logger, pingTimeoutMs: 5_000 });
    } catch (error) {
      const lockedBy = /in use by process (\d+)/.exec((error as Error).message)?.[1];
      if (!lockedBy) {
        print({
          status: 'FAIL',
          name: 'database',
          detail: `cannot open ${describeDatabase(config)}: ${(error as Error).message}`,
        });
      } else {
        serverExpected = true;
        for (const check of await checkThroughServer(config, lockedBy)) print(check);
      }
    }
    if (database) {
      try {
        for (const check of await checkDatabase(config, database)) print(check);
      } finally {
        await database.close().catch(() => {});
      }
    }
  }
  print(await checkPublicUrl(config, serverExpected));
  const failed = checks.filter((c) => c.status === 'FAIL').map((c) => c.name);
  const warned = checks.filter((c) => c.status === 'warn').length;
  io.stdout.write(
    failed.length > 0
      ? `\n${failed.length} check(s) failed: ${failed.join(', ')}.\n`
      : `\n${warned > 0 ? `No check failed (${warned} warning(s)).` : 'All checks passed.'}\n`,
  );
  return failed.length > 0 ? 1 : 0;
}

/** `sess doctor` from the command line. */
export function doctorCommand(): Promise<void> {
  return exitWith(runDoctor(process.argv.slice(3), processIo()));
}
