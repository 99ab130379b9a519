import { isIP } from 'node:net';
import { join } from 'node:path';
import { isLoopbackHostname } from '@sess/core';
import { z } from 'zod';
import type { AdmissionClass } from './http/admission.ts';
import { trustedProxiesProblem } from './http/client-address.ts';

/** A configuration value that cannot be used; the CLI prints it on one line and exits 2. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly variable: string,
    readonly problem: string,
  ) {
    super(`${variable} ${problem}`);
  }
}

/** SHUTDOWN_DRAIN_MS in production: three times a health check every second (deploy/sess-upstream.caddy). */
const PRODUCTION_DRAIN_MS = 3_000;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const integer = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, `must be a whole number from ${min} to ${max}`)
        .max(max, `must be a whole number from ${min} to ${max}`),
    );

const httpUrl = z
  .string()
  .superRefine((value, ctx) => {
    if (!URL.canParse(value))
      return void ctx.addIssue({ code: 'custom', message: 'must be an absolute URL such as https://sess.example.com' });
    const url = new URL(value);
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      ctx.addIssue({ code: 'custom', message: 'must start with https:// (or http:// for local use)' });
    else if (url.search || url.hash || url.username || url.password)
      ctx.addIssue({ code: 'custom', message: 'must not carry a query, fragment or credentials' });
  })
  .transform((value) => new URL(value).toString().replace(/\/+$/, ''));

/** An OTLP/HTTP endpoint: http(s), as the OpenTelemetry SDK reads it (the SDK reads the value itself). */
const otlpEndpoint = z.string().refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
  message: 'must be an http:// or https:// URL, such as http://127.0.0.1:4318',
});

const smtpUrl = z.string().superRefine((value, ctx) => {
  if (!URL.canParse(value))
    return void ctx.addIssue({ code: 'custom', message: 'must be a URL such as smtps://user:password@smtp.example.com:465' });
  const url = new URL(value);
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    ctx.addIssue({ code: 'custom', message: 'must start with smtp:// (STARTTLS when offered) or smtps:// (TLS)' });
  else if (!url.hostname) ctx.addIssue({ code: 'custom', message: 'must name a host' });
});

const databaseUrl = z.string().superRefine((value, ctx) => {
  if (!URL.canParse(value))
    return void ctx.addIssue({ code: 'custom', message: 'must be a URL such as postgres://user:password@host:5432/sess' });
  const url = new URL(value);
  if (!/^postgres(ql)?:$/.test(url.protocol))
    ctx.addIssue({ code: 'custom', message: 'must start with postgres:// or postgresql://' });
  else if (!url.hostname && !url.searchParams.has('host')) ctx.addIssue({ code: 'custom', message: 'must name a host' });
});

/** A DNS server as `dns.setServers` takes it: an address, or `address:port` / `[v6]:port`. */
function isDnsServer(entry: string): boolean {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(entry);
  if (bracketed) return isIP(bracketed[1]!) === 6 && (bracketed[2] === undefined || Number(bracketed[2]) <= 65_535);
  const [address, port, ...rest] = entry.split(':');
  if (isIP(entry) === 6) return true;
  return (
    rest.length === 0 && isIP(address ?? '') === 4 && (port === undefined || (/^\d{1,5}$/.test(port) && Number(port) <= 65_535))
  );
}

