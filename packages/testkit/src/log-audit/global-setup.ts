import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import './capture.ts';

/** Where every run keeps its audit directory: one per vitest main process, `test-results/log-audit/<pid>`. */
export const LOG_AUDIT_ROOT = join('test-results', 'log-audit');

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The log audit's global setup, in the integration projects and in the log-audit project: all
 * of one run share `test-results/log-audit/<pid of the vitest main process>` (every project's
 * global setup runs in that process), so the audit reads exactly this run's captures. Folders of
 * runs whose process is gone are removed; a passing audit removes its own.
 */
export default function setup(project: TestProject): void {
  mkdirSync(LOG_AUDIT_ROOT, { recursive: true });
  for (const name of readdirSync(LOG_AUDIT_ROOT)) {
    const pid = Number(name);
    if (Number.isSafeInteger(pid) && pid !== process.pid && !isAlive(pid)) {
      rmSync(join(LOG_AUDIT_ROOT, name), { recursive: true, force: true });
    }
  }
  const dir = join(LOG_AUDIT_ROOT, String(process.pid));
  mkdirSync(dir, { recursive: true });
  project.provide('logAuditDir', join(process.cwd(), dir));
}
