/**
 * At most one task in flight per key: a caller asking for a key whose task is still running gets
 * that task's promise instead of starting another. Nothing is kept once the task settles.
 */
export interface SingleFlight<T> {
  /** The task running for `key`, if there is one. */
  pending(key: string): Promise<T> | undefined;
  /** Starts `task` for `key`, or joins the one already running for it. */
  run(key: string, task: () => Promise<T>): Promise<T>;
}

export function createSingleFlight<T>(): SingleFlight<T> {
  const flights = new Map<string, Promise<T>>();
  return {
    pending: (key) => flights.get(key),
    run(key, task) {
      const running = flights.get(key);
      if (running) return running;
      const flight = task().finally(() => {
        if (flights.get(key) === flight) flights.delete(key);
      });
      flights.set(key, flight);
      return flight;
    },
  };
}