/** Environment variables read at start-up, each with its rule. The only reader of process.env. */
const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: integer(0, 65_535).default(8787),
  HOST: z.string().min(1, 'must not be empty').default('127.0.0.1'),
  PUBLIC_URL: httpUrl.optional(),
  // Where answer links (/s/…) point, when a phone must open them at another address than the
  // agent uses (PUBLIC_URL=http://localhost:8787, SESS_LINK_URL=http://192.168.1.23:8787).
  SESS_LINK_URL: httpUrl.optional(),
  DATABASE_URL: databaseUrl.optional(),
  DB_POOL_MAX: integer(1, 200).default(10),
  // How long a statement may wait for a lock, and run, before PostgreSQL cancels it (ms; 0 = no limit).
  DB_LOCK_TIMEOUT_MS: integer(0, 600_000).default(2_000),
  DB_STATEMENT_TIMEOUT_MS: integer(0, 3_600_000).default(10_000),
  SESS_DATA_DIR: z.string().min(1, 'must not be empty').default('./.data'),
  // The client packages the server serves at /packages (scripts/build.mjs packs them there).
  SESS_PACKAGES_DIR: z.string().min(1, 'must not be empty').default('./dist/packages'),
  LOG_LEVEL: z.enum(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  // OpenTelemetry tracing (docs/tracing.md): on when an OTLP endpoint is set, unless the SDK
  // is disabled or its traces exporter is none. The other OTEL_* variables (protocol, headers,
  // sampler, batch delays, resource) are the OpenTelemetry SDK's own, read by it.
  OTEL_EXPORTER_OTLP_ENDPOINT: otlpEndpoint.optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: otlpEndpoint.optional(),
  OTEL_SDK_DISABLED: z.string().optional(),
  OTEL_TRACES_EXPORTER: z.string().optional(),
  SESS_SECRET: z.string().min(32, 'must be at least 32 characters (for example: openssl rand -base64 32)').optional(),
  SHUTDOWN_GRACE_MS: integer(0, 600_000).default(10_000),
  // On SIGTERM: how long /readyz answers 503 while everything else is still served, so the
  // proxies' health checks take this replica out of rotation before it stops accepting.
  // Default 3 s in production (behind a proxy), 0 elsewhere.
  SHUTDOWN_DRAIN_MS: integer(0, 600_000).optional(),
  // Horizon of extendable links (20 h or less): how long after creation "Ask for more time" may reach. 20 h to 1 year.
  SESS_LINK_HORIZON_SECONDS: integer(72_000, 31_536_000).default(604_800),
  SESS_SIGNUP: z.enum(['open', 'invite', 'closed'], { message: 'must be one of open, invite, closed' }).optional(),
  OIDC_ISSUER: z
    .string()
    .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
      message: "must be the provider's issuer URL, such as https://accounts.example.com",
    })
    .optional(),
  OIDC_CLIENT_ID: z.string().min(1).max(512, 'must be at most 512 characters').optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).max(1024, 'must be at most 1024 characters').optional(),
  OIDC_PROVIDER_NAME: z.string().min(1).max(40, 'must be at most 40 characters').optional(),
  // Test flag: every outbound request (push, client metadata documents) goes to loopback only.
  SESS_TEST_LOOPBACK_EGRESS: z.enum(['0', '1'], { message: 'must be 0 or 1' }).default('0'),
  // The DNS servers Sess asks for the names of push services and client metadata documents
  // (comma-separated addresses, each with an optional port); default the system's.
  SESS_EGRESS_DNS_SERVERS: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .refine((servers) => servers.length > 0 && servers.every(isDnsServer), {
      message:
        'must be DNS server addresses separated by commas, each with an optional port, such as 1.1.1.1,[2606:4700:4700::1111]:53',
    })
    .optional(),
  // Test flag: notifications are written to the outbox but no worker sends them (the crash test's first process).
  SESS_TEST_HOLD_NOTIFICATIONS: z.enum(['0', '1'], { message: 'must be 0 or 1' }).default('0'),
  // /mcp: requests per minute per client IP and per signed-in principal (0 turns a limit off),
  // and exact browser origins allowed to call it (comma-separated; non-browser clients send none).
  SESS_MCP_RATE_PER_IP: integer(0, 100_000_000).default(6000),
  SESS_MCP_RATE_PER_PRINCIPAL: integer(0, 100_000_000).default(600),
  SESS_MCP_ALLOWED_ORIGINS: z
    .string()
    .refine((value) => value.split(',').every((o) => URL.canParse(o.trim()) && new URL(o.trim()).origin === o.trim()), {
      message: 'must be exact origins separated by commas, such as https://inspector.example',
    })
    .optional(),
  // The reverse proxies / load balancers in front of the server (addresses, CIDR ranges, or
  // loopback, linklocal, uniquelocal; comma-separated): behind them the per-IP limits key on the
  // client address they forward in X-Forwarded-For. Unset: the socket's peer, the header ignored.
  SESS_TRUSTED_PROXIES: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .superRefine((entries, ctx) => {
      const problem = trustedProxiesProblem(entries);
      if (problem)
        ctx.addIssue({
          code: 'custom',
          message: `must be addresses or CIDR ranges separated by commas, such as 10.0.0.0/8,loopback (${problem})`,
        });
    })
    .optional(),
  // Admission (issue 33): requests in flight per class beyond which Sess answers 503 at once (0 = no
  // bound), and the connection cap; unset, each is derived at start from DB_POOL_MAX and the
  // open-file limit (see capacity.ts).
  SESS_ADMIT_MCP: integer(0, 1_000_000).optional(),
  SESS_ADMIT_WAITS: integer(0, 10_000_000).optional(),
  SESS_ADMIT_WRITES: integer(0, 1_000_000).optional(),
  SESS_ADMIT_ANSWERS: integer(0, 1_000_000).optional(),
  SESS_ADMIT_PAGES: integer(0, 1_000_000).optional(),
  SESS_MAX_CONNECTIONS: integer(16, 10_000_000).optional(),
  // Notifications (Web Push, and e-mail when SMTP_URL is set): on unless turned off.
  SESS_NOTIFICATIONS: z.enum(['on', 'off'], { message: 'must be on or off' }).default('on'),
  // The VAPID subject push services may contact the operator at: a mailto: or https: address.
  SESS_VAPID_SUBJECT: z
    .string()
    .refine((value) => vapidSubjectHost(value) !== undefined, {
      message: 'must be a mailto: or https: address, such as mailto:ops@your-domain.com',
    })
    .optional(),
  // The mail server for e-mail notifications (it may hold a password: never echoed), and the From address.
  SMTP_URL: smtpUrl.optional(),
  SMTP_FROM: z.email({ message: 'must be an e-mail address, such as sess@your-domain.com' }).optional(),
  // Metrics (Prometheus text format): off unless one of these is set. METRICS_PORT is a listener of
  // their own (on METRICS_HOST, loopback by default); METRICS_TOKEN serves /metrics on the main
  // listener to `Authorization: Bearer <token>` (and is asked for on METRICS_PORT too when set).
  METRICS_PORT: integer(0, 65_535).optional(),
  METRICS_HOST: z.string().min(1, 'must not be empty').default('127.0.0.1'),
  METRICS_TOKEN: z
    .string()
    .regex(/^[A-Za-z0-9\-._~+/]+=*$/, 'must be a bearer token: letters, digits and -._~+/ (for example: openssl rand -hex 32)')
    .min(32, 'must be at least 32 characters (for example: openssl rand -hex 32)')
    .optional(),
});

