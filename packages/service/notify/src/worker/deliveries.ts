import type { Logger } from '@sess/core';
import type { Egress } from '@sess/core/egress';
import { type Db, users } from '@sess/db';
import { eq } from 'drizzle-orm';
import type { DeliveryGate, GateChange, GateRefusal } from '../delivery-gate.ts';
import type { MailSender } from '../mail-sender.ts';
import { devicePayload, type NotificationMessage } from '../message.ts';
import type { ClaimedNotice } from '../outbox-claims.ts';
import { sendPush, type VapidIdentity } from '../push-sender.ts';
import { forgetDevice, markFailed } from '../subscriptions.ts';
import { deferBy, mailServerFailed, nothingPending, type Pending, pushServiceFailed } from './retry-rules.ts';

/*
 * The two channels of one notification, each send through its service's gate (delivery-gate.ts):
 * a push to each of the person's devices, and an e-mail. Each says what it reached and what it
 * left to do (`Pending`); the row handler decides from that whether the row is finished.
 */

/** The mail server's key in the gate (one server: the whole of `SMTP_URL`). */
const MAIL_SERVICE = 'mail';

/** A push service's key in the gate: its origin (scheme, host and port). */
const pushService = (endpoint: string) => `push ${new URL(endpoint).origin}`;

export interface PushOutcome {
  accepted: number;
  /** The devices that took it (recorded when the row is settled). */
  delivered: string[];
  pending: Pending;
}

export interface Deliveries {
  pushToDevices(row: ClaimedNotice, message: NotificationMessage, at: Date): Promise<PushOutcome>;
  sendMail(row: ClaimedNotice, message: NotificationMessage): Promise<{ accepted: boolean; pending: Pending }>;
}

export function createDeliveries(options: {
  db: Db;
  logger: Logger;
  now: () => Date;
  gate: DeliveryGate;
  egress: Egress;
  mail: MailSender | null;
  vapidIdentity: () => Promise<VapidIdentity>;
  /** Bound on one push or one e-mail. */
  timeoutMs: number;
  /** How long a send waits for a slot of a full service before its row is rescheduled. */
  slotWaitMs: number;
}): Deliveries {
  const { db, logger, now, gate, mail, timeoutMs } = options;
  const slowMs = timeoutMs / 2;

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
    const pass = await gate.enter(service, AbortSignal.timeout(options.slotWaitMs));
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

  async function pushToDevices(row: ClaimedNotice, message: NotificationMessage, at: Date): Promise<PushOutcome> {
    const targets = row.devices;
    const outcome: PushOutcome = { accepted: 0, delivered: [], pending: nothingPending() };
    if (targets.length === 0) return outcome;
    const payload = devicePayload(message, { id: row.id, topic: row.topic });
    if (payload === null) {
      logger.warn({ event: 'notify.too_large', outboxId: row.id, kind: row.kind }, 'notification too large to push');
      return outcome;
    }
    const identity = await options.vapidIdentity();
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
            outcome.delivered.push(target.id);
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

  async function sendMail(row: ClaimedNotice, message: NotificationMessage): Promise<{ accepted: boolean; pending: Pending }> {
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

  return { pushToDevices, sendMail };
}
