import { networkInterfaces } from 'node:os';
import { createApiKey, createUserAccount, issueFirstAccountToken } from '@sess/accounts';
import { createLogger } from '@sess/core';
import { type Database, migrate, openDatabase } from '@sess/db';
import { rotateSigningKeys } from '@sess/forms';
import { backupCommand, restoreCommand } from './commands/backup.ts';
import { demoCommand } from './commands/demo.ts';
import { doctorCommand } from './commands/doctor.ts';
import { eventsCommand } from './commands/events.ts';
import { receiptCommand } from './commands/receipt-verify.ts';
import { type Config, ConfigError, embeddedDatabaseDir, loadConfig } from './config.ts';
import { lanAddresses } from './lan-address.ts';
import { resolveSecret } from './secret.ts';
import { startServer } from './server.ts';
import { writeServerRecord } from './server-record.ts';
import { buildStartupText } from './startup-text.ts';

const USAGE = `Usage: sess [command]
  From a checkout: npx sess <command> (e.g. npx sess receipt verify <file>); in a deployment:
  node dist/sess.mjs <command>. Both find the server npm start runs on the same data dir.

Commands:
  serve     Start the server (default). Embedded database unless DATABASE_URL is set.
  migrate   Apply pending database migrations and exit.
  api-key create --workspace <id> --name <name>
            Create a /v1 API key for a workspace; the key is printed once, on stdout.
  user create --email <email>
            Create an account (any sign-up policy); the password is read from stdin (first line).
  keys rotate
            Make a new receipt signing key active; the current one stays published as previous.
  receipt verify <receipt | file | -> [--jwks <url-or-file>] [--issuer <url>]
            Check an answer receipt's signature and print its claims; by default against
            PUBLIC_URL/.well-known/jwks.json. Exit 1 when it is refused, with the reason.
  events export --since <ISO instant> [--until <ISO instant>] [--after <seq>] [--out <file>]
            The workspace's event chain for a date range, as JSON Lines, from this Sess's /v1
            (the API key in SESS_API_KEY).
  events verify <file | ->
            Check an export's hash chain offline: exit 1 at the first changed, missing or added
            event, with its line.
  demo [--no-qr] [--timeout <seconds>]
            The whole loop without an agent (npm run demo): asks a question over /mcp with the
            demo account's API key, prints the link and a QR code, waits, verifies and completes.
  backup <file> [--force]
            Copy the embedded database (and its generated secret) into one file, while the server
            is stopped. With DATABASE_URL, use pg_dump instead (docs/operations-backup.md).
  restore <file> [--force]
            Put a backup back in the data dir; --force replaces a database already there (it is
            kept aside, not deleted). The server must be stopped.
  doctor    Check the configuration, the database, migrations, signing keys and that PUBLIC_URL
            reaches this Sess; one line per check, exit 1 when one fails.
  help      Show this help.
`;

/** What a stop may take beyond its drain and grace: the notification worker's last sends, closing the database. */
const STOP_MARGIN_MS = 10_000;

/** Prints one line for a person and exits: 2 for configuration errors, 1 for anything else. */
function fail(error: unknown): never {
  if (error instanceof ConfigError) {
    process.stderr.write(`sess: ${error.message}\n`);
    process.exit(2);
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`sess: ${message}\n`);
  process.exit(1);
}

async function serve(): Promise<void> {
  const config = loadConfig(process.env);
  // Signals are caught from the very start, so a stop that arrives while the database is
  // still opening also ends cleanly, once start-up has finished.
  let stopRequested: string | undefined;
  let stop = (signal: string) => {
    stopRequested = signal;
  };
  // `on`, not `once`: a second signal during shutdown must not fall through to the default
  // handler and kill the process mid-close (close() is idempotent).
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  const server = await startServer(config);
  // Where the other commands (doctor, receipt verify) find this server when PUBLIC_URL is unset.
  const recordError = writeServerRecord(config, server.url);
  if (recordError)
    server.logger.warn({ event: 'server.record_failed', err: recordError }, 'cannot record the server in the data dir');
  let stopping = false;
  stop = (signal: string) => {
    if (stopping) return; // the first signal decides how this process stops
    stopping = true;
    // SIGTERM is how an orchestrator stops a replica behind a proxy: drain first. SIGINT (Ctrl-C) stops at once.
    const drainMs = signal === 'SIGTERM' ? config.shutdownDrainMs : 0;
    server.logger.info({ event: 'server.signal', signal, drainMs }, 'signal received');
    // The bound on the whole stop: whatever still holds it then (a push service that never
    // answers, a database that does not close) is cut, and the exit code says so.
    const overdue = drainMs + config.shutdownGraceMs + STOP_MARGIN_MS;
    setTimeout(() => {
      server.logger.error({ event: 'server.stop_overdue', afterMs: overdue }, 'stop overdue; exiting');
      process.exit(1);
    }, overdue).unref();
    server.stop(drainMs).then(
      () => process.exit(0),
      (error) => fail(error),
    );
  };
  // On an empty database: a one-time link to create the first account (printed, never logged).
  const firstAccountToken = await issueFirstAccountToken(server.database.db, new Date());
  process.stderr.write(
    buildStartupText({
      config,
      listeningUrl: server.url,
      driver: server.database.driver,
      firstAccountToken,
      lanAddresses: lanAddresses(networkInterfaces()),
      capacity: server.capacity,
    }),
  );
  if (stopRequested) stop(stopRequested);
}

