import { isAbsolute, join } from 'node:path';
import { SessError } from '@sess/core';

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
/** Testing only: `1` allows `http://localhost`, `127.0.0.1` or `[::1]` as SESS_API_ORIGIN. */
export const INSECURE_LOCALHOST_VARIABLE = 'SESS_OPENCLAW_TEST_ALLOW_INSECURE_LOCALHOST';

/** What the tools run with (no key: it is read from the environment on each first call). */
export interface PluginConfig {
  origin: string;
  /** The receipts' `iss`; the origin unless SESS_RECEIPT_ISSUER says otherwise. */
  receiptIssuer: string;
  expectedWorkspaceId: string | undefined;
  allowInsecureLocalhost: boolean;
  /** `<OpenClaw state dir>/sess`: the file store's state directory. */
  stateDir: string;
  maxWaitMs: number;
}

type Env = Record<string, string | undefined>;

const WORKSPACE_ID_PATTERN = /^ws_[a-z2-7]{26}$/;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

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
 * An origin as sess-mcp takes it: `https://host[:port]` without path, query, fragment or
 * credentials; plain http only for loopback under the test-only flag. (@sess/client checks the
 * origin again when it is used; this check only names the variable.)
 */
function parseOrigin(variable: string, raw: string, allowInsecureLocalhost: boolean): string {
  const refuse = () =>
    notConfigured(
      `${variable} in the Gateway's environment must be an https:// origin without path, query or credentials. The owner fixes it in ~/.openclaw/.env and restarts the Gateway.`,
    );
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse();
  }
  const bare = url.username === '' && url.password === '' && url.search === '' && url.hash === '' && !/[?#]/.test(raw);
  if (!bare || url.pathname !== '/' || /^[a-z]+:\/\/[^/]+\/./i.test(raw)) throw refuse();
  if (url.protocol === 'https:') return url.origin;
  if (url.protocol === 'http:' && allowInsecureLocalhost && LOOPBACK_HOSTS.has(url.hostname)) return url.origin;
  throw refuse();
}

/**
 * Reads the configuration from the Gateway's environment and OpenClaw's state directory.
 * @throws SessError NOT_CONFIGURED naming the variable to fix.
 */
export function readPluginConfig(env: Env, openclawStateDir: string): PluginConfig {
  const flag = read(env, INSECURE_LOCALHOST_VARIABLE);
  if (flag !== undefined && flag !== '0' && flag !== '1') {
    throw notConfigured(`${INSECURE_LOCALHOST_VARIABLE} must be 1 or unset (tests only).`);
  }
  const allowInsecureLocalhost = flag === '1';
  const origin = parseOrigin('SESS_API_ORIGIN', read(env, 'SESS_API_ORIGIN') ?? DEFAULT_API_ORIGIN, allowInsecureLocalhost);
  const issuer = read(env, 'SESS_RECEIPT_ISSUER');
  const receiptIssuer = issuer === undefined ? origin : parseOrigin('SESS_RECEIPT_ISSUER', issuer, allowInsecureLocalhost);
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
    allowInsecureLocalhost,
    stateDir: join(openclawStateDir, 'sess'),
    maxWaitMs: OPENCLAW_WAIT_MS,
  };
}
