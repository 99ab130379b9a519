import type { GateRefusal } from '../delivery-gate.ts';
import type { MailResult } from '../mail-sender.ts';
import type { ClaimedNotice } from '../outbox-claims.ts';
import type { PushResult } from '../push-sender.ts';

/*
 * When a notification is tried again, and when it is given up: pure rules over a claimed row and
 * what its try left to do. The worker's row handler applies them; nothing here touches the
 * database or a service.
 */

export const MAX_ATTEMPTS = 8;
const BACKOFF_BASE_MS = 15_000;
const BACKOFF_CAP_MS = 30 * 60_000;

/** The wait before retry `attempts` + 1: 15 s doubling per attempt, at most 30 min, ±25 % jitter. */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.75 + random() * 0.5));
}

/**
 * What a try leaves to do: a device or the mail server that failed (`failed`: the attempt
 * counts, and the next try waits for the backoff or the service's Retry-After), or one not
 * tried because its gate refused it (`deferredUntil`: not before then, in ms; 0 when none).
 */
export interface Pending {
  failed: boolean;
  retryAfterMs: number;
  deferredUntil: number;
}

export const nothingPending = (): Pending => ({ failed: false, retryAfterMs: 0, deferredUntil: 0 });
export const isPending = (pending: Pending) => pending.failed || pending.deferredUntil > 0;

/**
 * Adds a send the gate refused. An open circuit counts as a failed try (the service is known to
 * fail: the row's attempts and backoff run as if it had been tried, so the e-mail fallback comes
 * when it would have); a busy service does not (the attempt is given back).
 */
export function deferBy(pending: Pending, refusal: GateRefusal): void {
  if (refusal.reason === 'open') pending.failed = true;
  pending.deferredUntil = Math.max(pending.deferredUntil, refusal.retryAt.getTime());
}

/**
 * When a row is tried next (ms), or null: nothing is pending, its attempts are spent, or the
 * next try would come after its link lapses.
 */
export function nextTry(row: ClaimedNotice, at: Date, pending: Pending): number | null {
  if (!isPending(pending) || (pending.failed && row.attempts >= MAX_ATTEMPTS)) return null;
  const retryAt = pending.failed ? at.getTime() + Math.max(backoffMs(row.attempts), pending.retryAfterMs) : 0;
  const next = Math.max(retryAt, pending.deferredUntil);
  return next < row.expiresAt.getTime() ? next : null;
}

/** A push failed for its service (not only for its device): no answer, or a 5xx. A 429 is an answer. */
export const pushServiceFailed = (result: PushResult) =>
  result.outcome === 'retry' && (result.status === null || result.status >= 500);
/** The mail server failed: no answer (no connection, a timeout), or 421 (service not available). */
export const mailServerFailed = (result: MailResult) =>
  result.outcome === 'retry' && (result.responseCode === null || result.responseCode === 421);