/** Notifications as configured: null when SESS_NOTIFICATIONS=off (no outbox rows, no worker). */
export interface NotificationsConfig {
  /** The VAPID `sub` claim: a mailto: or https: address of the operator. */
  vapidSubject: string;
  /** E-mail as a second channel, or null when SMTP_URL is unset. `smtpUrl` may hold a password: never print or log it. */
  mail: { smtpUrl: string; from: string } | null;
}

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** The public origin (no trailing slash) that metadata, tokens and receipts (`iss`) name. */
  publicUrl: string;
  /**
   * `SESS_LINK_URL`: the origin answer links (`humanUrl`, /s/:token) point at; PUBLIC_URL when
   * unset. On its own Host the server serves only the answer pages (see `linkHostOnly`).
   */
  linkUrl: string;
  databaseUrl: string | undefined;
  dbPoolMax: number;
  /** PostgreSQL's `lock_timeout` and `statement_timeout` of every pool connection (ms, 0 = none). */
  dbLockTimeoutMs: number;
  dbStatementTimeoutMs: number;
  dataDir: string;
  /** Where the packed client packages and their manifest.json are (docs/packages.md); served at /packages. */
  packagesDir: string;
  logLevel: (typeof LOG_LEVELS)[number];
  /**
   * OpenTelemetry tracing: on when OTEL_EXPORTER_OTLP_ENDPOINT (or _TRACES_ENDPOINT) is set and
   * neither OTEL_SDK_DISABLED=true nor OTEL_TRACES_EXPORTER=none; off, nothing of the SDK is loaded.
   */
  tracing: boolean;
  /** Undefined until resolved: generated into the data dir when absent outside production. */
  secret: string | undefined;
  shutdownGraceMs: number;
  /**
   * On SIGTERM, how long to drain (/readyz 503, still serving) before stopping: 3 s by default in
   * production, where a proxy's health check must see the 503 first; 0 (stop at once) elsewhere.
   */
  shutdownDrainMs: number;
  /** Extendable links may be extended until creation + this many seconds (default 7 days). */
  linkHorizonSeconds: number;
  /** Who may create an account on the web (`SESS_SIGNUP`): open in development, invite in production. */
  signupPolicy: 'open' | 'invite' | 'closed';
  /** The upstream OpenID Provider for "Sign in with …", or null when OIDC_ISSUER is unset. */
  oidc: {
    issuer: string;
    clientId: string;
    clientSecret: string;
    name: string;
    /** An http:// issuer, allowed only outside production (tests, local development). */
    allowInsecureRequests: boolean;
  } | null;
  /**
   * Outbound requests to URLs others chose (push endpoints, client metadata documents): `public`
   * addresses only, or `loopback-only` under the test flag `SESS_TEST_LOOPBACK_EGRESS=1` (refused
   * in production); names resolved through `dnsServers` (`SESS_EGRESS_DNS_SERVERS`) when set.
   */
  egress: { policy: 'public' | 'loopback-only'; dnsServers?: string[] };
  /**
   * Test flag `SESS_TEST_HOLD_NOTIFICATIONS=1`: forms still write their notifications to the
   * outbox, but this process starts no worker to send them (another process sends them).
   * Refused in production.
   */
  testHoldNotifications: boolean;
  /** /mcp limits per minute (0 = off) and the exact browser origins it accepts. */
  mcp: { ratePerIp: number; ratePerPrincipal: number; allowedOrigins: string[] };
  /** `SESS_TRUSTED_PROXIES`: proxies whose X-Forwarded-For names the client; empty = none. */
  trustedProxies: string[];
  /** Web Push and e-mail notifications (`SESS_NOTIFICATIONS`, `SESS_VAPID_SUBJECT`, `SMTP_URL`, `SMTP_FROM`); null when off. */
  notifications: NotificationsConfig | null;
  /** `SESS_ADMIT_*`: requests in flight per class (0 = no bound); a class left out is derived at start (capacity.ts). */
  admission: Partial<Record<AdmissionClass, number>>;
  /** `SESS_MAX_CONNECTIONS`: open connections before new ones are refused; undefined = derived from the open-file limit. */
  maxConnections: number | undefined;
  /**
   * `/metrics` (Prometheus text format), or null when off (neither METRICS_PORT nor METRICS_TOKEN):
   * `port` a listener of its own on `host` (METRICS_PORT, METRICS_HOST); `token` the bearer token
   * that `/metrics` on the main listener asks for (METRICS_TOKEN; never print or log it).
   */
  metrics: MetricsConfig | null;
}

