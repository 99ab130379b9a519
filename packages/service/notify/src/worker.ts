import { type Logger, SessError } from '@sess/core';
import type { Egress } from '@sess/core/egress';
import type { Database, Db } from '@sess/db';
import { createDeliveryGate } from './delivery-gate.ts';
import { OUTBOX_CHANNEL } from './enqueue.ts';
import { createMailSender, type MailConfig, type MailSender } from './mail-sender.ts';
import type { NoticeTexts } from './message.ts';
import type { VapidIdentity } from './push-sender.ts';
import { createNotifySealers, type NotifySealers } from './sealers.ts';
import { loadVapidKeys } from './vapid.ts';
import { createDeliveries } from './worker/deliveries.ts';
import { createRowHandler } from './worker/handle-row.ts';
import { createOutboxLoop } from './worker/outbox-loop.ts';
import { tracedRows } from './worker/trace-row.ts';

export { backoffMs, MAX_ATTEMPTS } from './worker/retry-rules.ts';

/*
 * The outbox worker: sends what enqueue.ts wrote, after commit, from any number of replicas.
 * A row is claimed with a lease (`locked_until`, `for update skip locked`), and every later
 * write to it is fenced on the attempt count it was claimed with, so a worker whose lease ran
 * out cannot undo what the next one did. A crash between a send and the delete resends after
 * the lease with the same Topic and id, which replaces the earlier notification on the device.
 *
 * Rows are handled each on its own, never as a batch: up to `maxInFlight` claimed rows are in
 * flight at once, each settled when it ends, and claiming goes on while there is room, so a slow
 * push service holds only the rows that wait for it. And only a few of those: every send goes
 * through its service's gate (delivery-gate.ts). A push service (or the mail server) whose
 * circuit is open, or with all the sends it may have in flight and no slot free within a second,
 * is not sent to: the row is rescheduled for that device, and the worker goes on.
 *
 * Its parts, in worker/: retry-rules.ts (when a row is tried again or given up), deliveries.ts
 * (push and e-mail through the gate), handle-row.ts (one row, start to end) and outbox-loop.ts
 * (claiming and settling). This file checks the options and puts them together.
 */

/** What a lease must cover beyond a row's two sends (a push, then an e-mail): its statements and waits for a slot. */
const LEASE_MARGIN_MS = 10_000;
/**
 * How long a send waits for a slot of a full service before its row is rescheduled: a healthy
 * service frees one every few milliseconds; a hung one holds the rows that wait no longer.
 */
const SLOT_WAIT_MS = 1_000;

export interface NotificationWorkerOptions {
  database: Database;
  /** The server secret (the sealers' root). */
  secret: string;
  logger: Logger;
  now?: () => Date;
  /** The VAPID contact (RFC 8292 `sub`): a `mailto:` or `https:` address. */
  vapidSubject: string;
  /** Where pushes go out: the egress policy decides which push services may be reached. */
  egress: Egress;
  /** E-mail as the second channel; none without it. */
  mail?: MailConfig;
  /**
   * Sess's words in a notice, in its language (@sess/notify-pages' `noticeTexts`: the catalogs
   * are @sess/web's, which notify may not import).
   */
  texts: NoticeTexts;
  /** How often due rows are looked for without a wake (retries, quiet hours, reminders). */
  pollMs?: number;
  /**
   * How long a claimed row is this worker's; after it another worker sends it again. It must
   * cover a row in flight: twice `timeoutMs` (a push, then an e-mail) and 10 s for its statements.
   */
  leaseMs?: number;
  /** Rows claimed by one statement, at most (fewer when fewer fit in `maxInFlight`). */
  batch?: number;
  /** Rows in flight at once (claimed, not yet settled). */
  maxInFlight?: number;
  /** Bound on one push or one e-mail. */
  timeoutMs?: number;
  /** How long a send waits for a slot of a full service before its row is rescheduled (default 1 s). */
  slotWaitMs?: number;
  /**
   * False: no poll timer, no bus wake and no run at start; only `runOnce` sends (tests that
   * want each step to happen when they say).
   */
  background?: boolean;
}

