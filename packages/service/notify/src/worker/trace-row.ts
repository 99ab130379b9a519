import { activeTracer } from '@sess/core';
import type { ClaimedNotice } from '../outbox-claims.ts';

/**
 * Each claimed row's sends in a trace of their own when tracing is on: a `notify deliver` span
 * (the notification's kind and attempt, nothing of its text or link) with its pushes, its e-mail
 * and their statements below it.
 */
export function tracedRows<End>(
  handle: (row: ClaimedNotice, at: Date) => Promise<End>,
): (row: ClaimedNotice, at: Date) => Promise<End> {
  return (row, at) => {
    const tracer = activeTracer();
    if (!tracer) return handle(row, at);
    const attributes = { 'sess.notification.kind': row.kind, 'sess.notification.attempt': row.attempts };
    return tracer.span('notify deliver', { attributes }, () => handle(row, at));
  };
}
