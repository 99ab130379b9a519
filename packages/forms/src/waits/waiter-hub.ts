import type { Logger } from '@sess/core';
import type { NotifyBus } from '@sess/db';

/** Channel of session changes; the payload is `<sessionId> <revision>`. */
export const FORM_EVENTS_CHANNEL = 'form_events';

/** The payload of a session change notification. */
export function formEventPayload(sessionId: string, revision: number): string {
  return `${sessionId} ${revision}`;
}

type Wake = () => void;

/**
 * Parked waits of this process, by session id, fed by ONE subscription to `form_events` on the
 * notify bus. A parked wait is a callback in a map: it holds no database connection. When a
 * session changes anywhere (any replica), its waiters are woken to re-read it; when the bus
 * reconnects after a loss, every waiter is woken, since notifications may have been missed.
 */
export class WaiterHub {
  readonly #waiters = new Map<string, Set<Wake>>();
  #started: Promise<void> | undefined;
  #unsubscribe: Array<() => Promise<void> | void> = [];

  constructor(
    private readonly bus: NotifyBus,
    private readonly logger: Logger,
  ) {}

  /**
   * Subscribes once (idempotent). `channels` are extra channels whose notifications call their
   * handler (the signing-key rotation channel).
   */
  start(channels: Record<string, () => void> = {}): Promise<void> {
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
    for (const wake of [...set]) wake();
  }

  /** Registers a waiter for a session; returns the function that removes it (call it exactly once). */
  park(sessionId: string, wake: Wake): () => void {
    let set = this.#waiters.get(sessionId);
    if (!set) {
      set = new Set();
      this.#waiters.set(sessionId, set);
    }
    set.add(wake);
    return () => {
      const current = this.#waiters.get(sessionId);
      if (!current) return;
      current.delete(wake);
      if (current.size === 0) this.#waiters.delete(sessionId);
    };
  }

  /** Wakes every parked waiter (each re-reads once). */
  wakeAll(): void {
    for (const set of [...this.#waiters.values()]) for (const wake of [...set]) wake();
  }

  /** Number of parked waiters in this process. */
  get size(): number {
    let n = 0;
    for (const set of this.#waiters.values()) n += set.size;
    return n;
  }

  /** Wakes everyone (so they return promptly) and drops the subscriptions. */
  async close(): Promise<void> {
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
 * Reads, and while the value is not done parks on the hub until a notification for the
 * session, the next time-based change, the deadline or an abort; each wake re-reads once. The
 * waiter is registered before the first read, so a change landing between the read and the
 * park is never missed. Returns the last value read; an abort returns at once.
 */
export async function waitForChange<T>(hub: WaiterHub, spec: WaitSpec<T>): Promise<T> {
  if (spec.waitMs <= 0 || spec.signal?.aborted) return spec.read();
  let notified = false;
  let wakeUp: (() => void) | undefined;
  const remove = hub.park(spec.sessionId, () => {
    notified = true;
    wakeUp?.();
  });
  const deadline = performance.now() + spec.waitMs;
  let onAbort: (() => void) | undefined;
  try {
    let value = await spec.read();
    while (!spec.isDone(value) && !spec.signal?.aborted) {
      const remaining = deadline - performance.now();
      if (remaining <= 0) break;
      if (!notified) {
        const change = spec.nextTimeChange(value);
        const untilChange = change ? Math.max(0, change.getTime() - spec.now().getTime()) : Number.POSITIVE_INFINITY;
        const delay = Math.min(remaining, untilChange, 2 ** 31 - 1);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(finish, delay);
          function finish() {
            clearTimeout(timer);
            wakeUp = undefined;
            if (onAbort) spec.signal?.removeEventListener('abort', onAbort);
            resolve();
          }
          wakeUp = finish;
          onAbort = finish;
          spec.signal?.addEventListener('abort', onAbort, { once: true });
        });
      }
      if (spec.signal?.aborted) break;
      if (notified) {
        notified = false;
        value = await spec.read();
      } else if (deadline - performance.now() > 0) {
        // A time-based change (an expiry) is due: re-read so the state is computed at the new time.
        value = await spec.read();
      }
    }
    return value;
  } finally {
    remove();
  }
}
