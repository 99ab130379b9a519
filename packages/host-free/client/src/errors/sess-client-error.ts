/**
 * The seed's SDK error classes (docs/contract/sess-mcp-readme.md, "Error classes"): every
 * failure of the client is one of these kinds, so a caller decides what to do by `kind` (and
 * `code` for `api`), never by message text.
 *
 * - `api`: Sess answered with an error (`code`, `message`, `retryable` from the server).
 * - `transport`: no answer (connection refused, reset, DNS); `sent` says whether it left.
 * - `timeout`: a read got no answer within its deadline.
 * - `unknown_outcome`: a write was sent and its answer lost (timeout, reset, a gateway's 5xx);
 *   repeat it with the same `idempotencyKey` to learn what happened.
 * - `aborted`: the caller's `AbortSignal` fired.
 * - `configuration`: a bad origin or argument, no key, 401/403, a redirect: nothing a retry fixes.
 * - `protocol`: an answer that does not fit the contract, or a receipt that does not verify.
 */
export const SESS_CLIENT_ERROR_KINDS = [
  'api',
  'transport',
  'timeout',
  'unknown_outcome',
  'aborted',
  'configuration',
  'protocol',
] as const;

/** One of `SESS_CLIENT_ERROR_KINDS`. */
export type SessClientErrorKind = (typeof SESS_CLIENT_ERROR_KINDS)[number];

/** What a `SessClientError` is made of; everything but `kind` and `message` is optional. */
export interface SessClientErrorInit {
  kind: SessClientErrorKind;
  message: string;
  /** The client operation (`createSession`, `readSession`, `verifyResponse`, …). */
  operation?: string | undefined;
  /** The server's code (`api`, and `configuration` from a 401/403), or `VERIFICATION_FAILED` for a receipt. */
  code?: string | undefined;
  /** Defaults by kind: the server's word for `api`; true for transport, timeout and unknown outcomes; false otherwise. */
  retryable?: boolean | undefined;
  status?: number | undefined;
  /** RFC 6901 pointer into the request, as the server named it. */
  field?: string | undefined;
  limit?: number | undefined;
  length?: number | undefined;
  /** A finer cause: the server's `reason`, or the receipt verifier's (`BAD_SIGNATURE`, `UNKNOWN_KEY_ID`, …). */
  reason?: string | undefined;
  /** REVISION_MISMATCH / RESPONSE_MISMATCH: the revision the session is at. */
  currentRevision?: number | undefined;
  /** The whole error body the server sent, for the codes' other facts (`header`, `state`, `plan`, …). */
  details?: Readonly<Record<string, unknown>> | undefined;
  /** Whether the request may have reached the server. False only when it certainly did not. */
  sent?: boolean | undefined;
  /** The Idempotency-Key a write was sent with: repeat the call with it to retry safely. */
  idempotencyKey?: string | undefined;
  /** The server's X-Request-Id, to quote when asking for help. */
  requestId?: string | undefined;
  cause?: unknown;
}

function defaultRetryable(kind: SessClientErrorKind): boolean {
  switch (kind) {
    case 'transport':
    case 'timeout':
    case 'unknown_outcome':
      return true;
    case 'api':
    case 'aborted':
    case 'configuration':
    case 'protocol':
      return false;
    default: {
      const unreachable: never = kind;
      throw new TypeError(`unclassified error kind ${String(unreachable)}`);
    }
  }
}

/** The one error the client throws. Branch on `kind`, then `code` and `field`; never on `message`. */
export class SessClientError extends Error {
  override readonly name = 'SessClientError';
  readonly kind: SessClientErrorKind;
  readonly operation: string | undefined;
  readonly code: string | undefined;
  readonly retryable: boolean;
  readonly status: number | undefined;
  readonly field: string | undefined;
  readonly limit: number | undefined;
  readonly length: number | undefined;
  readonly reason: string | undefined;
  readonly currentRevision: number | undefined;
  readonly details: Readonly<Record<string, unknown>> | undefined;
  readonly sent: boolean;
  readonly idempotencyKey: string | undefined;
  readonly requestId: string | undefined;

  constructor(init: SessClientErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.operation = init.operation;
    this.code = init.code;
    this.retryable = init.retryable ?? defaultRetryable(init.kind);
    this.status = init.status;
    this.field = init.field;
    this.limit = init.limit;
    this.length = init.length;
    this.reason = init.reason;
    this.currentRevision = init.currentRevision;
    this.details = init.details;
    this.sent = init.sent ?? false;
    this.idempotencyKey = init.idempotencyKey;
    this.requestId = init.requestId;
  }

  /** A plain object for logs and tool results: no stack, no cause, nothing secret. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { kind: this.kind, message: this.message, retryable: this.retryable, sent: this.sent };
    for (const name of [
      'operation',
      'code',
      'status',
      'field',
      'limit',
      'length',
      'reason',
      'currentRevision',
      'idempotencyKey',
      'requestId',
    ] as const) {
      if (this[name] !== undefined) out[name] = this[name];
    }
    return out;
  }
}

/** True for a `SessClientError`, of any kind or only of `kind`. Works across bundled copies of the class. */
export function isSessClientError(value: unknown, kind?: SessClientErrorKind): value is SessClientError {
  if (!(value instanceof Error) || value.name !== 'SessClientError') return false;
  const actual = (value as { kind?: unknown }).kind;
  return typeof actual === 'string' && (kind === undefined || actual === kind);
}
