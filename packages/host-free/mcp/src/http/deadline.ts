/**
 * How a deadline schedules and cancels its one timer. The real timers by default; a test passes
 * its own to end a deadline when the test chooses, rather than timing how long it took.
 */
export interface DeadlineTimers {
  set(expire: (deadline: Deadline) => void, ms: number, deadline: Deadline): unknown;
  clear(timer: unknown): void;
}

/** `setTimeout` with the deadline as the timer's argument, not captured by a closure: a parked wait holds its deadline. */
export const REAL_DEADLINE_TIMERS: DeadlineTimers = {
  set: (expire, ms, deadline) => setTimeout(expire, ms, deadline),
  clear: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

/**
 * A request's one absolute deadline: a single timer from entry. It can be ended early (the
 * client went away) or cleared (the response is complete). An `AbortSignal` is made only when
 * something needs one — a tool's wait — because most requests never do, and an AbortController
 * per request is a measurable share of a cached answer's cost.
 */
export class Deadline {
  readonly #timers: DeadlineTimers;
  #timer: unknown;
  #expired = false;
  /** Made on first use: past authentication and the body nothing listens, and a wait holds the deadline 45 s. */
  #listeners: Set<() => void> | undefined;
  #controller: AbortController | undefined;

  constructor(ms: number, timers: DeadlineTimers = REAL_DEADLINE_TIMERS) {
    this.#timers = timers;
    this.#timer = timers.set(expireDeadline, ms, this);
  }

  get expired(): boolean {
    return this.#expired;
  }

  /** Ends the deadline now (or when the timer fires): every listener runs once, the signal aborts. */
  expire(): void {
    if (this.#expired) return;
    this.#expired = true;
    this.clear();
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners) for (const listener of listeners) listener();
    this.#controller?.abort();
  }

  /** Calls `listener` when the deadline passes; returns the unsubscribe. */
  onExpire(listener: () => void): () => void {
    if (this.#expired) {
      queueMicrotask(listener);
      return () => {};
    }
    this.#listeners ??= new Set();
    const listeners = this.#listeners;
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.#listeners === listeners) this.#listeners = undefined;
    };
  }

  /** Stops the timer: the response is complete, nothing is waiting on the deadline any more. */
  clear(): void {
    if (this.#timer !== undefined) this.#timers.clear(this.#timer);
    this.#timer = undefined;
  }

  /** An AbortSignal that aborts when the deadline passes (made on first use). */
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#expired) this.#controller.abort();
    }
    return this.#controller.signal;
  }
}

function expireDeadline(deadline: Deadline): void {
  deadline.expire();
}
