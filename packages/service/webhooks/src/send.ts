import type { WebhookPayload } from '@sess/contract';
import { type Logger, type Sealer, webhookSignatureHeader } from '@sess/core';
import type { Egress } from '@sess/core/egress';
import type { WebhookAttemptRecord } from '@sess/db';
import { toEventView } from '@sess/events';
import type { ClaimedDelivery, DeliveryEnd } from './outbox.ts';
import { nextTryAt } from './retry-rules.ts';
import { signingSecrets } from './secrets.ts';

/*
 * One try of one delivery: the payload built from the claimed row, signed with every secret
 * that signs now, POSTed through the egress (the address checked at connect, no redirect
 * followed, one deadline, a bounded response), and the outcome as the outbox records it.
 */

/** The receiver's answer is read up to this size, then dropped (only its status matters). */
const MAX_RESPONSE_BYTES = 64 * 1024;

/** The body of a delivery; for `answered`, the receipt rides along (never the answer's values). */
export function payloadOf(row: ClaimedDelivery, at: Date): WebhookPayload | undefined {
  if (row.eventType === 'test')
    return {
      type: 'test',
      timestamp: at.toISOString(),
      data: { endpointId: row.endpointId, message: 'A test event from Sess: your endpoint is reachable and verifies.' },
    };
  if (!row.event) return undefined;
  const view = toEventView(row.event);
  return {
    type: view.type,
    timestamp: view.at,
    data: view.type === 'answered' && row.receipt ? { ...view, receipt: row.receipt } : view,
  };
}

export interface SendOptions {
  egress: Egress;
  sealer: Sealer;
  logger: Logger;
  timeoutMs: number;
}

/** Sends `row` once at `at`; resolves to the try's record and how the delivery ends. Never throws. */
export async function sendDelivery(
  options: SendOptions,
  row: ClaimedDelivery,
  at: Date,
  clock: () => number = Date.now,
): Promise<{ attempt: WebhookAttemptRecord; end: DeliveryEnd }> {
  const record = (status: number | null, error: string | null, durationMs = 0): WebhookAttemptRecord => ({
    at: at.toISOString(),
    status,
    durationMs,
    error,
  });
  const payload = payloadOf(row, at);
  if (row.endpoint.disabled || !payload) return { attempt: record(null, 'dropped'), end: { end: 'dropped' } };

  const body = JSON.stringify(payload);
  const timestamp = Math.floor(at.getTime() / 1000);
  const signature = webhookSignatureHeader(signingSecrets(options.sealer, row.endpoint, at), row.eventId, timestamp, body);
  const started = clock();
  const result = await options.egress.request({
    url: row.endpoint.url,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Sess-Webhooks/1',
      'webhook-id': row.eventId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature,
    },
    body,
    timeoutMs: options.timeoutMs,
    maxBytes: MAX_RESPONSE_BYTES,
  });
  const durationMs = Math.max(0, Math.round(clock() - started));
  const retry = (attempt: WebhookAttemptRecord): { attempt: WebhookAttemptRecord; end: DeliveryEnd } => {
    const nextAt = nextTryAt(row.createdAt, row.attempts, at);
    return { attempt, end: nextAt ? { end: 'retry', nextAt } : { end: 'failed' } };
  };
  if (!result.ok) {
    // The URL itself is never logged: it can be a capability.
    options.logger.info(
      { event: 'webhooks.try_failed', deliveryId: row.id, endpointId: row.endpointId, reason: result.reason },
      'webhook try failed',
    );
    return retry(record(null, result.reason, durationMs));
  }
  if (result.status >= 200 && result.status < 300)
    return { attempt: record(result.status, null, durationMs), end: { end: 'delivered' } };
  if (result.status === 410) return { attempt: record(410, 'http_status', durationMs), end: { end: 'gone' } };
  return retry(record(result.status, result.status >= 300 && result.status < 400 ? 'redirect' : 'http_status', durationMs));
}
