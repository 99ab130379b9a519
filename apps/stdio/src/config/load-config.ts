import { homedir } from 'node:os';
import { isAbsolute, join, win32 } from 'node:path';
import { checkApiOrigin } from '@sess/core';
import { z } from 'zod';

/*
 * The server's configuration: the seed's table, read from the process environment once at
 * start-up (every variable but SESS_API_KEY, which is read on the first tool call). A bad value
 * is refused with a message that names the variable and never repeats its value: an origin can
 * carry credentials, and nothing here should echo what the owner typed.
 * @see ../../../../docs/contract/sess-mcp-readme.md "Configuration"
 */

/** The hosted API. */
export const DEFAULT_API_ORIGIN = 'https://api.sess.si';
/** The wait ceiling of sess_response; SESS_MCP_MAX_WAIT_MS may only lower it. */
export const WAIT_CEILING_MS = 45_000;
/** The durable steps the test-only fault hook can stop at (`SESS_MCP_TEST_PAUSE_AT`). */
export const PAUSE_POINTS = ['after_create_intent', 'after_mutation_saved'] as const;
export type PausePoint = (typeof PAUSE_POINTS)[number];

/** The file store's own rule: one path segment, not starting with a dot. */
const PROFILE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const WORKSPACE_ID_PATTERN = /^ws_[a-z2-7]{26}$/;

/** A configuration the owner must fix: the variable and a fixed sentence, never the value. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** What the server runs with. */
export interface StdioConfig {
  /** `scheme://host[:port]`, no trailing slash. */
  origin: string;
  profile: string;
  stateDir: string;
  maxWaitMs: number;
  /** The receipts' `iss`; the origin unless SESS_RECEIPT_ISSUER says otherwise. */
  receiptIssuer: string;
  expectedWorkspaceId: string | undefined;
  /** Test-only: stop (and wait to be killed) right after this durable step. */
  pauseAt: PausePoint | undefined;
}

/** An empty variable is an unset one (hosts write `"${env:X}"` whether X is set or not). */
const optional = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value === '' ? undefined : value));

const EnvSchema = z.object({
  SESS_API_ORIGIN: optional,
  SESS_MCP_PROFILE: optional,
  SESS_MCP_STATE_DIR: optional,
  SESS_MCP_MAX_WAIT_MS: optional,
  SESS_RECEIPT_ISSUER: optional,
  SESS_EXPECTED_WORKSPACE_ID: optional,
  SESS_MCP_TEST_PAUSE_AT: optional,
  XDG_STATE_HOME: optional,
  LOCALAPPDATA: optional,
  HOME: optional,
});
type Env = z.infer<typeof EnvSchema>;

/**
 * An origin as core's `checkApiOrigin` allows it: `https://host[:port]` without path, query,
 * fragment or credentials, or plain http to a loopback host (a local Sess), with no flag.
 */
function parseOrigin(variable: string, raw: string): string {
  const checked = checkApiOrigin(raw);
  if (checked.ok) return checked.origin;
  throw new ConfigError(
    variable,
    `${variable} must be an https:// origin without path, query or credentials (plain http:// only to this computer: localhost, 127.0.0.1 or [::1]).`,
  );
}

/** The seed's default: `$XDG_STATE_HOME/sess-mcp`, `~/.local/state/sess-mcp`, or `%LOCALAPPDATA%\sess-mcp`. */
function defaultStateDir(env: Env, platform: NodeJS.Platform): string {
  if (platform === 'win32') {
    if (env.LOCALAPPDATA && win32.isAbsolute(env.LOCALAPPDATA)) return win32.join(env.LOCALAPPDATA, 'sess-mcp');
    throw new ConfigError(
      'SESS_MCP_STATE_DIR',
      'SESS_MCP_STATE_DIR is not set and %LOCALAPPDATA% is not an absolute path; set it.',
    );
  }
  // XDG: a relative XDG_STATE_HOME is invalid and must be ignored.
  if (env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME)) return join(env.XDG_STATE_HOME, 'sess-mcp');
  const home = env.HOME ?? homedir();
  if (!home || !isAbsolute(home)) {
    throw new ConfigError('SESS_MCP_STATE_DIR', 'SESS_MCP_STATE_DIR is not set and the home directory is unknown; set it.');
  }
  return join(home, '.local', 'state', 'sess-mcp');
}