export interface NotificationWorker {
  /** Looks for due rows now, or once the claim under way ends (wakes meanwhile are one). */
  wake(): void;
  /**
   * Claims and sends everything due now; resolves once nothing due is left unclaimed and every
   * row in flight is settled, to how many rows were finished meanwhile (sent or dropped).
   */
  runOnce(): Promise<number>;
  /** Settles once a background worker listens for commits (or gave up listening and only polls). */
  listening: Promise<void>;
  /** Stops claiming and waits for the rows in flight to be settled (their sends are bounded by `timeoutMs`). */
  close(): Promise<void>;
}

/** Checks the VAPID subject: RFC 8292 asks for a contact, `mailto:` or `https:`. */
export function checkVapidSubject(subject: string): string {
  const ok = URL.canParse(subject) && ['mailto:', 'https:'].includes(new URL(subject).protocol);
  if (!ok)
    throw new SessError(
      'NOT_CONFIGURED',
      'The VAPID subject must be a mailto: or https: address where push services can reach the operator, such as mailto:ops@example.com.',
      { field: '/vapidSubject' },
    );
  return subject;
}

export function startNotificationWorker(options: NotificationWorkerOptions): NotificationWorker {
  const { database, logger } = options;
  const db: Db = database.db;
  const now = options.now ?? (() => new Date());
  const leaseMs = options.leaseMs ?? 60_000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  if (leaseMs < 2 * timeoutMs + LEASE_MARGIN_MS)
    throw new SessError(
      'NOT_CONFIGURED',
      `The lease (${leaseMs} ms) must cover a row in flight: at least twice the send timeout (${timeoutMs} ms) plus ${LEASE_MARGIN_MS} ms.`,
      { field: '/leaseMs' },
    );
  const vapidSubject = checkVapidSubject(options.vapidSubject);
  const sealers: NotifySealers = createNotifySealers(options.secret);
  const mail: MailSender | null = options.mail ? createMailSender(options.mail, { timeoutMs }) : null;

  let vapid: Promise<VapidIdentity> | null = null;
  const vapidIdentity = (): Promise<VapidIdentity> => {
    vapid ??= loadVapidKeys(db, sealers).then(
      (keys) => ({ subject: vapidSubject, ...keys }),
      (error: unknown) => {
        vapid = null; // the next run tries again
        throw error;
      },
    );
    return vapid;
  };

  const deliveries = createDeliveries({
    db,
    logger,
    now,
    // This replica's view of the services it sends through (see delivery-gate.ts).
    gate: createDeliveryGate({ now }),
    egress: options.egress,
    mail,
    vapidIdentity,
    timeoutMs,
    slotWaitMs: options.slotWaitMs ?? SLOT_WAIT_MS,
  });
  const loop = createOutboxLoop({
    db,
    sealers,
    logger,
    now,
    handleRow: tracedRows(createRowHandler({ db, logger, sealers, deliveries, mail, texts: options.texts })),
    leaseMs,
    batch: options.batch ?? 20,
    maxInFlight: options.maxInFlight ?? 100,
  });

  const background = options.background ?? true;
  let timer: NodeJS.Timeout | undefined;
  let unsubscribe: Promise<(() => Promise<void>) | undefined> = Promise.resolve(undefined);
  let offReconnect: (() => void) | undefined;
  if (background) {
    timer = setInterval(loop.wake, options.pollMs ?? 5_000);
    timer.unref();
    unsubscribe = database.bus.subscribe(OUTBOX_CHANNEL, loop.wake).catch((error: unknown) => {
      logger.warn({ event: 'notify.listen_failed', err: error }, 'no wake on commit; the poll still sends');
      return undefined;
    });
    // Wakes sent while the listener was down are lost.
    offReconnect = database.bus.onReconnect(loop.wake);
    loop.wake(); // rows a crash left behind
  }

  return {
    wake: loop.wake,
    runOnce: loop.runOnce,
    listening: unsubscribe.then(() => {}),
    async close() {
      loop.stop();
      clearInterval(timer);
      offReconnect?.();
      await (await unsubscribe)?.();
      await loop.untilIdle().catch(() => 0); // a failed claim was logged
      mail?.close();
    },
  };
}
