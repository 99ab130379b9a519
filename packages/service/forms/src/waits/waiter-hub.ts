import type { Logger } from '@sess/core';
import type { NotifyBus } from '@sess/db';
import type { FormsObserver } from '../runtime/forms-observer.ts';

/** Channel of session changes; the payload is `<sessionId> <revision>`, an answer's with a third field (`answerWrittenAtMs`). */
export const FORM_EVENTS_CHANNEL = 'form_events';

/** The payload of a session change notification. */
export function formEventPayload(sessionId: string, revision: number): string {
  return `${sessionId} ${revision}`;
}

/**
 * An answer's notification carries a third field, the wall-clock milliseconds it was written at
 * (`<sessionId> <revision> <ms>`), so the process it wakes can tell how long the wake took (the
 * `woken` of `FormsObserver`). A reader of the id alone (an older release) is unaffected.
 */
export function answerWrittenAtMs(): string {
  return String(Date.now());
}

/**
 * The time a wait runs on: monotonic milliseconds (a wall clock that jumps must not end a wait
 * early) and the timers of its deadline and expiries. Tests hand in a clock they move by hand.
 */
export interface WaitClock {
  monotonicMs(): number;
  setTimeout<A>(callback: (arg: A) => void, ms: number, arg: A): unknown;
  clearTimeout(handle: unknown): void;
}

