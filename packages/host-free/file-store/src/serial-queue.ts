/** One queue per handles directory in this process, shared by every store opened on it. */
const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `task` after every task queued before it on `key` has settled, so the writes of one
 * profile in one process never interleave: a compare-and-set reads and writes with no other
 * write between, and the unfinished count of an insert is exact. Processes are not coordinated.
 */
export function runSerially<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  const run = previous.then(task, task);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return run;
}
