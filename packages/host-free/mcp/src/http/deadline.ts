import { REAL_TIMERS, type Timers } from '@sess/core';

/**
 * A request's one absolute deadline: a single timer from entry. It can be ended early (the
 * client went away) or cleared (the response is complete). An `AbortSignal` is made only when
 * something needs one — a tool's wait — because most requests never do, and an AbortController
 * per request is a measurable share of a cached answer's cost.
 */
export class Deadline {
  readonly #timers: Timers;
  #timer: unknown;
  #expired = false;
  /** Made on first use: past authentication and the body nothing listens, and a wait holds the deadline 45 s. */
  #listeners: Set<() => void> | undefined;
  #controller: AbortController | undefined;

  /** `timers`: the real ones by default; a test's own ends a deadline when the test chooses. */
  constructor(ms: number, timers: Timers = REAL_TIMERS) {
    this.#timers = timers;
    // The deadline is the timer's argument, not captured by a closure: a parked wait holds its deadline.
    this.#timer = timers.setTimeout(expireDeadline, ms, this);
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
    if (this.#timer !== undefined) this.#timers.clearTimeout(this.#timer);
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
