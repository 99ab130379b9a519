import { isAbsolute, join } from 'node:path';
import { checkApiOrigin, SessError } from '@sess/core';

/*
 * The plugin's configuration, from the Gateway's own environment only (OpenClaw loads
 * `~/.openclaw/.env` into it): never from the plugin config, never from a tool argument. A bad
 * value is NOT_CONFIGURED on each tool call, naming the variable and never repeating its value,
 * so a mistake cannot stop the Gateway and nothing the owner typed is echoed to a chat.
 * @see ../../../../docs/contract/sess-mcp-readme.md "OpenClaw"
 */

/** The hosted API. */
export const DEFAULT_API_ORIGIN = 'https://api.sess.si';
/** The environment variable the key is read from. */
export const API_KEY_VARIABLE = 'SESS_API_KEY';
/**
 * The longest wait of one sess_response. A chat turn ends; the person says continue. Shorter
 * than sess-mcp's 45 s so an agent's turn is not held for long.
 */
export const OPENCLAW_WAIT_MS = 15_000;
/** The profile of every plugin record: one Gateway, one key. */
export const PLUGIN_PROFILE = 'default';

/** What the tools run with (no key: it is read from the environment on each first call). */
export interface PluginConfig {
  origin: string;
  /** The receipts' `iss`; the origin unless SESS_RECEIPT_ISSUER says otherwise. */
  receiptIssuer: string;
  expectedWorkspaceId: string | undefined;
  /** `<OpenClaw state dir>/sess`: the file store's state directory. */
  stateDir: string;
  maxWaitMs: number;
}

type Env = Record<string, string | undefined>;

const WORKSPACE_ID_PATTERN = /^ws_[a-z2-7]{26}$/;

/** An empty variable is an unset one. */
function read(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** A variable the owner must fix: the message names it, never its value. */
function notConfigured(message: string): SessError {
  return new SessError('NOT_CONFIGURED', message);
}

/**
 * An origin as sess-mcp takes it (core's `checkApiOrigin`): `https://host[:port]` without path,
 * query, fragment or credentials, or plain http to a loopback host (a local Sess). (@sess/client
 * checks the origin again when it is used; this check only names the variable.)
 */
function parseOrigin(variable: string, raw: string): string {
  const checked = checkApiOrigin(raw);
  if (checked.ok) return checked.origin;
  throw notConfigured(
    `${variable} in the Gateway's environment must be an https:// origin without path, query or credentials (plain http:// only to this computer: localhost, 127.0.0.1 or [::1]). The owner fixes it in ~/.openclaw/.env and restarts the Gateway.`,
  );
}

/**
 * Reads the configuration from the Gateway's environment and OpenClaw's state directory.
 * @throws SessError NOT_CONFIGURED naming the variable to fix.
 */
export function readPluginConfig(env: Env, openclawStateDir: string): PluginConfig {
  // SESS_OPENCLAW_TEST_ALLOW_INSECURE_LOCALHOST, once needed for http://localhost, is ignored: loopback is always taken.
  const origin = parseOrigin('SESS_API_ORIGIN', read(env, 'SESS_API_ORIGIN') ?? DEFAULT_API_ORIGIN);
  const issuer = read(env, 'SESS_RECEIPT_ISSUER');
  const receiptIssuer = issuer === undefined ? origin : parseOrigin('SESS_RECEIPT_ISSUER', issuer);
  const expectedWorkspaceId = read(env, 'SESS_EXPECTED_WORKSPACE_ID');
  if (expectedWorkspaceId !== undefined && !WORKSPACE_ID_PATTERN.test(expectedWorkspaceId)) {
    throw notConfigured('SESS_EXPECTED_WORKSPACE_ID must be a workspace id (ws_ and 26 letters or digits).');
  }
  if (!isAbsolute(openclawStateDir)) {
    throw notConfigured("OpenClaw's state directory is not an absolute path; the owner checks OPENCLAW_STATE_DIR.");
  }
  return {
    origin,
    receiptIssuer,
    expectedWorkspaceId,
    stateDir: join(openclawStateDir, 'sess'),
    maxWaitMs: OPENCLAW_WAIT_MS,
  };
}
