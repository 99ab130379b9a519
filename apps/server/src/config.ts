import { join } from 'node:path';
import { z } from 'zod';

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

const databaseUrl = z.string().superRefine((value, ctx) => {
  if (!URL.canParse(value))
    return void ctx.addIssue({ code: 'custom', message: 'must be a URL such as postgres://user:password@host:5432/sess' });
  const url = new URL(value);
  if (!/^postgres(ql)?:$/.test(url.protocol))
    ctx.addIssue({ code: 'custom', message: 'must start with postgres:// or postgresql://' });
  else if (!url.hostname && !url.searchParams.has('host')) ctx.addIssue({ code: 'custom', message: 'must name a host' });
});

/** Environment variables read at start-up, each with its rule. The only reader of process.env. */
const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: integer(0, 65_535).default(8787),
  HOST: z.string().min(1, 'must not be empty').default('127.0.0.1'),
  PUBLIC_URL: httpUrl.optional(),
  DATABASE_URL: databaseUrl.optional(),
  DB_POOL_MAX: integer(1, 200).default(10),
  SESS_DATA_DIR: z.string().min(1, 'must not be empty').default('./.data'),
  LOG_LEVEL: z.enum(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  SESS_SECRET: z.string().min(32, 'must be at least 32 characters (for example: openssl rand -base64 32)').optional(),
  SHUTDOWN_GRACE_MS: integer(0, 600_000).default(10_000),
});

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** The public origin (no trailing slash) that links, metadata and tokens name. */
  publicUrl: string;
  databaseUrl: string | undefined;
  dbPoolMax: number;
  dataDir: string;
  logLevel: (typeof LOG_LEVELS)[number];
  /** Undefined until resolved: generated into the data dir when absent outside production. */
  secret: string | undefined;
  shutdownGraceMs: number;
}

// Values of these variables are never echoed back in an error (they can hold credentials).
const SECRET_VARIABLES = new Set(['DATABASE_URL', 'SESS_SECRET']);

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
  if (e.NODE_ENV === 'production' && !e.SESS_SECRET) {
    throw new ConfigError('SESS_SECRET', 'is required when NODE_ENV=production (for example: openssl rand -base64 32).');
  }
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    databaseUrl: e.DATABASE_URL,
    dbPoolMax: e.DB_POOL_MAX,
    dataDir: e.SESS_DATA_DIR,
    logLevel: e.LOG_LEVEL,
    secret: e.SESS_SECRET,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
  };
}

/** Where the embedded PGlite database lives: its own folder inside the data dir, beside the secret. */
export function embeddedDatabaseDir(config: Config): string {
  return join(config.dataDir, 'pglite');
}
