/**
 * The timers a bounded wait runs on (the database layer's gates, breaker and probes; the MCP
 * edge's request deadline). The real ones by default; a test hands in its own
 * (`createManualTimers` in testkit) to end a wait when it chooses instead of sleeping or timing.
 * Like `setTimeout`, arguments after `ms` go to the callback, so a timer need not close over them.
 */
export interface Timers {
  setTimeout<A extends unknown[]>(callback: (...args: A) => void, ms: number, ...args: A): unknown;
  clearTimeout(handle: unknown): void;
}

export const REAL_TIMERS: Timers = {
  setTimeout: (callback, ms, ...args) => setTimeout(callback, ms, ...args),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