/** Where `/metrics` is served; see `Config.metrics`. */
export interface MetricsConfig {
  /** A listener of its own (0 picks a free port), or undefined for none. */
  port: number | undefined;
  host: string;
  /** Undefined: /metrics is not on the main listener, and the own listener asks for nothing. */
  token: string | undefined;
}

// Values of these variables are never echoed back in an error (they can hold credentials).
const SECRET_VARIABLES = new Set([
  'DATABASE_URL',
  'SESS_SECRET',
  'OIDC_CLIENT_SECRET',
  'SMTP_URL',
  'METRICS_TOKEN',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
]);

/**
 * Parses the environment into a Config, or throws a ConfigError naming the first variable
 * that is wrong and what is wrong with it.
 */
export function loadConfig(env: NodeJS.ProcessEnv): Config {
  const present = Object.fromEntries(
    Object.keys(EnvSchema.shape)
      .filter((key) => env[key] !== undefined && env[key] !== '')
      .map((key) => [key, env[key]]),
  );
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0]);
    const shown = SECRET_VARIABLES.has(variable) ? '' : ` (got "${String(present[variable])}")`;
    throw new ConfigError(variable, `${issue.message}${shown}.`);
  }
  const e = parsed.data;
  if (e.NODE_ENV === 'production' && e.SESS_TEST_LOOPBACK_EGRESS === '1') {
    throw new ConfigError('SESS_TEST_LOOPBACK_EGRESS', 'is a test flag and must not be set when NODE_ENV=production.');
  }
  if (e.NODE_ENV === 'production' && e.SESS_TEST_HOLD_NOTIFICATIONS === '1') {
    throw new ConfigError('SESS_TEST_HOLD_NOTIFICATIONS', 'is a test flag and must not be set when NODE_ENV=production.');
  }
  if (e.NODE_ENV === 'production' && !e.SESS_SECRET) {
    throw new ConfigError('SESS_SECRET', 'is required when NODE_ENV=production (for example: openssl rand -base64 32).');
  }
  const publicUrl = e.PUBLIC_URL ?? `http://localhost:${e.PORT}`;
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    linkUrl: loadLinkUrl(e.SESS_LINK_URL, publicUrl),
    databaseUrl: e.DATABASE_URL,
    dbPoolMax: e.DB_POOL_MAX,
    dbLockTimeoutMs: e.DB_LOCK_TIMEOUT_MS,
    dbStatementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS,
    dataDir: e.SESS_DATA_DIR,
    packagesDir: e.SESS_PACKAGES_DIR,
    logLevel: e.LOG_LEVEL,
    tracing: tracingOn(e),
    secret: e.SESS_SECRET,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS ?? (e.NODE_ENV === 'production' ? PRODUCTION_DRAIN_MS : 0),
    linkHorizonSeconds: e.SESS_LINK_HORIZON_SECONDS,
    signupPolicy: e.SESS_SIGNUP ?? (e.NODE_ENV === 'production' ? 'invite' : 'open'),
    oidc: loadOidc(e),
    egress: {
      policy: e.SESS_TEST_LOOPBACK_EGRESS === '1' ? 'loopback-only' : 'public',
      ...(e.SESS_EGRESS_DNS_SERVERS ? { dnsServers: e.SESS_EGRESS_DNS_SERVERS } : {}),
    },
    testHoldNotifications: e.SESS_TEST_HOLD_NOTIFICATIONS === '1',
    mcp: {
      ratePerIp: e.SESS_MCP_RATE_PER_IP,
      ratePerPrincipal: e.SESS_MCP_RATE_PER_PRINCIPAL,
      allowedOrigins: e.SESS_MCP_ALLOWED_ORIGINS ? e.SESS_MCP_ALLOWED_ORIGINS.split(',').map((o) => o.trim()) : [],
    },
    trustedProxies: e.SESS_TRUSTED_PROXIES ?? [],
    notifications: loadNotifications(e, publicUrl),
    admission: Object.fromEntries(
      (
        [
          ['mcp', e.SESS_ADMIT_MCP],
          ['waits', e.SESS_ADMIT_WAITS],
          ['writes', e.SESS_ADMIT_WRITES],
          ['answers', e.SESS_ADMIT_ANSWERS],
          ['pages', e.SESS_ADMIT_PAGES],
        ] as const
      ).filter(([, limit]) => limit !== undefined),
    ),
    maxConnections: e.SESS_MAX_CONNECTIONS,
    metrics: loadMetrics(e),
  };
}

