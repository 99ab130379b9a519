import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, inject, it } from 'vitest';
import { findLeaks } from '../src/log-audit/check.ts';

/*
 * The log audit (README.md beside this file): runs after the integration projects of the same
 * run (vitest `sequence.groupOrder`), reads every log line they captured at level trace and every
 * secret they used, and fails on any secret found in any log line.
 */
const dir = inject('logAuditDir');
const files = dir && existsSync(dir) ? readdirSync(dir) : [];
const ran = files.filter((name) => name.startsWith('ran-')).map((name) => name.slice(4));

function lines(prefix: string): string[] {
  return files
    .filter((name) => name.startsWith(prefix))
    .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n'))
    .filter((line) => line.length > 0);
}

it.skipIf(ran.length === 0)(
  `no link, token, key, password, answer or form text the integration suites used is in any log line (${ran.join(', ') || 'no integration project ran in this run: nothing to audit'})`,
  () => {
    const secrets = lines('secrets-').map((line) => JSON.parse(line) as { kind: string; value: string });
    const logs = lines('logs-');
    // The capture itself worked: an empty capture would pass vacuously.
    expect(secrets.length, 'secrets captured').toBeGreaterThan(0);
    expect(logs.length, 'log lines captured').toBeGreaterThan(0);
    const leaks = findLeaks(secrets, logs);
    expect(
      leaks,
      `${leaks.length} secrets in the logs of ${ran.join(', ')} (${logs.length} lines, ${secrets.length} secrets)`,
    ).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  },
  120_000,
);
