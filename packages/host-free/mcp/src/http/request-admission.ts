import { isPlainObject } from './plain-object.ts';
import { ALWAYS_HEADERS, type JsonRpcId, jsonRpcError } from './responses.ts';

/**
 * The host's admission of one request: apps/server bounds the requests in flight per class and
 * answers at once beyond a bound. The edge asks for a place once it has read what the request
 * is, before anything runs: a `sess_response` that may park holds no database connection while
 * parked (for up to 45 s), so it takes a place among the host's waits, every other call one
 * among its calls. A storm of reconnecting waits is thus never refused for want of call places.
 */
export interface RequestAdmission {
  /** Takes the request's place; false when that bound is full (the edge answers 503). */
  admit(kind: 'call' | 'wait'): boolean;
  /** Gives the place back (the edge calls it once, when the request's answer is ready). */
  release(): void;
}

/** A tools/call of sess_response that may park: any `wait_ms` but 0 (without one it waits longest). */
export function mayPark(body: unknown): boolean {
  if (!isPlainObject(body) || body.method !== 'tools/call' || !isPlainObject(body.params)) return false;
  if (body.params.name !== 'sess_response') return false;
  const args = body.params.arguments;
  return !isPlainObject(args) || args.wait_ms !== 0;
}

/** Why Sess did not start a request: at a bound (`busy`), or still opening its database (`starting`). */
export type RefusalReason = 'busy' | 'starting';

/** The one sentence every face gives for a request Sess did not start. */
export function refusalMessage(reason: RefusalReason, retryAfterSeconds: number): string {
  const what =
    reason === 'busy' ? 'Sess is busy and did not start this request' : 'Sess is starting and did not start this request';
  return `${what}; nothing was changed. Try again in ${retryAfterSeconds} seconds.`;
}

/**
 * Sess did not start the request: 503 with `Retry-After`, a JSON-RPC error whose `data` is the
 * SESS_UNAVAILABLE body every face uses (`reason: busy` or `starting`). Nothing was changed.
 */
export function busyResponse(retryAfterSeconds: number, id: JsonRpcId = null, reason: RefusalReason = 'busy'): Response {
  const message = refusalMessage(reason, retryAfterSeconds);
  return jsonRpcError(503, -32000, message, {
    id,
    data: { code: 'SESS_UNAVAILABLE', message, retryable: true, reason },
    headers: { 'Retry-After': String(retryAfterSeconds), ...Object.fromEntries(ALWAYS_HEADERS) },
  });
}
