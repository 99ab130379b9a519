import { type Logger, SessError } from '@sess/core';
import type { Egress } from '@sess/core/egress';
import { type Database, type Db, notificationOutbox, users } from '@sess/db';
import { and, eq, sql } from 'drizzle-orm';
import { createDeliveryGate, type GateChange, type GateRefusal } from './delivery-gate.ts';
import { type NoticePayload, OUTBOX_CHANNEL } from './enqueue.ts';
import { createMailSender, type MailConfig, type MailResult, type MailSender } from './mail-sender.ts';
import { composeMessage, devicePayload, type NotificationMessage } from './message.ts';
import { type ClaimedNotice, claimDue, type SessionFacts, settleBatch } from './outbox-claims.ts';
import { type PushResult, sendPush, type VapidIdentity } from './push-sender.ts';
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
 *
 * Rows are handled each on its own, never as a batch: up to `maxInFlight` claimed rows are in
 * flight at once, each settled when it ends, and claiming goes on while there is room, so a slow
 * push service holds only the rows that wait for it. And only a few of those: every send goes
 * through its service's gate (delivery-gate.ts). A push service (or the mail server) whose
 * circuit is open, or with all the sends it may have in flight and no slot free within a second,
 * is not sent to: the row is rescheduled for that device, and the worker goes on.
 */

export const MAX_ATTEMPTS = 8;
const BACKOFF_BASE_MS = 15_000;
const BACKOFF_CAP_MS = 30 * 60_000;
/** What a lease must cover beyond a row's two sends (a push, then an e-mail): its statements and waits for a slot. */
const LEASE_MARGIN_MS = 10_000;
/**
 * How long a send waits for a slot of a full service before its row is rescheduled: a healthy
 * service frees one every few milliseconds; a hung one holds the rows that wait no longer.
 */
const SLOT_WAIT_MS = 1_000;
/** The mail server's key in the gate (one server: the whole of `SMTP_URL`). */
const MAIL_SERVICE = 'mail';

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

/** The wait before retry `attempts` + 1: 15 s doubling per attempt, at most 30 min, ±25 % jitter. */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.75 + random() * 0.5));
}

type ClaimedRow = ClaimedNotice;

/**
 * What a try leaves to do: a device or the mail server that failed (`failed`: the attempt
 * counts, and the next try waits for the backoff or the service's Retry-After), or one not
 * tried because its gate refused it (`deferredUntil`: not before then, in ms; 0 when none).
 */
interface Pending {
  failed: boolean;
  retryAfterMs: number;
  deferredUntil: number;
}

const nothingPending = (): Pending => ({ failed: false, retryAfterMs: 0, deferredUntil: 0 });
const isPending = (pending: Pending) => pending.failed || pending.deferredUntil > 0;

/**
 * Adds a send the gate refused. An open circuit counts as a failed try (the service is known to
 * fail: the row's attempts and backoff run as if it had been tried, so the e-mail fallback comes
 * when it would have); a busy service does not (the attempt is given back).
 */
function deferBy(pending: Pending, refusal: GateRefusal): void {
  if (refusal.reason === 'open') pending.failed = true;
  pending.deferredUntil = Math.max(pending.deferredUntil, refusal.retryAt.getTime());
}

/**
 * When a row is tried next (ms), or null: nothing is pending, its attempts are spent, or the
 * next try would come after its link lapses.
 */
function nextTry(row: ClaimedRow, at: Date, pending: Pending): number | null {
  if (!isPending(pending) || (pending.failed && row.attempts >= MAX_ATTEMPTS)) return null;
  const retryAt = pending.failed ? at.getTime() + Math.max(backoffMs(row.attempts), pending.retryAfterMs) : 0;
  const next = Math.max(retryAt, pending.deferredUntil);
  return next < row.expiresAt.getTime() ? next : null;
}

