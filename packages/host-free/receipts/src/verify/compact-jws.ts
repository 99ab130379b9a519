import type { ReceiptKeySet } from '../key-set/receipt-key-set.ts';
import { verifyEs256 } from '../receipt/es256.ts';
import { isReceiptId, RECEIPT_ALG } from '../receipt/receipt-claims.ts';
import type { ReceiptFailureReason } from './failure-reasons.ts';

/*
 * The steps every signed statement of Sess (answer receipt, decision receipt) is verified by
 * before its claims are read: size, compact shape, the strict header with its own `typ`, the key
 * by kid and the ES256 signature. One copy, so the two verifiers cannot drift apart.
 */

/** A failed verification: one stable reason; `message` is for logs and never carries secrets. */
export type VerifyFailure = { ok: false; reason: ReceiptFailureReason; message: string };

const ALLOWED_HEADER_PARAMETERS = new Set(['alg', 'kid', 'typ']);
const B64URL = /^[A-Za-z0-9_-]+$/;

export function fail(reason: ReceiptFailureReason, message: string): VerifyFailure {
  return { ok: false, reason, message };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function decodeJsonSegment(segment: string): unknown {
  try {
    return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

interface CompactJws {
  header: Record<string, unknown>;
  /** `header.payload` as received: what the signature signs. */
  signingInput: string;
  payload: string;
  signature: string;
}

/** Compact serialization only: three base64url segments. @see https://www.rfc-editor.org/rfc/rfc7515#section-7.1 */
function parseCompact(jws: unknown, maxLength: number): CompactJws | VerifyFailure {
  if (typeof jws !== 'string' || jws.length > maxLength) return fail('MALFORMED', 'not a receipt-sized string');
  const segments = jws.split('.');
  if (segments.length !== 3) return fail('MALFORMED', 'not a compact JWS');
  const [header, payload, signature] = segments as [string, string, string];
  if (!B64URL.test(header) || !B64URL.test(payload) || !/^[A-Za-z0-9_-]*$/.test(signature)) {
    return fail('MALFORMED', 'a JWS segment is not base64url');
  }
  const decoded = decodeJsonSegment(header);
  if (!isRecord(decoded)) return fail('MALFORMED', 'the protected header is not a JSON object');
  return { header: decoded, signingInput: `${header}.${payload}`, payload, signature };
}

/**
 * Only `{ alg: 'ES256', kid, typ }` with this `typ`. Refusing every other parameter closes
 * key-injection (`jwk`, `jku`, `x5u`, `x5c`), unencoded payloads (`b64`) and extensions (`crit`)
 * in one rule; the `typ` keeps a receipt of one kind from passing as another.
 * @see https://www.rfc-editor.org/rfc/rfc8725#section-3.1
 */
function checkHeader(header: Record<string, unknown>, typ: string): { kid: string } | VerifyFailure {
  if (typeof header['alg'] !== 'string') return fail('MALFORMED', 'the header has no alg');
  if (header['alg'] !== RECEIPT_ALG) return fail('ALG_NOT_ALLOWED', `alg ${header['alg']} is not allowed; receipts are ES256`);
  const extra = Object.keys(header).filter((name) => !ALLOWED_HEADER_PARAMETERS.has(name));
  if (extra.length > 0) return fail('HEADER_NOT_ALLOWED', `header parameters not allowed: ${extra.join(', ')}`);
  if (header['typ'] !== typ) return fail('TYPE_MISMATCH', `typ must be ${typ}`);
  if (!isReceiptId(header['kid'])) return fail('MALFORMED', 'the header has no usable kid');
  return { kid: header['kid'] };
}

/**
 * Size, shape, header, key and signature, in that order; the payload's bytes and the kid when
 * all hold. The claims are the caller's to read: nothing here looks at them.
 */
export async function verifySignedJws(
  jws: string,
  options: { keys: ReceiptKeySet; typ: string; maxLength: number },
): Promise<{ ok: true; payload: Uint8Array; kid: string } | VerifyFailure> {
  const parsed = parseCompact(jws, options.maxLength);
  if ('ok' in parsed) return parsed;
  const header = checkHeader(parsed.header, options.typ);
  if ('ok' in header) return header;
  const lookup = await options.keys.getKey(header.kid);
  if (!lookup.found) return fail(lookup.reason, lookup.message);
  if (!verifyEs256(lookup.key, parsed.signingInput, parsed.signature)) {
    return fail('BAD_SIGNATURE', 'the signature does not verify with the key for this kid');
  }
  return { ok: true, payload: Buffer.from(parsed.payload, 'base64url'), kid: header.kid };
}

/** The payload as a JSON object, or a MALFORMED failure. */
export function parsePayloadObject(payload: Uint8Array): { ok: true; value: Record<string, unknown> } | VerifyFailure {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(payload).toString('utf8'));
  } catch {
    return fail('MALFORMED', 'the payload is not JSON');
  }
  if (!isRecord(value)) return fail('MALFORMED', 'the payload is not a JSON object');
  return { ok: true, value };
}

/**
 * The payload of a compact JWS read WITHOUT checking anything: only to pair a receipt with what
 * it claims to be before verifying it in full. Undefined when it cannot be read.
 */
export function peekPayload(jws: unknown, maxLength: number): Record<string, unknown> | undefined {
  if (typeof jws !== 'string' || jws.length > maxLength) return undefined;
  const payload = jws.split('.')[1];
  if (payload === undefined || !B64URL.test(payload)) return undefined;
  const value = decodeJsonSegment(payload);
  return isRecord(value) ? value : undefined;
}
