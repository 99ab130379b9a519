import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { createAdaptorServer } from '@hono/node-server';
import { createLogger, type RootLogger } from '@sess/core';
import { assertDataDirFree, type Database, migrate, openDatabase } from '@sess/db';
import { startEventWorker } from '@sess/events';
import { type NotificationWorker, startNotificationWorker } from '@sess/notify';
import { noticeTexts } from '@sess/notify-pages';
import { startWebhookWorker } from '@sess/webhooks';
import { buildApp, createEgressFor, type SessApp } from './app.ts';
import { type Capacity, deriveCapacity, describeOpenFiles, readOpenFileLimit } from './capacity.ts';
import { type Config, embeddedDatabaseDir } from './config.ts';
import { Admission } from './http/admission.ts';
import { ConnectionCap } from './http/connection-cap.ts';
import { answerWhileStarting } from './http/while-starting.ts';
import { type MetricsListener, startMetricsListener } from './metrics/metrics-endpoint.ts';
import { resolveSecret } from './secret.ts';
import { startTracing } from './tracing/start-tracing.ts';

/** Pending-connection queue: a storm of reconnecting parked waits overflowed Node's default 511 (the kernel caps it at somaxconn). */
export const LISTEN_BACKLOG = 4096;

export interface RunningServer {
  /** The address actually bound (PORT=0 picks a free port). */
  url: string;
  config: Config;
  database: Database;
  logger: RootLogger;
  /** The open-file limit and the bounds derived from it (connections, requests in flight per class). */
  capacity: Capacity;
  /** Requests in flight per class, against their bounds. */
  admission: Admission;
  /** Open connections against the cap; undefined when there is no cap (see `capacity.connections`). */
  connections: ConnectionCap | undefined;
  /**
   * Starts draining for a stop: /readyz answers 503 (a proxy's health check takes this replica
   * out of rotation) and every response closes its connection (a proxy reuses none), while
   * everything else is still served. `close` ends it.
   */
  drain(): void;
  /**
   * Stops now, with no drain window (`stop` has one): /readyz answers 503, the listener closes,
   * the parked waits answer their current state, in-flight requests finish within the grace
   * period, the notification worker stops and the database closes. Idempotent.
   */
  close(): Promise<void>;
  /** On SIGTERM: drains for `drainMs` (SHUTDOWN_DRAIN_MS), then closes. Idempotent, like `close`. */
  stop(drainMs: number): Promise<void>;
  /** Waits parked in this process now (`close` answers them). */
  parkedWaits(): number;
  /** The metrics listener's address (METRICS_PORT), or undefined when there is none. */
  metricsUrl: string | undefined;
}

/** Opens the database (PostgreSQL or embedded), applies migrations, and starts listening. */
export interface StartOptions {
  logger?: RootLogger;
  /** The clock (tests inject one). */
  now?: () => Date;
  /** Mounts extra routes before the app starts (for embedding Sess, and for tests). */
  extend?: (app: SessApp['hono']) => void;
  /** Opens the database (`openDatabase`; a test may hold it back to see what is answered meanwhile). */
  openDatabase?: typeof openDatabase;
}