/** METRICS_*: off unless METRICS_PORT or METRICS_TOKEN is set; the own listener never on the main port. */
function loadMetrics(e: z.infer<typeof EnvSchema>): MetricsConfig | null {
  if (e.METRICS_PORT === undefined && e.METRICS_TOKEN === undefined) return null;
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT !== 0 && e.METRICS_PORT === e.PORT)
    throw new ConfigError('METRICS_PORT', `must differ from PORT (both are ${e.PORT}).`);
  return { port: e.METRICS_PORT, host: e.METRICS_HOST, token: e.METRICS_TOKEN };
}

/**
 * The host a VAPID subject names (the mail domain of a mailto:, the host of an https: URL), or
 * undefined when it is neither a `mailto:` address nor an `https:` URL without credentials.
 */
function vapidSubjectHost(value: string): string | undefined {
  if (!URL.canParse(value)) return undefined;
  const url = new URL(value);
  if (url.protocol === 'https:') return url.username || url.password ? undefined : url.hostname;
  if (url.protocol !== 'mailto:') return undefined;
  const match = /^[^\s@/]+@([A-Za-z0-9.-]+)$/.exec(url.pathname);
  return match && !url.search && !url.hash ? match[1] : undefined;
}

/** Hosts no push service can reach an operator at: loopback, example domains, and the reserved test names. */
function isPlaceholderHost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  const labels = name.split('.');
  return (
    isLoopbackHostname(name) ||
    labels.length < 2 ||
    labels.at(-2) === 'example' ||
    ['example', 'invalid', 'test', 'local', 'localhost'].includes(labels.at(-1)!)
  );
}

/**
 * SESS_NOTIFICATIONS, SESS_VAPID_SUBJECT and SMTP_*: the VAPID subject defaults to
 * mailto:sess@localhost outside production and to an https PUBLIC_URL in production; one given
 * in production must name a real address (push services write to it when something goes wrong).
 * SMTP_URL and SMTP_FROM come as a pair.
 */
