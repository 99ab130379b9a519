import { createLogger, type RootLogger } from '@sess/core';
import { isLogAuditOn, recordLogLine } from './log-audit/capture.ts';

const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };

/** Where a test wants its log lines: an array, a stream, or stdout when only a level is given. */
export interface TestLoggerOptions {
  /** The lines the test itself sees (default `silent`). */
  level?: string;
  destination?: { write(line: string): unknown };
}

/**
 * The one way tests make a logger: `createLogger` from @sess/core (the production root, its
 * redaction and error summaries), seen by the test at `level` — and, while the log audit runs,
 * at level trace into the audit's capture, so every line the code can write is checked for
 * secrets after the suites (packages/testkit/log-audit).
 */
export function createTestLogger(options: TestLoggerOptions = {}): RootLogger {
  const level = options.level ?? 'silent';
  const destination = options.destination ?? (level === 'silent' ? undefined : process.stdout);
  if (!isLogAuditOn()) return createLogger({ level, ...(destination ? { destination } : {}) });
  const threshold = LEVELS[level] ?? LEVELS.info!;
  return createLogger({
    level: 'trace',
    destination: {
      write(line: string) {
        recordLogLine(line);
        if (destination && levelOf(line) >= threshold) destination.write(line);
      },
    },
  });
}

function levelOf(line: string): number {
  const label = /"level":"(\w+)"/.exec(line)?.[1];
  return (label === undefined ? undefined : LEVELS[label]) ?? LEVELS.info!;
}

/** The `LOG_LEVEL` for a Sess process a test spawns: trace while the audit captures, else `otherwise`. */
export function childLogLevel(otherwise = 'warn'): string {
  return isLogAuditOn() ? 'trace' : otherwise;
}

/**
 * Splits a spawned Sess process's stdout: its log lines (pino JSON, with a `level`) go to the
 * audit, everything else (a command's output) is handed back to the test, so tests see what they
 * saw at `LOG_LEVEL=warn`.
 */
export function createChildOutputSplitter(): { write(chunk: string | Buffer): string; end(): string } {
  let pending = '';
  const take = (line: string): string => {
    if (isLogAuditOn() && line.startsWith('{') && /"level":"\w+"/.test(line)) {
      try {
        JSON.parse(line);
        recordLogLine(line);
        return '';
      } catch {
        // not a log line after all
      }
    }
    return `${line}\n`;
  };
  return {
    write(chunk) {
      pending += String(chunk);
      let out = '';
      for (let at = pending.indexOf('\n'); at >= 0; at = pending.indexOf('\n')) {
        out += take(pending.slice(0, at));
        pending = pending.slice(at + 1);
      }
      return out;
    },
    end() {
      const rest = pending;
      pending = '';
      if (!rest) return '';
      const out = take(rest);
      return out.endsWith('\n') ? out.slice(0, -1) : out;
    },
  };
}
