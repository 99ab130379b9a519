import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';

/*
 * The capture side of the log audit (see packages/testkit/log-audit/README.md): in every test
 * worker of the integration projects, each log line any logger writes (at level trace) and each
 * secret value the tests used go to files in the run's audit directory; after the suites, the
 * log-audit project looks for every secret in every log line.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where this run's log audit collects log lines and secrets ('' when the audit is off). */
    logAuditDir: string;
  }
}

/** What kind of value a secret is, for the audit's report. */
export type SecretKind =
  | 'request-body'
  | 'request-url'
  | 'credential'
  | 'cookie'
  | 'response-secret'
  | 'answer'
  | 'form-text'
  | 'password'
  | 'api-key'
  | 'link'
  | 'token';

let dir: string | null | undefined;
let logFd: number | undefined;
const secrets = new Map<string, SecretKind>();

/** The run's audit directory, or null outside a run with the audit (a plain script, the unit project). */
export function logAuditDir(): string | null {
  if (dir !== undefined) return dir;
  try {
    dir = inject('logAuditDir') || null;
  } catch {
    dir = null;
  }
  if (dir) mkdirSync(dir, { recursive: true });
  return dir;
}

/** True while log lines and secrets are being captured. */
export function isLogAuditOn(): boolean {
  return logAuditDir() !== null;
}

/** Appends one log line (pino JSON) to this worker's capture file; a no-op when the audit is off. */
export function recordLogLine(line: string): void {
  const at = logAuditDir();
  if (!at) return;
  logFd ??= openSync(join(at, `logs-${process.pid}.ndjson`), 'a');
  writeSync(logFd, line.endsWith('\n') ? line : `${line}\n`);
}

/** Values shorter than this are not audited: they would match inside anything (numbers, words). */
export const MIN_SECRET_LENGTH = 8;

/**
 * Remembers a value the tests used that must never reach a log line: a link, token, API key,
 * password, answer value or form text. Short values and pure numbers are skipped (see
 * MIN_SECRET_LENGTH). Written to the run's audit directory when the test file ends.
 */
export function recordSecret(value: unknown, kind: SecretKind): void {
  if (typeof value !== 'string' || !isLogAuditOn()) return;
  const trimmed = value.trim();
  if (trimmed.length < MIN_SECRET_LENGTH || /^[-+]?\d+(\.\d+)?$/.test(trimmed)) return;
  if (!secrets.has(trimmed)) secrets.set(trimmed, kind);
}

/** Every string leaf of a JSON-like value, as `kind`. */
export function recordSecretLeaves(value: unknown, kind: SecretKind, depth = 0): void {
  if (depth > 32) return;
  if (typeof value === 'string') recordSecret(value, kind);
  else if (Array.isArray(value)) for (const item of value) recordSecretLeaves(item, kind, depth + 1);
  else if (value && typeof value === 'object') {
    for (const item of Object.values(value as Record<string, unknown>)) recordSecretLeaves(item, kind, depth + 1);
  }
}

/** Writes the secrets collected so far to this worker's file (called after each test file). */
export function flushSecrets(): void {
  const at = logAuditDir();
  if (!at || secrets.size === 0) return;
  const fd = openSync(join(at, `secrets-${process.pid}.ndjson`), 'a');
  try {
    let chunk = '';
    for (const [value, kind] of secrets) {
      chunk += `${JSON.stringify({ kind, value })}\n`;
      if (chunk.length > 65_536) {
        writeSync(fd, chunk);
        chunk = '';
      }
    }
    if (chunk) writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
  secrets.clear();
}
