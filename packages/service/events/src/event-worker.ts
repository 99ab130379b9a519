import { type Logger, REAL_TIMERS, type Timers } from '@sess/core';
import type { Database } from '@sess/db';
import { sweepClockEvents } from './clock-sweep.ts';
import { EVENTS_WRITTEN_CHANNEL, SEAL_BATCH, sealWaitingEvents } from './seal-chain.ts';

/*
 * Runs on every replica: seals the chain when events are written (the triggers' NOTIFY, a few
 * milliseconds later so a burst is one round), every `sealPollMs` (the `created` events, which
 * send no NOTIFY, and whatever a lost one left waiting), and every `pollMs` records the clock's
 * events.
 * Replicas never block each other: a workspace's chain and a due form are each taken with
 * `skip locked`. A failed round is logged and tried again on the next wake or poll.
 */

export interface EventWorkerOptions {
  database: Database;
  logger: Logger;
  now?: () => Date;
  timers?: Timers;
  /** How often the clock is looked at (default 5 s). */
  pollMs?: number;
  /** How often waiting events are looked for without a wake (default 1 s). */
  sealPollMs?: number;
  /** How long a wake waits for more before its round (default 20 ms). */
  coalesceMs?: number;
  /** False: no bus, no timer; only `runOnce` works (tests that step it themselves). */
  background?: boolean;
}

export interface EventWorker {
  /** Seals every waiting event and records every due clock event now; resolves to the events sealed. */
  runOnce(): Promise<number>;
  close(): Promise<void>;
}

export function startEventWorker(options: EventWorkerOptions): EventWorker {
  const { database, logger } = options;
  const now = options.now ?? (() => new Date());
  const timers = options.timers ?? REAL_TIMERS;
  const pollMs = options.pollMs ?? 5_000;
  const sealPollMs = options.sealPollMs ?? 1_000;
  const coalesceMs = options.coalesceMs ?? 20;
  let closed = false;
  let current: Promise<unknown> = Promise.resolve();
  let queued: Promise<number> | undefined;
  let queuedWithClock = false;
  let timer: unknown;
  let sealTimer: unknown;
  let wakeTimer: unknown;
  let unsubscribe: (() => Promise<void>) | undefined;

  const sealAll = async (): Promise<number> => {
    let total = 0;
    for (;;) {
      const sealed = await sealWaitingEvents(database.db);
      total += sealed;
      // A full batch: more may wait. Fewer: all sealed, or the rest is another replica's.
      if (sealed < SEAL_BATCH || closed) return total;
    }
  };

  const round = async (withClock: boolean): Promise<number> => {
    if (withClock) while ((await sweepClockEvents(database.db, now())) === 500 && !closed) {}
    return sealAll();
  };

  /** One round at a time; wakes while one waits to start join it, so a burst of NOTIFYs is one round. */
  const run = (withClock: boolean): Promise<number> => {
    queuedWithClock ||= withClock;
    if (queued) return queued;
    const next = current
      .catch(() => {})
      .then(() => {
        queued = undefined;
        const clock = queuedWithClock;
        queuedWithClock = false;
        return round(clock);
      });
    queued = next;
    current = next;
    return next;
  };

  const background = (withClock: boolean) =>
    void run(withClock).catch((error: unknown) => {
      logger.warn({ event: 'events.round_failed', err: error }, 'sealing events failed; trying again on the next wake');
    });

  const schedule = () => {
    if (closed) return;
    timer = timers.setTimeout(() => {
      background(true);
      schedule();
    }, pollMs);
  };
  const scheduleSeal = () => {
    if (closed) return;
    sealTimer = timers.setTimeout(() => {
      background(false);
      scheduleSeal();
    }, sealPollMs);
  };
  const wake = () => {
    if (closed || wakeTimer !== undefined) return;
    wakeTimer = timers.setTimeout(() => {
      wakeTimer = undefined;
      background(false);
    }, coalesceMs);
  };

  if (options.background !== false) {
    void database.bus
      .subscribe(EVENTS_WRITTEN_CHANNEL, wake)
      .then((off) => {
        if (closed) void off();
        else unsubscribe = off;
      })
      .catch((error: unknown) =>
        logger.warn({ event: 'events.listen_failed', err: error }, 'events: LISTEN failed; polling only'),
      );
    schedule();
    scheduleSeal();
    background(true);
  }

  return {
    runOnce: () => run(true),
    async close() {
      closed = true;
      for (const pending of [timer, sealTimer, wakeTimer]) if (pending !== undefined) timers.clearTimeout(pending);
      await unsubscribe?.();
      await current.catch(() => {});
    },
  };
}
