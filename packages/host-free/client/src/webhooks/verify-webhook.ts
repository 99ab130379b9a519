import { type WebhookEventData, type WebhookPayload, WebhookPayloadSchema } from '@sess/contract';
import { webhookSignatureMatches } from '@sess/core';
import { type ReceiptKeySet, verifyReceipt } from '@sess/receipts';
import { SessClientError } from '../errors/sess-client-error.ts';

/*
 * A receiver's check of a Sess webhook (Standard Webhooks): the signature of
 * "<webhook-id>.<webhook-timestamp>.<body>" under the endpoint's secret (any `v1,` signature of
 * the header, compared in constant time), a timestamp within 5 minutes of now, and the body's
 * shape. An `answered` event's receipt is verified too when a key set is given (the client's
 * `webhooks.verify` always gives its own): the signature by Sess's receipt key, and that it is the
 * receipt of this very event (workspace, session, revision, answer event, respondent, assurance).
 */

/** How far a delivery's timestamp may be from the receiver's clock. */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

/** The headers as a plain object (Node's `req.headers`) or a fetch `Headers`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** Receipt verification for `answered`: the JWKS key set and the receipts' `iss` (the Sess origin). */
  receipts?: { keys: ReceiptKeySet; issuer: string } | undefined;
  /** The receiver's clock (tests). */
  now?: (() => Date) | undefined;
}

const OPERATION = 'verifyWebhook';

function refused(reason: string, message: string): SessClientError {
  return new SessClientError({
    kind: 'protocol',
    operation: OPERATION,
    code: 'VERIFICATION_FAILED',
    reason,
    retryable: false,
    message: `The webhook did not verify (${reason}): ${message}. Do not act on it.`,
  });
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value.join(' ') : value;
}

/**
 * Verifies a delivery and returns its parsed payload. Give the body exactly as received (the
 * raw bytes or text: a re-serialised object would not verify).
 * @throws SessClientError `protocol` with code VERIFICATION_FAILED and reason `MISSING_HEADERS`,
 * `STALE_TIMESTAMP`, `BAD_SIGNATURE`, `MALFORMED`, or the receipt verifier's; `transport` when
 * the receipt keys cannot be fetched.
 */
export async function verifyWebhook(
  payload: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<WebhookPayload> {
  const body = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signature = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signature)
    throw refused('MISSING_HEADERS', 'webhook-id, webhook-timestamp and webhook-signature are required');
  if (!/^\d{1,12}$/.test(timestamp)) throw refused('STALE_TIMESTAMP', 'webhook-timestamp is not a unix time');
  const seconds = Number(timestamp);
  const nowSeconds = Math.floor((options.now?.() ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - seconds) > WEBHOOK_TOLERANCE_SECONDS)
    throw refused('STALE_TIMESTAMP', 'webhook-timestamp is more than 5 minutes from now');
  if (!webhookSignatureMatches(secret, signature, id, seconds, body))
    throw refused('BAD_SIGNATURE', 'no signature matches the secret');

  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw refused('MALFORMED', 'the body is not JSON');
  }
  const parsed = WebhookPayloadSchema.safeParse(json);
  if (!parsed.success) throw refused('MALFORMED', 'the body is not a Sess webhook payload');
  const event = parsed.data;
  if (event.type !== 'test' && event.data.id !== id) throw refused('MALFORMED', 'webhook-id is not the event’s id');
  if (event.type === 'answered' && event.data.receipt !== undefined && options.receipts)
    await verifyAnsweredReceipt(event.data as WebhookEventData, options.receipts);
  return event;
}

async function verifyAnsweredReceipt(data: WebhookEventData, receipts: { keys: ReceiptKeySet; issuer: string }): Promise<void> {
  if (data.revision === null || data.responseEventId === null)
    throw refused('MALFORMED', 'answered without its revision and event');
  // The webhook carries no form: the Surface's hash is the one the receipt signs. An agent that
  // acts on the answer pins its own Surface with receipts.verifyResponse on the read.
  const surfaceSha256 = surfaceOf(data.receipt!);
  const result = await verifyReceipt(data.receipt!, {
    keys: receipts.keys,
    issuer: receipts.issuer,
    expected: {
      workspaceId: data.workspaceId,
      sessionId: data.sessionId,
      revision: data.revision,
      eventId: data.responseEventId,
      surfaceSha256,
      respondentId: data.respondentId,
      ...(data.assurance !== null ? { assurance: data.assurance } : {}),
    },
  });
  if (result.ok) return;
  if (result.reason === 'KEY_SET_UNAVAILABLE')
    throw new SessClientError({
      kind: 'transport',
      operation: OPERATION,
      reason: result.reason,
      sent: true,
      message: `The receipt keys (JWKS) could not be fetched: ${result.message}. Verify again later.`,
    });
  throw refused(result.reason, result.message);
}

/** The receipt's `surface_sha256`, read before verification (the signature check then covers it). */
function surfaceOf(receipt: string): string {
  try {
    const claims = JSON.parse(Buffer.from(receipt.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      surface_sha256?: unknown;
    };
    if (typeof claims.surface_sha256 === 'string') return claims.surface_sha256;
  } catch {
    // falls through
  }
  throw refused('MALFORMED', 'the receipt is not a Sess receipt');
}