async function runMigrate(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger({ level: config.logLevel });
  const database = await openDatabase({ url: config.databaseUrl, dataDir: embeddedDatabaseDir(config), poolMax: 2, logger });
  try {
    const report = await migrate(database.db);
    process.stdout.write(`Applied ${report.applied} of ${report.total} migrations (${database.driver}).\n`);
  } finally {
    await database.close();
  }
}

/** `--name value` or `--name=value` from the arguments after the subcommand. */
function option(args: string[], name: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === `--${name}`) return args[i + 1];
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
  }
  return undefined;
}

/** Opens the configured database (migrated) for a one-shot command, and closes it after. */
async function withDatabase<T>(run: (deps: { database: Database; config: Config }) => Promise<T>): Promise<T> {
  const config = loadConfig(process.env);
  const logger = createLogger({ level: config.logLevel === 'info' ? 'warn' : config.logLevel });
  const database = await openDatabase({ url: config.databaseUrl, dataDir: embeddedDatabaseDir(config), poolMax: 2, logger });
  try {
    await migrate(database.db);
    return await run({ database, config });
  } finally {
    await database.close();
  }
}

async function runApiKey(): Promise<void> {
  const [sub, ...args] = process.argv.slice(3);
  const workspaceId = option(args, 'workspace');
  const name = option(args, 'name');
  if (sub !== 'create' || !workspaceId || !name) {
    process.stderr.write('sess: usage: sess api-key create --workspace <id> --name <name>\n');
    process.exit(2);
  }
  await withDatabase(async ({ database }) => {
    const created = await createApiKey({ ctx: { db: database.db, now: () => new Date() }, input: { workspaceId, name } });
    process.stderr.write(`Created API key ${created.id} "${created.name}" (${created.prefix}…) for workspace ${workspaceId}.\n`);
    process.stderr.write('It is shown once, below: store it now (for example in SESS_API_KEY).\n');
    process.stdout.write(`${created.key}\n`);
  });
}

/** The first line of stdin (the password for `user create`), without its line ending; at most 4 KiB. */
function readFirstLine(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('Password: ');
  return new Promise((resolve, reject) => {
    let buffered = '';
    const done = () => {
      process.stdin.off('data', onData);
      process.stdin.pause();
      resolve(buffered.split(/\r?\n/)[0] ?? '');
    };
    const onData = (chunk: Buffer | string) => {
      buffered += chunk.toString();
      if (buffered.includes('\n') || buffered.length > 4096) done();
    };
    process.stdin.on('data', onData);
    process.stdin.once('end', done);
    process.stdin.once('error', reject);
  });
}

async function runUser(): Promise<void> {
  const [sub, ...args] = process.argv.slice(3);
  const email = option(args, 'email');
  if (sub !== 'create' || !email) {
    process.stderr.write('sess: usage: sess user create --email <email>   (password on stdin)\n');
    process.exit(2);
  }
  const password = await readFirstLine();
  await withDatabase(async ({ database }) => {
    const created = await createUserAccount(database.db, { email, password, now: new Date() });
    process.stdout.write(`Created user ${created.userId} <${created.email}> with workspace ${created.workspaceId}.\n`);
  });
}

async function runKeys(): Promise<void> {
  const [sub] = process.argv.slice(3);
  if (sub !== 'rotate') {
    process.stderr.write('sess: usage: sess keys rotate\n');
    process.exit(2);
  }
  await withDatabase(async ({ database, config }) => {
    const rotated = await rotateSigningKeys(database.db, { secret: await resolveSecret(config), now: new Date() });
    process.stdout.write(
      `Active receipt signing key: ${rotated.kid}${rotated.previousKid ? ` (previous: ${rotated.previousKid}, still published)` : ''}${rotated.retiredKid ? `; retired ${rotated.retiredKid}` : ''}.\n`,
    );
  });
}

const commands: Record<string, () => Promise<void>> = {
  serve,
  migrate: runMigrate,
  'api-key': runApiKey,
  keys: runKeys,
  user: runUser,
  receipt: receiptCommand,
  demo: demoCommand,
  doctor: doctorCommand,
  events: eventsCommand,
  backup: backupCommand,
  restore: restoreCommand,
  help: async () => {
    process.stdout.write(USAGE);
  },
};

const [name = 'serve'] = process.argv.slice(2);
const command = commands[name];
if (!command) {
  process.stderr.write(`sess: unknown command "${name}".\n${USAGE}`);
  process.exit(2);
}
command().catch(fail);