/**
 * Reads the configuration from `environment` (the process environment in production).
 * @throws ConfigError naming the variable to fix.
 */
export function loadConfig(
  environment: Record<string, string | undefined>,
  platform: NodeJS.Platform = process.platform,
): StdioConfig {
  const env = EnvSchema.parse(environment);

  // SESS_MCP_TEST_ALLOW_INSECURE_LOCALHOST, once needed for http://localhost, is ignored: loopback is always taken.
  const origin = parseOrigin('SESS_API_ORIGIN', env.SESS_API_ORIGIN ?? DEFAULT_API_ORIGIN);

  const profile = env.SESS_MCP_PROFILE ?? 'default';
  if (!PROFILE_PATTERN.test(profile)) {
    throw new ConfigError(
      'SESS_MCP_PROFILE',
      'SESS_MCP_PROFILE must be 1–64 letters, digits, ".", "_" or "-", not starting with "." or "-".',
    );
  }

  let stateDir: string;
  if (env.SESS_MCP_STATE_DIR !== undefined) {
    const absolute = platform === 'win32' ? win32.isAbsolute(env.SESS_MCP_STATE_DIR) : isAbsolute(env.SESS_MCP_STATE_DIR);
    if (!absolute) throw new ConfigError('SESS_MCP_STATE_DIR', 'SESS_MCP_STATE_DIR must be an absolute path.');
    stateDir = env.SESS_MCP_STATE_DIR;
  } else {
    stateDir = defaultStateDir(env, platform);
  }

  let maxWaitMs = WAIT_CEILING_MS;
  if (env.SESS_MCP_MAX_WAIT_MS !== undefined) {
    const value = Number(env.SESS_MCP_MAX_WAIT_MS);
    if (!/^\d+$/.test(env.SESS_MCP_MAX_WAIT_MS) || !Number.isSafeInteger(value) || value > WAIT_CEILING_MS) {
      throw new ConfigError(
        'SESS_MCP_MAX_WAIT_MS',
        'SESS_MCP_MAX_WAIT_MS must be a whole number of milliseconds from 0 to 45000.',
      );
    }
    maxWaitMs = value;
  }

  const receiptIssuer =
    env.SESS_RECEIPT_ISSUER === undefined ? origin : parseOrigin('SESS_RECEIPT_ISSUER', env.SESS_RECEIPT_ISSUER);

  const expectedWorkspaceId = env.SESS_EXPECTED_WORKSPACE_ID;
  if (expectedWorkspaceId !== undefined && !WORKSPACE_ID_PATTERN.test(expectedWorkspaceId)) {
    throw new ConfigError(
      'SESS_EXPECTED_WORKSPACE_ID',
      'SESS_EXPECTED_WORKSPACE_ID must be a workspace id (ws_ and 26 letters or digits).',
    );
  }

  const pauseAt = env.SESS_MCP_TEST_PAUSE_AT;
  if (pauseAt !== undefined && !(PAUSE_POINTS as readonly string[]).includes(pauseAt)) {
    throw new ConfigError(
      'SESS_MCP_TEST_PAUSE_AT',
      `SESS_MCP_TEST_PAUSE_AT must be one of ${PAUSE_POINTS.join(', ')} (tests only).`,
    );
  }

  return {
    origin,
    profile,
    stateDir,
    maxWaitMs,
    receiptIssuer,
    expectedWorkspaceId,
    pauseAt: pauseAt as PausePoint | undefined,
  };
}