export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  // Tracing first (OTEL_EXPORTER_OTLP_ENDPOINT; nothing loaded when unset), so the logger puts trace ids on its lines.
  const tracing = await startTracing(config);
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  tracing?.logTo(logger);
  // Bounds from the open-file limit and the pool (issue 33): connections below the limit, requests in flight per class.
  const capacity = deriveCapacity(config, readOpenFileLimit());
  const connections = capacity.connections ? new ConnectionCap(capacity.connections, logger, capacity.reserve) : undefined;
  const admission = new Admission(capacity.admission, connections && ((incoming) => connections.isPastCap(incoming)));
  logger.info(
    {
      event: 'server.capacity',
      openFiles: describeOpenFiles(capacity.openFiles),
      connections: capacity.connections ?? 'no cap',
      // A string, not an object: the log redacts every field named `answers`.
      inFlight: Object.entries(capacity.admission)
        .map(([name, bound]) => `${name} ${bound || 'no bound'}`)
        .join(', '),
    },
    'capacity',
  );
  // A second Sess on the same embedded files says so before it listens (not that its port is taken).
  if (!config.databaseUrl) assertDataDirFree(embeddedDatabaseDir(config));
  // Listening comes first: while the database opens (an embedded one replaying its WAL after a
  // crash takes seconds), requests are answered at once — /healthz 200, /readyz and the rest 503
  // `starting` with Retry-After — instead of being refused by the kernel or queued for the database.
  let serve: (request: Request, env: unknown) => Response | Promise<Response> = answerWhileStarting;
  let draining = false;
  const server = createAdaptorServer({ fetch: (request, env) => serve(request, env) });
  // While draining, every response says Connection: close, so no connection outlives its
  // request and a proxy never sends on one this replica is about to close.
  server.prependListener('request', (_request, response) => {
    if (draining) response.setHeader('Connection', 'close');
  });
  // Created by node:http (no http2 options given), so a node:http Server.
  connections?.attach(server as Server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const stopListening = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      if ('closeAllConnections' in server) server.closeAllConnections();
    }).then(() => tracing?.stop());

  let secret: string;
  let database: Database;
  try {
    secret = await resolveSecret(config);
    database = await (options.openDatabase ?? openDatabase)({
      url: config.databaseUrl,
      dataDir: embeddedDatabaseDir(config),
      poolMax: config.dbPoolMax,
      lockTimeoutMs: config.dbLockTimeoutMs,
      statementTimeoutMs: config.dbStatementTimeoutMs,
      logger,
    });
  } catch (error) {
    await stopListening();
    throw error;
  }
  try {
    const migrating = performance.now();
    const report = await migrate(database.db);
    logger.info(
      {
        event: 'db.migrated',
        driver: database.driver,
        applied: report.applied,
        total: report.total,
        ms: Math.round(performance.now() - migrating),
      },
      'database ready',
    );
  } catch (error) {
    await database.close();
    await stopListening();
    throw error;
  }
  const now = options.now ?? (() => new Date());
  const closers: Array<() => Promise<void>> = [];
  // One egress for the app (client metadata documents) and the worker (pushes): one policy,
  // shared connections; closed after the worker has finished its sends.
  const egress = createEgressFor(config);
  let parkedWaits = () => 0;
  const app = buildApp({
    admission,
    ...(connections ? { connections } : {}),
    egress,
    config,
    database,
    logger,
    secret,
    now,
    onClose: (close) => closers.push(close),
    stopping: () => draining,
    onParkedWaits: (count) => (parkedWaits = count),
  });
  options.extend?.(app.hono);
  // The metrics listener of its own (METRICS_PORT), closed after the main listener.
  const metricsPort = config.metrics?.port;
  let metricsListener: MetricsListener | undefined;
  if (app.metrics && config.metrics && metricsPort !== undefined) {
    let listener: MetricsListener;
    try {
      listener = await startMetricsListener(app.metrics, { ...config.metrics, port: metricsPort });
    } catch (error) {
      // Its port taken, say: nothing of this start is left open.
      for (const closeOne of closers.reverse()) await closeOne().catch(() => {});
      egress.close();
      await database.close();
      await stopListening();
      throw error;
    }
    metricsListener = listener;
    closers.unshift(() => listener.close());
    logger.info({ event: 'metrics.listening', address: listener.url }, 'metrics listening');
  }
  serve = app.fetch;
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  logger.info({ event: 'server.listening', address: url, publicUrl: config.publicUrl, driver: database.driver }, 'listening');
  // Seals the event chain and records the clock's events, after their commit (every replica runs one).
  const events = startEventWorker({ database, logger, now });
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
          texts: noticeTexts,
        })
      : undefined;

  // Sends the workspaces' webhooks from the sealed event chain (every replica runs one).
  const webhookWorker = startWebhookWorker({ database, secret, logger, now, egress });

  const drain = () => {
    if (draining) return;
    draining = true;
    logger.info({ event: 'server.draining' }, 'draining: /readyz answers 503');
  };
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      drain();
      logger.info({ event: 'server.stopping', graceMs: config.shutdownGraceMs, parkedWaits: parkedWaits() }, 'stopping');
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      if ('closeIdleConnections' in server) server.closeIdleConnections();
      const grace = setTimeout(() => {
        logger.warn({ event: 'server.grace_elapsed' }, 'grace period over; closing open connections');
        if ('closeAllConnections' in server) server.closeAllConnections();
      }, config.shutdownGraceMs);
      // Parked waits answer their current state ("waiting") at once, so their clients wait
      // again on another replica instead of holding this stop for up to 45 s.
      for (const closeOne of closers.reverse()) {
        await closeOne().catch((err) => logger.warn({ event: 'server.close_failed', err }, 'close failed'));
      }
      await stopped;
      clearTimeout(grace);
      // The worker finishes the sends it has started, then the database closes under nothing.
      await worker?.close().catch((err) => logger.warn({ event: 'server.close_failed', err }, 'close failed'));
      await webhookWorker.close().catch((err) => logger.warn({ event: 'server.close_failed', err }, 'close failed'));
      await events.close().catch((err) => logger.warn({ event: 'server.close_failed', err }, 'close failed'));
      egress.close();
      await database.close();
      // The spans of the last requests are exported before the process ends.
      await tracing?.stop().catch((err) => logger.warn({ event: 'server.close_failed', err }, 'close failed'));
      logger.info({ event: 'server.stopped' }, 'stopped');
    })();
    return closing;
  };
  let stopping: Promise<void> | undefined;
  const stop = (drainMs: number) => {
    stopping ??= (async () => {
      drain();
      if (drainMs > 0) await delay(drainMs);
      await close();
    })();
    return stopping;
  };
  return {
    url,
    config,
    database,
    logger,
    capacity,
    admission,
    connections,
    drain,
    close,
    stop,
    parkedWaits: () => parkedWaits(),
    metricsUrl: metricsListener?.url,
  };
}
