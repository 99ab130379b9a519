/**
 * The one error registry. Every code Sess returns on any face (MCP tool errors, /v1 JSON,
 * HTML forms, CLI) is listed here with its HTTP status, whether a retry can help, and its
 * class from the seed's "Error classes" table. docs/errors.md documents each row.
 */
export const ERROR_REGISTRY = {
  // The seed's adapter codes (docs/contract/sess-mcp-readme.md, "Error classes").
  INVALID_ARGUMENTS: { status: 400, retryable: false, errorClass: 'invalid_arguments' },
  HANDLE_NOT_FOUND: { status: 404, retryable: false, errorClass: 'not_found' },
  BINDING_MISMATCH: { status: 404, retryable: false, errorClass: 'not_found' },
  REVISION_MISMATCH: { status: 409, retryable: false, errorClass: 'conflict' },
  RESPONSE_MISMATCH: { status: 409, retryable: false, errorClass: 'conflict' },
  PENDING_MUTATION_DIFFERS: { status: 409, retryable: false, errorClass: 'conflict' },
  MUTATION_PENDING: { status: 409, retryable: false, errorClass: 'conflict' },
  INVALID_STATE: { status: 409, retryable: false, errorClass: 'conflict' },
  CREATE_REJECTED: { status: 422, retryable: false, errorClass: 'create_rejected' },
  PLAN_LIMIT_REACHED: { status: 422, retryable: false, errorClass: 'create_rejected' },
  CREATE_OUTCOME_UNKNOWN: { status: 409, retryable: false, errorClass: 'create_unknown' },
  CREATED_NOT_SAVED: { status: 500, retryable: false, errorClass: 'created_not_saved' },
  OUTCOME_UNKNOWN: { status: 503, retryable: true, errorClass: 'outcome_unknown' },
  MUTATION_REJECTED: { status: 409, retryable: false, errorClass: 'mutation_rejected' },
  VERIFICATION_FAILED: { status: 409, retryable: false, errorClass: 'verification_failed' },
  RECOVERY_BLOCKED: { status: 409, retryable: false, errorClass: 'blocked' },
  SESS_UNAVAILABLE: { status: 503, retryable: true, errorClass: 'unavailable' },
  NOT_CONFIGURED: { status: 500, retryable: false, errorClass: 'configuration' },
  SESS_PROTOCOL_ERROR: { status: 502, retryable: false, errorClass: 'configuration' },
  STATE_STORE_ERROR: { status: 503, retryable: true, errorClass: 'store' },
  STATE_STORE_FULL: { status: 409, retryable: false, errorClass: 'store' },
  // Codes of the hosted runtime (/v1, pages, CLI). New codes: one row here, one in docs/errors.md.
  NOT_FOUND: { status: 404, retryable: false, errorClass: 'not_found' },
  UNAUTHORIZED: { status: 401, retryable: false, errorClass: 'unauthorized' },
  FORBIDDEN: { status: 403, retryable: false, errorClass: 'forbidden' },
  ALREADY_ANSWERED: { status: 409, retryable: false, errorClass: 'conflict' },
  ANSWER_IN_CHAT_OFF: { status: 409, retryable: false, errorClass: 'conflict' },
  SIGN_IN_REQUIRED: { status: 401, retryable: false, errorClass: 'unauthorized' },
  FORM_FOR_SOMEONE_ELSE: { status: 403, retryable: false, errorClass: 'forbidden' },
  ANSWERER_NOT_A_PERSON: { status: 403, retryable: false, errorClass: 'forbidden' },
  PASSKEY_REQUIRED: { status: 403, retryable: false, errorClass: 'forbidden' },
  IDEMPOTENCY_KEY_REUSED: { status: 409, retryable: false, errorClass: 'conflict' },
  PRECONDITION_REQUIRED: { status: 428, retryable: false, errorClass: 'invalid_arguments' },
  LINK_CLOSED: { status: 410, retryable: false, errorClass: 'conflict' },
  ASK_FULL: { status: 409, retryable: false, errorClass: 'conflict' },
  PAYLOAD_TOO_LARGE: { status: 413, retryable: false, errorClass: 'invalid_arguments' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, retryable: false, errorClass: 'invalid_arguments' },
  RATE_LIMITED: { status: 429, retryable: true, errorClass: 'unavailable' },
  EMAIL_TAKEN: { status: 409, retryable: false, errorClass: 'conflict' },
  SIGNUP_NOT_ALLOWED: { status: 403, retryable: false, errorClass: 'forbidden' },
  PASSKEY_REFUSED: { status: 403, retryable: false, errorClass: 'forbidden' },
  // The form inside the agent's chat (MCP Apps): its view's per-render token.
  VIEW_TOKEN_INVALID: { status: 403, retryable: false, errorClass: 'forbidden' },
  // A webhook endpoint's URL Sess will not send to (details.reason).
  WEBHOOK_URL_REFUSED: { status: 400, retryable: false, errorClass: 'invalid_arguments' },
  INTERNAL: { status: 500, retryable: true, errorClass: 'unavailable' },
} as const satisfies Record<string, { status: number; retryable: boolean; errorClass: string }>;

export type ErrorCode = keyof typeof ERROR_REGISTRY;

/** Extra, code-specific facts a client may branch on (never message text). */
export interface ErrorDetails {
  /** RFC 6901 JSON pointer into the request's arguments. */
  field?: string;
  limit?: number;
  length?: number;
  [key: string]: unknown;
}

/** The wire shape of an error on every JSON face: `{ error: SessErrorBody }`. */
export interface SessErrorBody extends ErrorDetails {
  code: ErrorCode;
  message: string;
  retryable: boolean;
}

/** The one internal error type. Thrown by verbs; each face maps it with one exhaustive mapper. */
export class SessError extends Error {
  override readonly name = 'SessError';
  readonly code: ErrorCode;
  readonly details: ErrorDetails;
  readonly retryable: boolean;

  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}, options?: { cause?: unknown; retryable?: boolean }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = details;
    this.retryable = options?.retryable ?? ERROR_REGISTRY[code].retryable;
  }

  get status(): number {
    return ERROR_REGISTRY[this.code].status;
  }

  toBody(): SessErrorBody {
    return { code: this.code, message: this.message, retryable: this.retryable, ...this.details };
  }
}

export function isSessError(value: unknown): value is SessError {
  return value instanceof SessError;
}
