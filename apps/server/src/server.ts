import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { createLogger, type Logger } from '@sess/core';
import { type Database, migrate, openDatabase } from '@sess/db';
import { type NotificationWorker, startNotificationWorker } from '@sess/notify';
import { buildApp, createEgressFor } from './app.ts';
import { type Config, embeddedDatabaseDir } from './config.ts';
import { resolveSecret } from './secret.ts';

/** Pending-connection queue: a storm of reconnecting parked waits overflowed Node's default 511 (the kernel caps it at somaxconn). */
export const LISTEN_BACKLOG = 4096;

export interface RunningServer {
  /** The address actually bound (PORT=0 picks a free port). */
  url: string;
  config: Config;
  database: Database;
  logger: Logger;
  /** Stops accepting, lets in-flight requests finish within the grace period, stops the notification worker, closes the database. */
  close(): Promise<void>;
}

/** Opens the database (PostgreSQL or embedded), applies migrations, and starts listening. */
export interface StartOptions {
  logger?: Logger;
  /** The clock (tests inject one). */
  now?: () => Date;
  /** Mounts extra routes before the app starts (for embedding Sess, and for tests). */
  extend?: (app: ReturnType<typeof buildApp>) => void;
}

export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  const secret = await resolveSecret(config);
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: embeddedDatabaseDir(config),
    poolMax: config.dbPoolMax,
    lockTimeoutMs: config.dbLockTimeoutMs,
    statementTimeoutMs: config.dbStatementTimeoutMs,
    logger,
  });
  try {
    const report = await migrate(database.db);
    logger.info(
      { event: 'db.migrated', driver: database.driver, applied: report.applied, total: report.total },
      'database ready',
    );
  } catch (error) {
    await database.close();
    throw error;
  }
  const now = options.now ?? (() => new Date());
  const closers: Array<() => Promise<void>> = [];
  // One egress for the app (client metadata documents) and the worker (pushes): one policy,
  // shared connections; closed after the worker has finished its sends.
  const egress = createEgressFor(config);
  const app = buildApp({
    egress,
    config,
    database,
    logger,
    secret,
    now,
    onClose: (close) => closers.push(close),
  });
  options.extend?.(app);
  const server = createAdaptorServer({ fetch: app.fetch });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  logger.info({ event: 'server.listening', address: url, publicUrl: config.publicUrl, driver: database.driver }, 'listening');
  // Sends the notifications forms write to the outbox, after their commit (every replica runs one).
  const notifications = config.notifications;
  const worker: NotificationWorker | undefined =
    notifications && !config.testHoldNotifications
      ? startNotificationWorker({
          database,
          secret,
          logger,
          now,
          vapidSubject: notifications.vapidSubject,
          egress,
          ...(notifications.mail ? { mail: notifications.mail } : {}),
        })
      : undefined;

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      logger.info({ event: 'server.stopping', graceMs: config.shutdownGraceMs }, 'stopping');
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      if ('closeIdleConnections' in server) server.closeIdleConnections();
      const grace = setTimeout(() => {
        logger.warn({ event: 'server.grace_elapsed' }, 'grace period over; closing open connections');
        if ('closeAllConnections' in server) server.closeAllConnections();
      }, config.shutdownGraceMs);
      // Release parked waits at once (they answer "still waiting" and finish), rather than
      // holding the shutdown for up to their 45 s; the database stays open for in-flight work.
      for (const closeOne of closers.reverse()) {
        await closeOne().catch((err) => logger.warn({ event: 'server.close_failed', err }, 'close failed'));
      }
      await stopped;
      clearTimeout(grace);
      // The worker finishes the sends it has started, then the database closes under nothing.
      await worker?.close().catch((err) => logger.warn({ event: 'server.close_failed', err }, 'close failed'));
      egress.close();
      await database.close();
      logger.info({ event: 'server.stopped' }, 'stopped');
    })();
    return closing;
  };
  return { url, config, database, logger, close };
}
