import type { Logger } from '@sess/core';
import { type Db, notificationOutbox } from '@sess/db';
import { and, eq, sql } from 'drizzle-orm';
import type { NoticePayload } from '../enqueue.ts';
import type { MailSender } from '../mail-sender.ts';
import { composeMessage, type NoticeTexts } from '../message.ts';
import type { ClaimedNotice, SessionFacts } from '../outbox-claims.ts';
import type { NotifySealers } from '../sealers.ts';
import { afterQuietHours, type NotificationSettings } from '../settings.ts';
import type { Deliveries } from './deliveries.ts';
import { isPending, MAX_ATTEMPTS, nextTry, nothingPending } from './retry-rules.ts';

/*
 * What happens to one claimed row: dropped (stale, unreadable, nowhere to send), postponed past
 * quiet hours, or sent (push first, e-mail when no device took it) and then finished or
 * rescheduled. Every write to the row is fenced on the attempt count it was claimed with, so a
 * worker whose lease ran out cannot undo what the next one did.
 */

/**
 * How one row ended: `finished` (sent or dropped: deleted when it is settled) or `later`
 * (rescheduled); and the devices that accepted it.
 */
export interface RowEnd {
  end: 'finished' | 'later';
  delivered: string[];
}

export const finished = (delivered: string[] = []): RowEnd => ({ end: 'finished', delivered });
export const later = (delivered: string[] = []): RowEnd => ({ end: 'later', delivered });

/** Why the row is not to be sent at all (any more), or null. */
export function staleReason(
  row: ClaimedNotice,
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
  // A form, its follow-up or its reminder: only while the form still waits for the person (an
  // Ask's: while it is not full or decided, so a backup is not told of an Ask that needs no one).
  if (session.state !== 'open' || session.closesAt.getTime() <= at.getTime() || session.answered) return 'settled';
  const askOver =
    session.askMax !== null &&
    (session.askAnswered >= session.askMax || session.askDecision === 'approved' || session.askDecision === 'rejected');
  if (askOver) return 'settled';
  if (kind === 'reminder' && !settings.reminders) return 'turned_off';
  return null;
}

export function createRowHandler(options: {
  db: Db;
  logger: Logger;
  sealers: NotifySealers;
  deliveries: Deliveries;
  mail: MailSender | null;
  texts: NoticeTexts;
}): (row: ClaimedNotice, at: Date) => Promise<RowEnd> {
  const { db, logger, sealers, deliveries, mail, texts } = options;

  /** Every later write to a claimed row: only while it is still this claim's. */
  const mine = (row: ClaimedNotice) => and(eq(notificationOutbox.id, row.id), eq(notificationOutbox.attempts, row.attempts));

  function drop(row: ClaimedNotice, reason: string, level: 'info' | 'warn' = 'info'): RowEnd {
    logger[level](
      { event: 'notify.dropped', outboxId: row.id, kind: row.kind, reason, attempts: row.attempts },
      'notification dropped',
    );
    return finished();
  }

  return async function handleRow(row, at) {
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
    const decision = session.askDecision === 'approved' || session.askDecision === 'rejected' ? session.askDecision : undefined;
    const ask = session.askMax === null ? null : { answered: session.askAnswered, max: session.askMax, decision };
    // In the recipient's saved language, else the form's.
    const message = composeMessage(texts, {
      kind: row.kind,
      title: content.title,
      url: content.url,
      ask,
      expiresAt: row.expiresAt,
      timeZone: row.savedTimeZone,
      language: { saved: row.savedLocale, content: row.formLocale },
    });

    const push = settings.pushEnabled
      ? await deliveries.pushToDevices(row, message, at)
      : { accepted: 0, delivered: [], pending: nothingPending() };
    // A device that took it on an earlier try counts: the person has it.
    const reached = push.accepted + row.sentBefore;
    let pending = push.pending;
    let next = nextTry(row, at, pending);
    let emailed = false;
    // E-mail when no device took it and none has another try coming (a device whose service is
    // busy or cooling down is still to be tried while the row has a try left).
    if (reached === 0 && next === null && settings.emailEnabled && mail) {
      const mailed = await deliveries.sendMail(row, message);
      emailed = mailed.accepted;
      // The devices have no try left: what remains to be done is the e-mail's.
      pending = mailed.pending;
      next = nextTry(row, at, pending);
    }

    const delivered = reached > 0 || emailed;
    const channels = [...(push.accepted > 0 ? ['push'] : []), ...(emailed ? ['email'] : [])];
    if (channels.length > 0) await recordNotified(db, row, session, channels, at);
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
  };
}

/**
 * The form's `notified` events, one per channel that took it (never the address). After the
 * send, before the row is settled: a crash between them sends again, and records again.
 */
async function recordNotified(db: Db, row: ClaimedNotice, session: SessionFacts, channels: string[], at: Date) {
  const kind = session.askMax === null ? 'interaction' : 'ask';
  await db.execute(
    sql`select sess_record_event(${row.workspaceId}, ${row.sessionId}, ${kind}, 'notified', ${at.toISOString()}::timestamptz,
                                 null, via => c) from json_array_elements_text(${JSON.stringify(channels)}::json) as c`,
  );
}