function loadNotifications(e: z.infer<typeof EnvSchema>, publicUrl: string): NotificationsConfig | null {
  if (e.SMTP_URL && !e.SMTP_FROM)
    throw new ConfigError(
      'SMTP_FROM',
      'is required when SMTP_URL is set: the address e-mails come from, such as sess@your-domain.com.',
    );
  if (e.SMTP_FROM && !e.SMTP_URL)
    throw new ConfigError('SMTP_URL', 'is required when SMTP_FROM is set: the mail server e-mails are sent through.');
  if (e.SESS_NOTIFICATIONS === 'off') return null;
  const production = e.NODE_ENV === 'production';
  const given = e.SESS_VAPID_SUBJECT;
  if (given !== undefined && production && isPlaceholderHost(vapidSubjectHost(given)!))
    throw new ConfigError(
      'SESS_VAPID_SUBJECT',
      `must name a real address when NODE_ENV=production, not localhost, an example domain or a .invalid, .test or .local host (got "${given}").`,
    );
  let vapidSubject = given;
  if (vapidSubject === undefined) {
    // PUBLIC_URL is the address people reach this server at: real by construction when it is https.
    if (!production) vapidSubject = 'mailto:sess@localhost';
    else if (new URL(publicUrl).protocol === 'https:') vapidSubject = publicUrl;
    else
      throw new ConfigError(
        'SESS_VAPID_SUBJECT',
        'is required when NODE_ENV=production and PUBLIC_URL is not https://: a mailto: or https: address push services can reach you at, such as mailto:ops@your-domain.com (or set SESS_NOTIFICATIONS=off).',
      );
  }
  return { vapidSubject, mail: e.SMTP_URL && e.SMTP_FROM ? { smtpUrl: e.SMTP_URL, from: e.SMTP_FROM } : null };
}

/**
 * SESS_LINK_URL is an origin (the answer pages live at its root), and either PUBLIC_URL's own
 * origin or one on another Host: the server tells the two apart by the Host a request names.
 */
function loadLinkUrl(value: string | undefined, publicUrl: string): string {
  if (value === undefined) return publicUrl;
  const link = new URL(value);
  if (link.pathname !== '/')
    throw new ConfigError(
      'SESS_LINK_URL',
      `must be an origin without a path, such as http://192.168.1.23:8787 (got "${value}").`,
    );
  const origin = link.origin;
  const pub = new URL(publicUrl);
  // Host and port as a socket sees them: http://x:443 and https://x meet on one port.
  const endpoint = (url: URL) => `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
  if (origin !== pub.origin && (link.host === pub.host || endpoint(link) === endpoint(pub)))
    throw new ConfigError('SESS_LINK_URL', `must name another host than PUBLIC_URL, or the same origin (got "${value}").`);
  return origin;
}

/** Tracing is on with an OTLP endpoint, unless the SDK is disabled or its traces exporter is none (the SDK's own rules). */
function tracingOn(e: z.infer<typeof EnvSchema>): boolean {
  if (!e.OTEL_EXPORTER_OTLP_ENDPOINT && !e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return false;
  if (e.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = (e.OTEL_TRACES_EXPORTER ?? '').split(',').map((name) => name.trim().toLowerCase());
  return !exporters.includes('none');
}

/** OIDC_* come as a set: all three or none; http:// only outside production. */
function loadOidc(e: z.infer<typeof EnvSchema>): Config['oidc'] {
  const set = [e.OIDC_ISSUER, e.OIDC_CLIENT_ID, e.OIDC_CLIENT_SECRET];
  if (set.every((value) => value === undefined)) return null;
  if (!e.OIDC_ISSUER) throw new ConfigError('OIDC_ISSUER', 'is required when OIDC_CLIENT_ID or OIDC_CLIENT_SECRET is set.');
  if (!e.OIDC_CLIENT_ID) throw new ConfigError('OIDC_CLIENT_ID', 'is required when OIDC_ISSUER is set.');
  if (!e.OIDC_CLIENT_SECRET) throw new ConfigError('OIDC_CLIENT_SECRET', 'is required when OIDC_ISSUER is set.');
  const issuer = new URL(e.OIDC_ISSUER);
  const insecure = issuer.protocol === 'http:';
  if (insecure && e.NODE_ENV === 'production') {
    throw new ConfigError('OIDC_ISSUER', 'must start with https:// when NODE_ENV=production.');
  }
  return {
    issuer: e.OIDC_ISSUER,
    clientId: e.OIDC_CLIENT_ID,
    clientSecret: e.OIDC_CLIENT_SECRET,
    name: e.OIDC_PROVIDER_NAME ?? issuer.hostname,
    allowInsecureRequests: insecure,
  };
}

/** Where the embedded PGlite database lives: its own folder inside the data dir, beside the secret. */
export function embeddedDatabaseDir(config: Config): string {
  return join(config.dataDir, 'pglite');
}
