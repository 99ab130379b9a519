import { createAccountRoutes, createApiKeyAuthenticator, readBrowserSession } from '@sess/accounts';
import { createPageRoutes } from '@sess/answer-pages';
import { activeTracer, type RootLogger } from '@sess/core';
import { createEgress, type Egress } from '@sess/core/egress';
import { type Database, defaultReadReserve, isMigrated } from '@sess/db';
import { countUnsealedEvents } from '@sess/events';
import { createFormsRuntime, type FormsRuntime } from '@sess/forms';
import { createFormNotices, createReviewRoutes, type FormNotices } from '@sess/hosted';
import {
  createApiKeyNotices,
  createNotifySealers,
  createPeopleNotices,
  createReachCache,
  enqueueAskAnswer,
  readOutboxBacklog,
} from '@sess/notify';
import { createNotificationRoutes } from '@sess/notify-pages';
import { createOAuthRoutes } from '@sess/oauth';
import { createJwksRoute, createV1Routes } from '@sess/v1-api';
import { STYLESHEET, STYLESHEET_ETAG, STYLESHEET_PATH } from '@sess/web';
import { createWebhookPages, createWebhooksApi, readWebhookBacklog } from '@sess/webhooks';
import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import { deriveCapacity } from './capacity.ts';
import type { Config } from './config.ts';
import { Admission, admitRequests } from './http/admission.ts';
import type { AppEnv } from './http/app-env.ts';
import { createClientAddress } from './http/client-address.ts';
import type { ConnectionCap } from './http/connection-cap.ts';
import { onError, onNotFound } from './http/errors.ts';
import { type Fetch, frontFetch } from './http/front-fetch.ts';
import { limitBodies } from './http/limit-bodies.ts';
import { createLinkOrigins, linkHostOnly } from './http/link-host.ts';
import { createPackageRoutes } from './http/package-routes.ts';
import { createPagePasskeys } from './http/page-passkeys.ts';
import { requestLogger } from './http/request-logger.ts';
import { namedFrontRoute, nameRouteSpans, traceRequests } from './http/trace-edge.ts';
import { mountMcp } from './mcp/mount-mcp.ts';
import { mountMetricsRoute } from './metrics/metrics-endpoint.ts';
import { createSessMetrics, type SessMetrics } from './metrics/sess-metrics.ts';
import { loadServedPackages, type ServedPackages, servedPackageUrls } from './packages/served-packages.ts';

export interface AppDeps {
  config: Config;
  database: Database;
  /** The root logger (`createLogger`): each request's lines go through a child of it. */
  logger: RootLogger;
  /** The server secret (SESS_SECRET or the generated one): seals signing keys, keys CSRF tokens. */
  secret: string;
  /** The clock every verb reads; tests inject their own instead of sleeping. */
  now: () => Date;
  /** The forms runtime to use (tests pass their own to watch its waiters); built from the deps when absent. */
  forms?: FormsRuntime;
  /** Where requests to URLs others chose go out (the server shares its own with the worker); built from config when absent. */
  egress?: Egress;
  /**
   * Registers what the app opened (the forms runtime's waiters and subscriptions, the token
   * verifier's cache) so the server closes it on shutdown, before the database.
   */
  onClose?: (close: () => Promise<void>) => void;
  /** True once the server drains for a stop: /readyz then answers 503 so proxies send nothing new here. */
  stopping?: () => boolean;
  /** Receives how to count the waits parked in this process (the server reports them when it stops). */
  onParkedWaits?: (count: () => number) => void;
  /** The bounds on requests in flight (the server derives them from the open-file limit); from the config alone when absent. */
  admission?: Admission;
  /** The server's connection cap, told where parked waits are let go. */
  connections?: ConnectionCap;
  /** The client packages to serve at /packages; read from `config.packagesDir` when absent. */
  packages?: ServedPackages;
  /** The metrics to record into (a test's own); made here when the config turns metrics on (METRICS_*), else none. */
  metrics?: SessMetrics;
}

/** The whole HTTP app, ready for a listener. */
export interface SessApp {
  /** Every route and middleware (`app.routes` lists them; a test or an embedder may mount more). */
  hono: Hono<AppEnv>;
  /** What a listener serves: `/mcp` straight to the edge (`frontFetch`), everything else `hono.fetch`. */
  fetch: Fetch;
  /** What the app records its metrics into; undefined when metrics are off. */
  metrics: SessMetrics | undefined;
}

/**
 * Builds the whole HTTP app (no listener): request ids, logging, errors, health. Feature
 * routes are mounted here as their packages arrive.
 */
