import { type Logger, SessError } from '@sess/core';
import type { Egress } from '@sess/core/egress';
import { type Database, type Db, notificationOutbox, users } from '@sess/db';
import { and, eq, sql } from 'drizzle-orm';
import { type NoticePayload, OUTBOX_CHANNEL } from './enqueue.ts';
import { createMailSender, type MailConfig, type MailSender } from './mail-sender.ts';
import { composeMessage, devicePayload, type NotificationMessage } from './message.ts';
import { type ClaimedNotice, claimDue, type SessionFacts, settleBatch } from './outbox-claims.ts';
import { sendPush, type VapidIdentity } from './push-sender.ts';
import { createNotifySealers, type NotifySealers } from './sealers.ts';
import { afterQuietHours, type NotificationSettings } from './settings.ts';
import { forgetDevice, markFailed } from './subscriptions.ts';
import { loadVapidKeys } from './vapid.ts';

/*
 * The outbox worker: sends what enqueue.ts wrote, after commit, from any number of replicas.
 * A row is claimed with a lease (`locked_until`, `for update skip locked`), and every later
 * write to it is fenced on the attempt count it was claimed with, so a worker whose lease ran
 * out cannot undo what the next one did. A crash between a send and the delete resends after
 * the lease with the same Topic and id, which replaces the earlier notification on the device.
 */

export const MAX_ATTEMPTS = 8;
const BACKOFF_BASE_MS = 15_000;
const BACKOFF_CAP_MS = 30 * 60_000;

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
  /** How often due rows are looked for without a wake (retries, quiet hours, reminders). */
  pollMs?: number;
  /** How long a claimed row is this worker's; after it another worker sends it again. */
  leaseMs?: number;
  /** Rows claimed at a time (sent concurrently). */
  batch?: number;
  /** Bound on one push or one e-mail. */
  timeoutMs?: number;
  /**
   * False: no poll timer, no bus wake and no run at start; only `runOnce` sends (tests that
   * want each step to happen when they say).
   */
  background?: boolean;
}

export interface NotificationWorker {
  /** Looks for due rows soon (coalesced with a run already waiting). */
  wake(): void;
  /** Claims and sends everything due now; resolves to how many rows it finished (sent or dropped). */
  runOnce(): Promise<number>;
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

/** The wait before retry `attempts` + 1: 15 s doubling per attempt, at most 30 min, ±25 % jitter. */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.75 + random() * 0.5));
}

type ClaimedRow = ClaimedNotice;

/**
 * How one row ended: `finished` (sent or dropped: deleted when its batch settles) or `later`
 * (rescheduled); and the devices that accepted it.
 */
interface RowEnd {
  end: 'finished' | 'later';
  delivered: string[];
}