export const REAL_WAIT_CLOCK: WaitClock = {
  monotonicMs: () => performance.now(),
  setTimeout: (callback, ms, arg) => setTimeout(callback, ms, arg),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** A wait as the hub holds it: woken to re-read, or released to return what it last read. */
interface Parked {
  wake(): void;
  release(): void;
}

/**
 * Parked waits of this process, by session id, fed by ONE subscription to `form_events` on the
 * notify bus. A parked wait is an entry in a map: it holds no database connection. When a
 * session changes anywhere (any replica), its waiters are woken to re-read it; when the bus
 * reconnects after a loss, every waiter is woken, since notifications may have been missed.
 * The hub also knows the order the waits began in, so the oldest can be let go first.
 */
export class WaiterHub {
  readonly #waiters = new Map<string, Set<Parked>>();
  /** Every wait in the order it began (a Set keeps insertion order): the oldest first. */
  readonly #byAge = new Set<Parked>();
  #started: Promise<void> | undefined;
  #unsubscribe: Array<() => Promise<void> | void> = [];
  #closed = false;

  constructor(
    private readonly bus: NotifyBus,
    private readonly logger: Logger,
    readonly clock: WaitClock = REAL_WAIT_CLOCK,
    private readonly observer?: Pick<FormsObserver, 'woken'>,
  ) {}

  /**
   * Subscribes once (idempotent). `channels` are extra channels whose notifications call their
   * handler (the signing-key rotation channel).
   */
  start(channels: Record<string, () => void> = {}): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#started ??= (async () => {
      this.#unsubscribe.push(await this.bus.subscribe(FORM_EVENTS_CHANNEL, (payload) => this.#deliver(payload)));
      for (const [channel, handler] of Object.entries(channels)) {
        this.#unsubscribe.push(await this.bus.subscribe(channel, handler));
      }
      this.#unsubscribe.push(
        this.bus.onReconnect(() => {
          this.logger.info({ event: 'forms.waits.rewake', waiters: this.size }, 'bus reconnected; waking every waiter');
          for (const handler of Object.values(channels)) handler();
          this.wakeAll();
        }),
      );
    })().catch((error: unknown) => {
      this.#started = undefined;
      throw error;
    });
    return this.#started;
  }

  #deliver(payload: string): void {
    const space = payload.indexOf(' ');
    const sessionId = space === -1 ? payload : payload.slice(0, space);
    const set = this.#waiters.get(sessionId);
    if (!set) return;
    if (this.observer && space !== -1) this.#observeWake(payload, space);
    for (const waiter of [...set]) waiter.wake();
  }

  /** An answer's notification (see `answerWrittenAtMs`) tells the observer how long it took to get here. */
  #observeWake(payload: string, space: number): void {
    const second = payload.indexOf(' ', space + 1);
    if (second === -1) return;
    const writtenAt = Number(payload.slice(second + 1));
    if (Number.isFinite(writtenAt)) this.observer!.woken(Math.max(0, Date.now() - writtenAt) / 1000);
  }

  /** Registers a waiter for a session; `unpark` removes it (call it exactly once). */
  park(sessionId: string, waiter: Parked): void {
    let set = this.#waiters.get(sessionId);
    if (!set) {
      set = new Set();
      this.#waiters.set(sessionId, set);
    }
    set.add(waiter);
    this.#byAge.add(waiter);
  }

  unpark(sessionId: string, waiter: Parked): void {
    this.#byAge.delete(waiter);
    const current = this.#waiters.get(sessionId);
    if (!current) return;
    current.delete(waiter);
    if (current.size === 0) this.#waiters.delete(sessionId);
  }

  /** Wakes every parked waiter (each re-reads once). */
  wakeAll(): void {
    for (const waiter of [...this.#byAge]) waiter.wake();
  }

  /**
   * Lets the `count` oldest waits go now: each returns what it last read (still waiting), as at
   * its deadline, and its client asks again later. A wait whose read is under way returns when
   * that read lands. Returns how many were let go. Why: a process near its connection limit
   * frees the connections parked waits hold, rather than having new connections refused.
   */
  releaseOldest(count: number): number {
    let released = 0;
    for (const waiter of this.#byAge) {
      if (released >= count) break;
      // Out of the age order at once, so the next call lets the next-oldest go.
      this.#byAge.delete(waiter);
      waiter.release();
      released++;
    }
    return released;
  }

  /** Number of waits in this process (parked, or reading between wakes). */
  get size(): number {
    return this.#byAge.size;
  }

  /**
   * True once `close` began: a wait then answers what it last read instead of parking (the
   * replica is stopping, and its client waits again on another one).
   */
  get closed(): boolean {
    return this.#closed;
  }

  /** Answers every parked wait with its current value and drops the subscriptions; later waits read once. */
  async close(): Promise<void> {
    this.#closed = true;
    this.wakeAll();
    const unsubscribe = this.#unsubscribe;
    this.#unsubscribe = [];
    this.#started = undefined;
    await Promise.allSettled(unsubscribe.map((u) => u()));
  }
}

/** How a wait reads and judges what it waits on. */
export interface WaitSpec<T> {
  sessionId: string;
  /** One read of the current value (one indexed query). */
  read: () => Promise<T>;
  /** True when the value is final for this wait (return it). */
  isDone: (value: T) => boolean;
  /** When the value will change by the clock alone (an expiry), if ever. */
  nextTimeChange: (value: T) => Date | null;
  /** Longest wait in milliseconds (0 = read once). */
  waitMs: number;
  signal?: AbortSignal | undefined;
  now: () => Date;
}

/**
 * One wait in progress, parked as one record and one promise rather than a chain of suspended
 * async frames (a parked wait lives up to 45 s, and thousands may be parked: issue 17). It is the
 * abort listener itself (`handleEvent`), and its timer calls a static function with it as the
 * argument, so a parked wait holds no closure but the hub's wake.
 */
class Wait<T> implements Parked {
  readonly #hub: WaiterHub;
  readonly #spec: WaitSpec<T>;
  readonly #resolve: (value: T) => void;
  readonly #reject: (error: unknown) => void;
  readonly #until: number;
  /** A notification arrived since the last read began. */
  #notified = false;
  /** Let go early by the hub: return the next value read (or the last, if parked) at once. */
  #released = false;
  /** Set while parked (between reads): the timer of the next time-based change or the deadline. */
  #timer: unknown;
  #value: T | undefined;
  #settled = false;

  constructor(hub: WaiterHub, spec: WaitSpec<T>, resolve: (value: T) => void, reject: (error: unknown) => void) {
    this.#hub = hub;
    this.#spec = spec;
    this.#resolve = resolve;
    this.#reject = reject;
    this.#until = hub.clock.monotonicMs() + spec.waitMs;
    // Registered before the first read: a change landing between the read and the park is never missed.
    hub.park(spec.sessionId, this);
    spec.signal?.addEventListener('abort', this, { once: true });
    this.#read();
  }

  #read(): void {
    let reading: Promise<T>;
    try {
      reading = this.#spec.read();
    } catch (error) {
      reading = Promise.reject(error);
    }
    reading.then(
      (value) => this.#judge(value),
      (error: unknown) => this.#fail(error),
    );
  }

  /** After each read: done, out of time, aborted, the hub closing, re-read at once (notified meanwhile), or park. */
  #judge(value: T): void {
    if (this.#settled) return;
    this.#value = value;
    const spec = this.#spec;
    const remaining = this.#until - this.#hub.clock.monotonicMs();
    if (spec.isDone(value) || spec.signal?.aborted || this.#released || remaining <= 0 || this.#hub.closed) {
      this.#settle();
    } else if (this.#notified) {
      this.#notified = false;
      this.#read();
    } else {
      const change = spec.nextTimeChange(value);
      const untilChange = change ? Math.max(0, change.getTime() - spec.now().getTime()) : Number.POSITIVE_INFINITY;
      this.#timer = this.#hub.clock.setTimeout(Wait.#onTimer, Math.min(remaining, untilChange, 2 ** 31 - 1), this);
    }
  }

  /** Clears the park's timer; false when it was not parked (a read is under way). */
  #unpark(): boolean {
    if (this.#timer === undefined) return false;
    this.#hub.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    return true;
  }

  /** A notification for the session: re-read now if parked, else right after the read under way. */
  wake(): void {
    this.#notified = true;
    if (!this.#unpark()) return;
    this.#notified = false;
    this.#read();
  }

  /** The deadline or a time-based change (an expiry): re-read so the state is computed at the new time. */
  static #onTimer<T>(wait: Wait<T>): void {
    wait.#timer = undefined;
    if (wait.#until - wait.#hub.clock.monotonicMs() > 0) wait.#read();
    else wait.#settle();
  }

  /** The signal aborted: a parked wait returns its last value at once; a read under way returns when it lands. */
  handleEvent(): void {
    if (this.#unpark()) this.#settle();
  }

  /** The hub lets this wait go early: the same as an abort, without one. */
  release(): void {
    this.#released = true;
    if (this.#unpark()) this.#settle();
  }

  #finish(): boolean {
    if (this.#settled) return false;
    this.#settled = true;
    this.#unpark();
    this.#hub.unpark(this.#spec.sessionId, this);
    this.#spec.signal?.removeEventListener('abort', this);
    return true;
  }

  #settle(): void {
    if (this.#finish()) this.#resolve(this.#value as T);
  }

  #fail(error: unknown): void {
    if (this.#finish()) this.#reject(error);
  }
}

/**
 * Reads, and while the value is not done parks on the hub until a notification for the
 * session, the next time-based change, the deadline or an abort; each wake re-reads once. The
 * waiter is registered before the first read, so a change landing between the read and the
 * park is never missed. Returns the last value read; an abort returns at once, and so does every
 * wait when the hub closes (a stopping server answers its parked waits with their current state).
 */
export function waitForChange<T>(hub: WaiterHub, spec: WaitSpec<T>): Promise<T> {
  if (spec.waitMs <= 0 || spec.signal?.aborted || hub.closed) return spec.read();
  return new Promise<T>((resolve, reject) => {
    new Wait(hub, spec, resolve, reject);
  });
}
