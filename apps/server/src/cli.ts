import { createLogger } from '@sess/core';
import { migrate, openDatabase } from '@sess/db';
import { ConfigError, embeddedDatabaseDir, loadConfig } from './config.ts';
import { startServer } from './server.ts';

const USAGE = `Usage: sess [command]

Commands:
  serve     Start the server (default). Embedded database unless DATABASE_URL is set.
  migrate   Apply pending database migrations and exit.
  help      Show this help.
`;

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
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  const server = await startServer(config);
  stop = (signal: string) => {
    server.logger.info({ event: 'server.signal', signal }, 'signal received');
    server.close().then(
      () => process.exit(0),
      (error) => fail(error),
    );
  };
  process.stderr.write(
    `Sess is running at ${config.publicUrl} (listening on ${server.url}, ${server.database.driver} database)\n`,
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

const commands: Record<string, () => Promise<void>> = {
  serve,
  migrate: runMigrate,
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
