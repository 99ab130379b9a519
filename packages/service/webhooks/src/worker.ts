import { createSweeper, type Logger, SessError } from '@sess/core';
import type { Egress } from '@sess/core/egress';
import type { Database } from '@sess/db';
import { EVENTS_SEALED_CHANNEL } from '@sess/events';
import { fanOut } from './fanout.ts';
import { type ClaimedDelivery, claimDue, settleDelivery } from './outbox.ts';
import { createWebhookSealer } from './secrets.ts';
import { sendDelivery } from './send.ts';
import { sweepDeliveries } from './sweep.ts';

/*
 * The webhook worker, on every replica: fans sealed events out to the outbox, then claims due
 * deliveries and sends each through the egress. Woken by the chain sealer's `events_sealed`,
 * by `webhooks_due` (a test event), after the bus reconnects, and by a poll (retries, and
 * wakes lost while no replica listened). At-least-once: a crash between a send and its settle
 * sends again after the lease, with the same `webhook-id`.
 */

/** Sent in the transaction that writes a delivery outside the fanout (a test event). */
export const WEBHOOKS_DUE_CHANNEL = 'webhooks_due';

export interface WebhookWorkerOptions {
  database: Database;
  /** The server secret (the endpoint secrets' sealer's root). */
  secret: string;
  /** Every delivery goes out here: `public` in production, `loopback-only` in tests. */
  egress: Egress;
  logger: Logger;
  now?: () => Date;
  pollMs?: number;
  /** How long a claimed delivery is this worker's; must cover a try (`timeoutMs`) and its statements. */
  leaseMs?: number;
  /** Bound on one try. */
  timeoutMs?: number;
  /** Deliveries claimed (and sent at once) per statement. */
  batch?: number;
  /** False: no poll, no wake, no run at start; only `runOnce` works (tests). */
  background?: boolean;
}

export interface WebhookWorker {
  wake(): void;
  /** Fans out and sends everything due now; resolves to the deliveries that ended (delivered, failed, dropped) or were rescheduled. */
  runOnce(): Promise<number>;
  close(): Promise<void>;
}

export function startWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const { database, logger, egress } = options;
  const db = database.db;
  const now = options.now ?? (() => new Date());
  const timeoutMs = options.timeoutMs ?? 10_000;
  const leaseMs = options.leaseMs ?? 60_000;
  const batch = options.batch ?? 50;
  if (leaseMs < timeoutMs + 10_000)
    throw new SessError(
      'NOT_CONFIGURED',
      `The webhook lease (${leaseMs} ms) must be at least the try's timeout (${timeoutMs} ms) plus 10 s.`,
      {
        field: '/leaseMs',
      },
    );
  const sealer = createWebhookSealer(options.secret);
  const sendOptions = { egress, sealer, logger, timeoutMs };

  async function handle(row: ClaimedDelivery, at: Date): Promise<void> {
    const { attempt, end } = await sendDelivery(sendOptions, row, at);
    await settleDelivery(db, row, attempt, end, now());
  }

  // Ended deliveries leave the log after 30 days: at most hourly, started by a run, never awaited.
  const sweep = createSweeper({ name: 'webhooks', logger, now, sweep: (at) => sweepDeliveries(db, at) });

  let sweeping: Promise<void> | undefined;

  async function run(): Promise<number> {
    sweeping = sweep() ?? sweeping;
    for (;;) {
      const { more } = await fanOut(db, now());
      if (!more) break;
    }
    let handled = 0;
    for (;;) {
      const at = now();
      const rows = await claimDue(db, { at, leaseMs, batch });
      const ends = await Promise.allSettled(rows.map((row) => handle(row, at)));
      for (const [i, end] of ends.entries()) {
        // Left leased: tried again after the lease, with the same webhook-id.
        if (end.status === 'rejected')
          logger.error({ event: 'webhooks.settle_failed', deliveryId: rows[i]!.id, err: end.reason }, 'webhook try not recorded');
        else handled += 1;
      }
      if (rows.length < batch) return handled;
    }
  }

  let running: Promise<number> | null = null;
  let again = false;
  let stopped = false;
  const start = (): Promise<number> => {
    const current = run().finally(() => {
      running = null;
      if (again && !stopped) {
        again = false;
        void start().catch(() => {});
      }
    });
    running = current;
    current.catch((error: unknown) =>
      logger.error({ event: 'webhooks.run_failed', err: error }, 'webhook run failed; the poll tries again'),
    );
    return current;
  };
  const wake = () => {
    if (stopped) return;
    if (running) again = true;
    else void start().catch(() => {});
  };

  const background = options.background ?? true;
  let timer: NodeJS.Timeout | undefined;
  const unsubscribers: Promise<(() => Promise<void>) | undefined>[] = [];
  let offReconnect: (() => void) | undefined;
  if (background) {
    timer = setInterval(wake, options.pollMs ?? 5_000);
    timer.unref();
    for (const channel of [EVENTS_SEALED_CHANNEL, WEBHOOKS_DUE_CHANNEL])
      unsubscribers.push(
        database.bus.subscribe(channel, wake).catch((error: unknown) => {
          logger.warn({ event: 'webhooks.listen_failed', channel, err: error }, 'no wake on commit; the poll still sends');
          return undefined;
        }),
      );
    offReconnect = database.bus.onReconnect(wake);
    wake();
  }

  return {
    wake,
    async runOnce() {
      while (running) await running.catch(() => 0);
      return start();
    },
    async close() {
      stopped = true;
      clearInterval(timer);
      offReconnect?.();
      for (const unsubscribe of unsubscribers) await (await unsubscribe)?.();
      await running?.catch(() => 0);
      await sweeping;
    },
  };
}
