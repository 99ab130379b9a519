import type { Logger } from './logger.ts';

export interface SweeperOptions {
  /** Names the log events: `<name>.swept` and `<name>.sweep_failed`. */
  name: string;
  /** Deletes what has outlived its use as of `at`; returns how many rows of each kind went. */
  sweep(at: Date): Promise<Record<string, number>>;
  logger: Logger;
  now: () => Date;
  /** The least time between two sweeps of this process; an hour when absent. */
  everyMs?: number;
}

/**
 * Housekeeping that rides on traffic instead of a timer: the returned function starts a sweep
 * when the last one in this process began at least `everyMs` ago and none is running, so there
 * is nothing to stop at shutdown and an idle server does no work. Callers invoke it on a request
 * path without awaiting it. It never throws; it returns the sweep's promise, or undefined when it
 * is not yet time. Replicas sweep independently; every sweep is a plain delete, safe to repeat.
 */
export function createSweeper(options: SweeperOptions): () => Promise<void> | undefined {
  const everyMs = options.everyMs ?? 3_600_000;
  let last = Number.NEGATIVE_INFINITY;
  let running = false;
  return function sweepIfDue() {
    const at = options.now();
    if (running || at.getTime() - last < everyMs) return undefined;
    last = at.getTime();
    running = true;
    return options
      .sweep(at)
      .then((report) => {
        if (Object.values(report).some((n) => n > 0))
          options.logger.info({ event: `${options.name}.swept`, ...report }, 'expired rows deleted');
      })
      .catch((error: unknown) =>
        options.logger.warn({ event: `${options.name}.sweep_failed`, err: error }, 'sweep failed; the next one retries'),
      )
      .finally(() => {
        running = false;
      });
  };
}