export function startNotificationWorker(options: NotificationWorkerOptions): NotificationWorker {
  const { database, logger } = options;
  const db: Db = database.db;
  const now = options.now ?? (() => new Date());
  const leaseMs = options.leaseMs ?? 60_000;
  const batch = options.batch ?? 20;
  const timeoutMs = options.timeoutMs ?? 10_000;
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

  /** Every later write to a claimed row: only while it is still this claim's. */
  const mine = (row: ClaimedRow) => and(eq(notificationOutbox.id, row.id), eq(notificationOutbox.attempts, row.attempts));

  const finished = (delivered: string[] = []): RowEnd => ({ end: 'finished', delivered });
  const later = (delivered: string[] = []): RowEnd => ({ end: 'later', delivered });

  function drop(row: ClaimedRow, reason: string, level: 'info' | 'warn' = 'info'): RowEnd {
    logger[level](
      { event: 'notify.dropped', outboxId: row.id, kind: row.kind, reason, attempts: row.attempts },
      'notification dropped',
    );
    return finished();
  }

  /** Why the row is not to be sent at all (any more), or null. */
  function staleReason(
    row: ClaimedRow,
    session: SessionFacts | undefined,
    settings: NotificationSettings,
    at: Date,
  ): string | null {
    if (row.expiresAt.getTime() <= at.getTime()) return 'lapsed';
    if (!session) return 'session_gone';
    const kind = row.kind;
    if (kind === 'ask_answer' || kind === 'ask_closed') {
      if (session.state === 'withdrawn') return 'withdrawn';
      if (settings.askUpdates === 'off' || (kind === 'ask_answer' && settings.askUpdates !== 'each_answer')) return 'turned_off';
      return null;
    }
    // A form, its follow-up or its reminder: only while the form still waits for the person.
    if (session.state !== 'open' || session.closesAt.getTime() <= at.getTime() || session.answered) return 'settled';
    if (kind === 'reminder' && !settings.reminders) return 'turned_off';
    return null;
  }

  async function handleRow(row: ClaimedRow, at: Date): Promise<RowEnd> {
    const { session, settings } = row;
    const stale = staleReason(row, session, settings, at);
    if (stale || !session) return drop(row, stale ?? 'session_gone');

    const until = afterQuietHours(settings, at);
    if (until.getTime() >= row.expiresAt.getTime()) return drop(row, 'lapses_in_quiet_hours');
    if (until.getTime() > at.getTime()) {
      // Postponed, not failed: the attempt is given back.
      await db
        .update(notificationOutbox)
        .set({ notBefore: until, lockedUntil: null, attempts: sql`${notificationOutbox.attempts} - 1` })
        .where(mine(row));
      logger.debug(
        { event: 'notify.postponed', outboxId: row.id, kind: row.kind },
        'notification postponed to the end of quiet hours',
      );
      return later();
    }

    let content: NoticePayload;
    try {
      content = JSON.parse(sealers.outbox.open(row.sessionId, row.payload)) as NoticePayload;
    } catch {
      return drop(row, 'unreadable', 'warn'); // sealed under another secret
    }
    const ask = session.askMax === null ? null : { answered: session.askAnswered, max: session.askMax };
    const message = composeMessage(row.kind, content, ask);
    const lastAttempt = row.attempts >= MAX_ATTEMPTS;
    // No later try when the longest wait before one would outlast the link.
    const finalTry = lastAttempt || at.getTime() + backoffMs(row.attempts, () => 1) >= row.expiresAt.getTime();

    const push = settings.pushEnabled
      ? await pushToDevices(row, message, at)
      : { accepted: 0, retry: false, retryAfterSeconds: 0, delivered: [] };
    let emailed = false;
    let retry = push.retry;
    // A device that took it on an earlier try counts: the person has it.
    const reached = push.accepted + row.sentBefore;
    // E-mail when no device took it, once no device is still to be retried (or no try is left).
    if (reached === 0 && (!push.retry || finalTry) && settings.emailEnabled && mail) {
      const result = await sendMail(row, message);
      emailed = result === 'accepted';
      retry ||= result === 'retry';
    }

    const delivered = reached > 0 || emailed;
    if (delivered)
      logger.info(
        {
          event: 'notify.sent',
          outboxId: row.id,
          kind: row.kind,
          devices: push.accepted,
          email: emailed,
          attempts: row.attempts,
        },
        'notification sent',
      );
    if (!retry) return delivered ? finished(push.delivered) : drop(row, 'no_channel');
    // A device (or the mail server) asked for another try. The devices that took it now are
    // remembered with the row (`sent_to`): the retry pushes only to the others, so nobody is
    // shown it twice (a crash between a send and the delete still resends to every device:
    // the same Topic and tag then replace the one still shown).
    const delay = Math.max(backoffMs(row.attempts), push.retryAfterSeconds * 1000);
    const next = new Date(at.getTime() + delay);
    if (finalTry || next.getTime() >= row.expiresAt.getTime()) {
      if (delivered) return finished(push.delivered);
      return drop(row, lastAttempt ? 'attempts_exhausted' : 'lapses_before_retry', 'warn');
    }
    const sentTo = sql`${notificationOutbox.sentTo} || array(select json_array_elements_text(${JSON.stringify(push.delivered)}::json))`;
    await db.update(notificationOutbox).set({ notBefore: next, lockedUntil: null, sentTo }).where(mine(row));
    logger.info(
      { event: 'notify.retry', outboxId: row.id, kind: row.kind, attempts: row.attempts, delayMs: delay },
      'notification to be retried',
    );
    return later(push.delivered);
  }

  async function pushToDevices(row: ClaimedRow, message: NotificationMessage, at: Date) {
    const targets = row.devices;
    const outcome = { accepted: 0, retry: false, retryAfterSeconds: 0, delivered: [] as string[] };
    if (targets.length === 0) return outcome;
    const payload = devicePayload(message, { id: row.id, topic: row.topic });
    if (payload === null) {
      logger.warn({ event: 'notify.too_large', outboxId: row.id, kind: row.kind }, 'notification too large to push');
      return outcome;
    }
    const identity = await vapidIdentity();
    const ttlSeconds = Math.max(0, Math.floor((row.expiresAt.getTime() - at.getTime()) / 1000));
    await Promise.all(
      targets.map(async (target) => {
        const result = await sendPush(target, payload, {
          vapid: identity,
          ttlSeconds,
          topic: row.topic,
          urgency: 'high',
          timeoutMs,
          egress: options.egress,
        });
        const fields = { outboxId: row.id, deviceId: target.id, status: result.status };
        switch (result.outcome) {
          case 'accepted':
            outcome.accepted += 1;
            outcome.delivered.push(target.id); // recorded when the batch settles
            return;
          case 'gone':
            await forgetDevice(db, row.userId, target.id);
            logger.info({ event: 'notify.device_gone', ...fields }, 'push subscription gone; device forgotten');
            return;
          case 'retry':
            outcome.retry = true;
            outcome.retryAfterSeconds = Math.max(outcome.retryAfterSeconds, result.retryAfterSeconds ?? 0);
            await markFailed(db, row.userId, target.id, at);
            logger.info({ event: 'notify.push_failed', ...fields }, 'push failed; to be retried');
            return;
          case 'rejected':
            await markFailed(db, row.userId, target.id, at);
            logger.warn({ event: 'notify.push_rejected', ...fields }, 'push service refused the push');
        }
      }),
    );
    return outcome;
  }

  async function sendMail(row: ClaimedRow, message: NotificationMessage) {
    const [person] = await db.select({ email: users.email }).from(users).where(eq(users.id, row.userId));
    if (!person || !mail) return 'rejected' as const;
    const result = await mail.send(person.email, message);
    if (result.outcome !== 'accepted')
      logger.info(
        { event: 'notify.mail_failed', outboxId: row.id, outcome: result.outcome, responseCode: result.responseCode },
        'e-mail not accepted',
      );
    return result.outcome;
  }

  /** Claims and processes batches until nothing more is due; returns the rows finished. */
  async function drain(): Promise<number> {
    let count = 0;
    for (;;) {
      const at = now();
      const rows = await claimDue(db, sealers, { at, leaseMs, batch });
      if (rows.length === 0) return count;
      const ends = await Promise.all(
        rows.map((row) =>
          handleRow(row, at).catch((error: unknown): RowEnd => {
            // Left leased: another run sends it after the lease.
            logger.error(
              { event: 'notify.row_failed', outboxId: row.id, kind: row.kind, err: error },
              'notification not processed',
            );
            return later();
          }),
        ),
      );
      const done = rows.filter((_, i) => ends[i]!.end === 'finished');
      await settleBatch(db, {
        done: done.map((row) => ({ id: row.id, attempts: row.attempts })),
        delivered: rows.flatMap((row, i) => ends[i]!.delivered.map((deviceId) => ({ userId: row.userId, deviceId }))),
        at,
      });
      count += done.length;
      // A batch short of full took everything due: no second look until the next wake.
      if (rows.length < batch) return count;
    }
  }

  let closed = false;
  let tail: Promise<unknown> = Promise.resolve();
  let queued = false;

  const runOnce = (): Promise<number> => {
    const run = tail.then(drain);
    tail = run.catch(() => {});
    return run;
  };

  const wake = (): void => {
    if (closed || queued) return;
    queued = true;
    const run = tail.then(() => {
      queued = false;
      return closed ? 0 : drain();
    });
    tail = run.catch((error: unknown) =>
      logger.error({ event: 'notify.run_failed', err: error }, 'notification run failed; the poll tries again'),
    );
  };

  const background = options.background ?? true;
  let timer: NodeJS.Timeout | undefined;
  let unsubscribe: Promise<(() => Promise<void>) | undefined> = Promise.resolve(undefined);
  let offReconnect: (() => void) | undefined;
  if (background) {
    timer = setInterval(wake, options.pollMs ?? 5_000);
    timer.unref();
    unsubscribe = database.bus.subscribe(OUTBOX_CHANNEL, wake).catch((error: unknown) => {
      logger.warn({ event: 'notify.listen_failed', err: error }, 'no wake on commit; the poll still sends');
      return undefined;
    });
    // Wakes sent while the listener was down are lost.
    offReconnect = database.bus.onReconnect(wake);
    wake(); // rows a crash left behind
  }

  return {
    wake,
    runOnce,
    async close() {
      closed = true;
      clearInterval(timer);
      offReconnect?.();
      await (await unsubscribe)?.();
      await tail;
      mail?.close();
    },
  };
}