export function buildApp(deps: AppDeps): SessApp {
  const app = new Hono<AppEnv>();
  // Metrics (METRICS_PORT or METRICS_TOKEN): off, nothing records anything.
  const metrics = deps.metrics ?? (deps.config.metrics ? createSessMetrics({ logger: deps.logger }) : undefined);
  if (metrics && !deps.metrics) deps.onClose?.(async () => metrics.close());
  // Tracing on (OTEL_EXPORTER_OTLP_ENDPOINT): each request's edge span is named by its route.
  const tracer = activeTracer();
  if (tracer) app.use(nameRouteSpans());
  app.use(requestId({ limitLength: 64 }));
  app.use(requestLogger(deps.logger, metrics?.observeRequest));
  app.use(limitBodies());
  app.onError(onError);
  app.notFound(onNotFound);
  // The one answer to "which address is this request from" for every per-IP limit.
  const clientAddress = createClientAddress(deps.config.trustedProxies);
  // SESS_LINK_URL's Host (when it is not PUBLIC_URL's) serves the answer pages and nothing else.
  const linkOrigins = createLinkOrigins(deps.config);
  app.use(linkHostOnly(deps.config, linkOrigins));
  // Every request but health counts under its class, or is refused at once (/mcp counts in mountMcp).
  const admission = deps.admission ?? new Admission(deriveCapacity(deps.config, undefined).admission);
  app.use(admitRequests(admission));
  const egress = deps.egress ?? createEgressFor(deps.config, deps.onClose);

  app.get(STYLESHEET_PATH, (c) => {
    if (c.req.header('if-none-match') === STYLESHEET_ETAG) return c.body(null, 304);
    return c.body(STYLESHEET, 200, {
      'Content-Type': 'text/css; charset=utf-8',
      'Cache-Control': 'public, max-age=3600',
      ETag: STYLESHEET_ETAG,
      'X-Content-Type-Options': 'nosniff',
    });
  });

  // The client packages built with this server (sess-mcp, the OpenClaw plugin, @sess/client):
  // public tarballs at /packages, and the install lines of the home and account pages.
  const packages = deps.packages ?? loadServedPackages(deps.config.packagesDir);
  if (packages.problem)
    deps.logger.warn({ event: 'packages.unavailable', problem: packages.problem }, 'client packages not served');
  app.route('/', createPackageRoutes(packages));

  let migrated = false;
  app.get('/healthz', (c) => c.json({ status: 'ok' }, 200, { 'Cache-Control': 'no-store' }));
  app.get('/readyz', async (c) => {
    if (deps.stopping?.()) return c.json({ status: 'stopping' }, 503, { 'Cache-Control': 'no-store' });
    try {
      await deps.database.ping();
      // Once the newest migration is seen it stays applied; only reachability is re-checked.
      migrated ||= await isMigrated(deps.database.db);
      if (!migrated) return c.json({ status: 'migrating' }, 503, { 'Cache-Control': 'no-store' });
      return c.json({ status: 'ready' }, 200, { 'Cache-Control': 'no-store' });
    } catch (error) {
      c.get('logger').warn({ event: 'readyz.database_unreachable', err: error }, 'database unreachable');
      return c.json({ status: 'database unreachable' }, 503, { 'Cache-Control': 'no-store' });
    }
  });
  // Accounts: /signin, /signup, /signout, /signin/oidc/*, /account, /account/keys.
  app.route(
    '/',
    createAccountRoutes({
      db: deps.database.db,
      secret: deps.secret,
      publicUrl: deps.config.publicUrl,
      signupPolicy: deps.config.signupPolicy,
      oidc: deps.config.oidc,
      now: deps.now,
      logger: deps.logger,
      clientIp: clientAddress,
      packages: servedPackageUrls(packages, deps.config.publicUrl),
    }),
  );
  // Notifications (issue 16): the outbox rows are written in the forms' own transactions (the
  // worker, started by server.ts, sends them); nothing at all when SESS_NOTIFICATIONS=off.
  const sealers = createNotifySealers(deps.secret);
  const notifications = deps.config.notifications;
  let notices: FormNotices | undefined;
  if (notifications) {
    const emailAvailable = notifications.mail !== null;
    const reach = createReachCache({ db: deps.database.db, bus: deps.database.bus, emailAvailable });
    deps.onClose?.(() => reach.close());
    notices = createFormNotices({ sealers, emailAvailable, reach, now: deps.now });
  }
  const token = deps.config.metrics?.token;
  if (metrics && token) mountMetricsRoute(app, metrics, token);
  const poolMax = deps.config.dbPoolMax;
  // The person's pages behind a link: /s/:token (answer, extend, Ask start, live wait).
  // One forms runtime per process (one waiter map, one signing-key cache); /v1 shares it.
  const forms =
    deps.forms ??
    createFormsRuntime({
      database: deps.database,
      publicUrl: deps.config.publicUrl,
      linkUrl: deps.config.linkUrl,
      secret: deps.secret,
      logger: deps.logger,
      now: deps.now,
      linkHorizonSeconds: deps.config.linkHorizonSeconds,
      // One workspace's writes hold at most three quarters of the connections writes may take
      // (6 of the 8 of a pool of 10): a quarter stays for the other workspaces' writes.
      workspaceWrites: { concurrent: Math.max(1, Math.floor(((poolMax - defaultReadReserve(poolMax)) * 3) / 4)) },
      // An Ask's owner is told of its answers or its close, in the answer's transaction.
      ...(notifications
        ? {
            onAskAnswer: (tx, answer) =>
              enqueueAskAnswer(tx, { sessionId: answer.sessionId, closed: answer.closed, now: deps.now() }),
            // A form made through /v1 with an API key tells the workspace's owners who chose so.
            apiKeyNotices: createApiKeyNotices({
              db: deps.database.db,
              sealers,
              emailAvailable: notifications.mail !== null,
              now: deps.now,
            }),
            // An Ask through /v1 with named respondents tells each of them, on their own devices.
            peopleNotices: createPeopleNotices({ sealers, emailAvailable: notifications.mail !== null, now: deps.now }),
          }
        : {}),
      ...(metrics ? { observer: metrics.forms } : {}),
    });
  if (!deps.forms) deps.onClose?.(() => forms.close());
  metrics?.watch({
    parkedWaits: () => forms.waitsInProgress(),
    pool: () => deps.database.poolStats(),
    outbox: notifications ? () => readOutboxBacklog(deps.database.db, deps.now()) : undefined,
    unsealedEvents: () => countUnsealedEvents(deps.database.db),
    webhooks: () => readWebhookBacklog(deps.database.db, deps.now()),
  });
  deps.onParkedWaits?.(() => forms.waiters.size);
  deps.connections?.releaseWaitsOf({
    releaseOldest: (count) => forms.releaseOldestWaits(count),
    inProgress: () => forms.waitsInProgress(),
  });
  app.route(
    '/',
    createPageRoutes({
      runtime: forms,
      secret: deps.secret,
      secureCookieFor: linkOrigins.secureCookieFor,
      // Forms above assurance `link` are answered by a signed-in account (PUBLIC_URL's session cookie).
      accounts: {
        signedInUser: async (cookie) => (await readBrowserSession(deps.database.db, cookie, deps.now()))?.userId,
        isLinkHost: linkOrigins.isLinkHost,
        // A `passkey` form's answer ceremony, on PUBLIC_URL's relying party.
        passkeys: createPagePasskeys(deps.database.db, deps.config.publicUrl, deps.now),
      },
    }),
  );
  // The /v1 API (API keys; /mcp takes them too) and the receipt keys: /v1/*, /.well-known/jwks.json.
  const db = deps.database.db;
  // API keys are checked against a 5-second cache that revocations clear on every replica.
  const apiKeys = createApiKeyAuthenticator({ db, now: deps.now, bus: deps.database.bus, logger: deps.logger });
  deps.onClose?.(() => apiKeys.close());
  // Webhook endpoints are refused at registration by the same policy every delivery goes out under.
  const webhooks = createWebhooksApi({ db, secret: deps.secret, policy: egress.policy, now: deps.now });
  app.route('/', createV1Routes({ runtime: forms, authenticate: (key) => apiKeys.authenticate(key), webhooks }));
  // /account/webhooks: the same verbs for a workspace's owners.
  app.route('/', createWebhookPages({ db, api: webhooks, secret: deps.secret, now: deps.now }));
  app.route('/', createJwksRoute(forms));
  // OAuth 2.1 authorization server: discovery, DCR, CIMD, /oauth/authorize + consent, token,
  // revoke (plus the 2025-03-26 /authorize, /token, /register), and /account/apps.
  app.route(
    '/',
    createOAuthRoutes({
      database: deps.database,
      secret: deps.secret,
      publicUrl: deps.config.publicUrl,
      now: deps.now,
      logger: deps.logger,
      cimd: { egress },
      clientIp: clientAddress,
    }),
  );
  // The MCP endpoint /mcp (OAuth bearer, handle store, the forms runtime in-process).
  const mcp = mountMcp(app, {
    config: deps.config,
    database: deps.database,
    runtime: forms,
    secret: deps.secret,
    logger: deps.logger,
    now: deps.now,
    clientAddress,
    linkOrigins,
    apiKeys,
    onClose: deps.onClose,
    notices,
    admission,
    ...(metrics ? { onToolCall: metrics.onToolCall } : {}),
  });
  // The person's review of interactions no tool can move on: /account/interactions.
  app.route('/', createReviewRoutes({ db, runtime: forms, secret: deps.secret, now: deps.now }));
  // Notifications: /account/notifications (devices, settings) and the installable web app's files.
  app.route(
    '/',
    createNotificationRoutes({
      db,
      secret: deps.secret,
      sealers,
      now: deps.now,
      egressPolicy: egress.policy,
      linkOrigins: [...new Set([new URL(deps.config.publicUrl).origin, deps.config.linkUrl])],
      emailConfigured: Boolean(notifications?.mail),
      clientAddress,
    }),
  );
  const fetch = frontFetch(app, deps.logger, tracer ? namedFrontRoute(mcp) : mcp, metrics?.observeRequest);
  return { hono: app, fetch: tracer ? traceRequests(fetch, tracer) : fetch, metrics };
}

/** The process's egress (docs/egress.md), from SESS_TEST_LOOPBACK_EGRESS and SESS_EGRESS_DNS_SERVERS; closed with the app. */
export function createEgressFor(config: Pick<Config, 'egress'>, onClose?: AppDeps['onClose']): Egress {
  const egress = createEgress(config.egress);
  onClose?.(async () => egress.close());
  return egress;
}