/** A push failed for its service (not only for its device): no answer, or a 5xx. A 429 is an answer. */
const pushServiceFailed = (result: PushResult) => result.outcome === 'retry' && (result.status === null || result.status >= 500);
/** The mail server failed: no answer (no connection, a timeout), or 421 (service not available). */
const mailServerFailed = (result: MailResult) =>
  result.outcome === 'retry' && (result.responseCode === null || result.responseCode === 421);

/** A push service's key in the gate: its origin (scheme, host and port). */
const pushService = (endpoint: string) => `push ${new URL(endpoint).origin}`;

/**
 * How one row ended: `finished` (sent or dropped: deleted when it is settled) or `later`
 * (rescheduled); and the devices that accepted it.
 */
interface RowEnd {
  end: 'finished' | 'later';
  delivered: string[];
}

/** A wait for the worker's loop to be idle: `from` the rows finished when it began; `failed` a claim's error meanwhile. */
interface IdleWaiter {
  from: number;
  failed?: unknown;
  resolve(finished: number): void;
  reject(error: unknown): void;
}

export function startNotificationWorker(options: NotificationWorkerOptions): NotificationWorker {
  const { database, logger } = options;
  const db: Db = database.db;
  const now = options.now ?? (() => new Date());
  const leaseMs = options.leaseMs ?? 60_000;
  const batch = options.batch ?? 20;
  const maxInFlight = options.maxInFlight ?? 100;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const slowMs = timeoutMs / 2;
  const slotWaitMs = options.slotWaitMs ?? SLOT_WAIT_MS;
  if (leaseMs < 2 * timeoutMs + LEASE_MARGIN_MS)
    throw new SessError(
      'NOT_CONFIGURED',
      `The lease (${leaseMs} ms) must cover a row in flight: at least twice the send timeout (${timeoutMs} ms) plus ${LEASE_MARGIN_MS} ms.`,
      { field: '/leaseMs' },
    );
  const vapidSubject = checkVapidSubject(options.vapidSubject);
  const sealers: NotifySealers = createNotifySealers(options.secret);
  const mail: MailSender | null = options.mail ? createMailSender(options.mail, { timeoutMs }) : null;
  // This replica's view of the services it sends through (see delivery-gate.ts).
  const gate = createDeliveryGate({ now });

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

    const push = settings.pushEnabled
      ? await pushToDevices(row, message, at)
      : { accepted: 0, delivered: [], pending: nothingPending() };
    // A device that took it on an earlier try counts: the person has it.
    const reached = push.accepted + row.sentBefore;
    let pending = push.pending;
    let next = nextTry(row, at, pending);
    let emailed = false;
    // E-mail when no device took it and none has another try coming (a device whose service is
    // busy or cooling down is still to be tried while the row has a try left).
    if (reached === 0 && next === null && settings.emailEnabled && mail) {
      const mailed = await sendMail(row, message);
      emailed = mailed.accepted;
      // The devices have no try left: what remains to be done is the e-mail's.
      pending = mailed.pending;
      next = nextTry(row, at, pending);
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
    if (next === null) {
      if (delivered) return finished(push.delivered);
      if (!isPending(push.pending) && !isPending(pending)) return drop(row, 'no_channel');
      const exhausted = row.attempts >= MAX_ATTEMPTS && (push.pending.failed || pending.failed);
      return drop(row, exhausted ? 'attempts_exhausted' : 'lapses_before_retry', 'warn');
    }
    // A device (or the mail server) is to be tried again. The devices that took it now are
    // remembered with the row (`sent_to`): the retry pushes only to the others, so nobody is
    // shown it twice (a crash between a send and the delete still resends to every device:
    // the same Topic and tag then replace the one still shown). A try in which nothing failed
    // (its services were only busy) gives its attempt back, as quiet hours do.
    const spent = push.pending.failed || pending.failed;
    const sentTo = sql`${notificationOutbox.sentTo} || array(select json_array_elements_text(${JSON.stringify(push.delivered)}::json))`;
    await db
      .update(notificationOutbox)
      .set({
        notBefore: new Date(next),
        lockedUntil: null,
        sentTo,
        ...(spent ? {} : { attempts: sql`${notificationOutbox.attempts} - 1` }),
      })
      .where(mine(row));
    const fields = { outboxId: row.id, kind: row.kind, attempts: row.attempts, delayMs: next - at.getTime() };
    if (spent) logger.info({ event: 'notify.retry', ...fields }, 'notification to be retried');
    else logger.debug({ event: 'notify.deferred', ...fields }, 'notification deferred: its service is busy');
    return later(push.delivered);
  }

  /** Logs what a send's end changed in its service's circuit (never the service's address). */
  function reportGate(change: GateChange | null, fields: { channel: 'push' | 'mail'; outboxId: string }): void {
    if (change?.change === 'opened')
      logger.warn(
        { event: 'notify.circuit_opened', ...fields, failures: change.failures, coolDownMs: change.coolDownMs },
        'a service failed repeatedly; nothing is sent to it until its cool-down ends',
      );
    else if (change?.change === 'closed') logger.info({ event: 'notify.circuit_closed', ...fields }, 'a service answers again');
  }

  /** Sends through the service's gate: refused at once (busy or open), or made and its end reported. */
  async function throughGate<T>(
    service: string,
    fields: { channel: 'push' | 'mail'; outboxId: string },
    send: () => Promise<T>,
    serviceFailed: (result: T) => boolean,
  ): Promise<GateRefusal | { admitted: true; result: T }> {
    const pass = await gate.enter(service, AbortSignal.timeout(slotWaitMs));
    if (!pass.admitted) return pass;
    const started = now().getTime();
    let result: T | undefined;
    try {
      result = await send();
      return { admitted: true, result };
    } finally {
      // An answer that comes only after half the deadline counts as a failure too: a service that
      // answers just in time would otherwise hold its slots (and the rows waiting on them) for ever.
      const slow = now().getTime() - started >= slowMs;
      reportGate(pass.done(result === undefined || serviceFailed(result) || slow), fields);
    }
  }

  async function pushToDevices(row: ClaimedRow, message: NotificationMessage, at: Date) {
    const targets = row.devices;
    const outcome = { accepted: 0, delivered: [] as string[], pending: nothingPending() };
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
        const sent = await throughGate(
          pushService(target.endpoint),
          { channel: 'push', outboxId: row.id },
          () =>
            sendPush(target, payload, {
              vapid: identity,
              ttlSeconds,
              topic: row.topic,
              urgency: 'high',
              timeoutMs,
              egress: options.egress,
            }),
          pushServiceFailed,
        );
        if (!sent.admitted) {
          deferBy(outcome.pending, sent);
          logger.debug(
            { event: 'notify.push_deferred', outboxId: row.id, deviceId: target.id, reason: sent.reason },
            'push service busy or failing; the device is tried later',
          );
          return;
        }
        const result = sent.result;
        const fields = { outboxId: row.id, deviceId: target.id, status: result.status };
        switch (result.outcome) {
          case 'accepted':
            outcome.accepted += 1;
            outcome.delivered.push(target.id); // recorded when the row is settled
            return;
          case 'gone':
            await forgetDevice(db, row.userId, target.id);
            logger.info({ event: 'notify.device_gone', ...fields }, 'push subscription gone; device forgotten');
            return;
          case 'retry':
            outcome.pending.failed = true;
            outcome.pending.retryAfterMs = Math.max(outcome.pending.retryAfterMs, (result.retryAfterSeconds ?? 0) * 1000);
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

  async function sendMail(row: ClaimedRow, message: NotificationMessage): Promise<{ accepted: boolean; pending: Pending }> {
    const pending = nothingPending();
    const [person] = await db.select({ email: users.email }).from(users).where(eq(users.id, row.userId));
    if (!person || !mail) return { accepted: false, pending };
    const sent = await throughGate(
      MAIL_SERVICE,
      { channel: 'mail', outboxId: row.id },
      () => mail.send(person.email, message),
      mailServerFailed,
    );
    if (!sent.admitted) {
      deferBy(pending, sent);
      logger.debug(
        { event: 'notify.mail_deferred', outboxId: row.id, reason: sent.reason },
        'mail server busy or failing; the e-mail is tried later',
      );
      return { accepted: false, pending };
    }
    const result = sent.result;
    if (result.outcome !== 'accepted')
      logger.info(
        { event: 'notify.mail_failed', outboxId: row.id, outcome: result.outcome, responseCode: result.responseCode },
        'e-mail not accepted',
      );
    pending.failed = result.outcome === 'retry';
    return { accepted: result.outcome === 'accepted', pending };
  }

  /*
   * The loop. A look for due rows is `wanted` (a wake, a run, or a full claim that may have left
   * some); it claims as many as there is room for, starts each row's handling without waiting for
   * the others, and settles rows as they end: those that end while a settle is being written go
   * together in the next one. A row counts as in flight until it is settled.
   */
  let closed = false;
  let wanted = false;
  let claiming = false;
  let settling = false;
  let inFlight = 0;
  let finishedRows = 0;
  const ended: { row: ClaimedRow; end: RowEnd }[] = [];
  /** Those waiting for the loop to be idle (`runOnce`, `close`). */
  const waiters: IdleWaiter[] = [];

  const untilIdle = (): Promise<number> =>
    new Promise((resolve, reject) => {
      waiters.push({ from: finishedRows, resolve, reject });
      pump();
    });

  function pump(): void {
    if (closed || claiming || !wanted || inFlight >= maxInFlight) {
      if (!claiming && !settling && inFlight === 0 && (closed || !wanted))
        for (const waiter of waiters.splice(0))
          if (waiter.failed === undefined) waiter.resolve(finishedRows - waiter.from);
          else waiter.reject(waiter.failed);
      return;
    }
    wanted = false;
    claiming = true;
    const at = now();
    const room = Math.min(batch, maxInFlight - inFlight);
    claimDue(db, sealers, { at, leaseMs, batch: room })
      .then(
        (rows) => {
          inFlight += rows.length;
          for (const row of rows) void handle(row, at);
          // A full claim may have left due rows: another look, when there is room.
          if (rows.length === room) wanted = true;
        },
        (error: unknown) => {
          logger.error({ event: 'notify.run_failed', err: error }, 'notification run failed; the poll tries again');
          for (const waiter of waiters) waiter.failed ??= error;
        },
      )
      .finally(() => {
        claiming = false;
        pump();
      });
  }

  async function handle(row: ClaimedRow, at: Date): Promise<void> {
    const end = await handleRow(row, at).catch((error: unknown): RowEnd => {
      // Left leased: another run sends it after the lease.
      logger.error({ event: 'notify.row_failed', outboxId: row.id, kind: row.kind, err: error }, 'notification not processed');
      return later();
    });
    ended.push({ row, end });
    settle();
  }

  /** Deletes the finished rows among those that ended and records their deliveries, in one statement. */
  function settle(): void {
    if (settling || ended.length === 0) return;
    settling = true;
    const rows = ended.splice(0);
    const done = rows.filter(({ end }) => end.end === 'finished').map(({ row }) => ({ id: row.id, attempts: row.attempts }));
    settleBatch(db, {
      done,
      delivered: rows.flatMap(({ row, end }) => end.delivered.map((deviceId) => ({ userId: row.userId, deviceId }))),
      at: now(),
    })
      .then(
        () => {
          finishedRows += done.length;
        },
        // Left leased: sent again after the lease, with the same Topic.
        (error: unknown) => logger.error({ event: 'notify.settle_failed', err: error }, 'notifications not settled'),
      )
      .finally(() => {
        inFlight -= rows.length;
        settling = false;
        settle();
        pump();
      });
  }

  const runOnce = (): Promise<number> => {
    wanted = true;
    return untilIdle();
  };

  const wake = (): void => {
    if (closed) return;
    wanted = true;
    pump();
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
    listening: unsubscribe.then(() => {}),
    async close() {
      closed = true;
      clearInterval(timer);
      offReconnect?.();
      await (await unsubscribe)?.();
      await untilIdle().catch(() => 0); // a failed claim was logged
      mail?.close();
    },
  };
}
