/**
 * Every reason a receipt can fail verification. Stable codes: callers and logs branch on them,
 * never on message text. Each is triggered by a test in `verify-receipt.test.ts` or, for the
 * decision receipt's own, `decision/verify-decision.test.ts`.
 */
export const RECEIPT_FAILURE_REASONS = [
  /** Not a compact JWS, or a header/claims set of the wrong shape (a `via` other than `link`/`chat`, or `via_principal_id` without `via: chat` or the other way round, an `assurance` other than `link`/`account`/`passkey`, or a `respondent` at `link` or none above it, or `passkey_credential_id` / `assertion_sha256` missing at `passkey` or present below it, included). */
  'MALFORMED',
  /** `alg` other than ES256 (`none`, HS256, RS256, …). */
  'ALG_NOT_ALLOWED',
  /** A header parameter other than `alg`, `kid`, `typ` (`jwk`, `jku`, `x5u`, `crit`, `b64`, …). */
  'HEADER_NOT_ALLOWED',
  /** `typ` other than the one verified for: `sess-receipt+jwt` (answer), `sess-decision+jwt` (decision). */
  'TYPE_MISMATCH',
  /** A current key set has no key with this kid. */
  'UNKNOWN_KEY_ID',
  /** The key set could not be had (fetch failure or cooldown). The only retryable reason. */
  'KEY_SET_UNAVAILABLE',
  'BAD_SIGNATURE',
  'ISSUER_MISMATCH',
  'ACTOR_ASSURANCE_MISMATCH',
  'WORKSPACE_MISMATCH',
  'SESSION_MISMATCH',
  'REVISION_MISMATCH',
  'EVENT_MISMATCH',
  'SURFACE_MISMATCH',
  'ANSWER_MISMATCH',
  'RESPONDENT_MISMATCH',
  /** `via` (or the chat answer's `via_principal_id`) is not what the caller was told. */
  'VIA_MISMATCH',
  /** `assurance` (or its `respondent`) is not what the caller was told. */
  'ASSURANCE_MISMATCH',
  /** The answer's `assurance` is below the caller's `minAssurance` (an older receipt without one is `link`). */
  'ASSURANCE_TOO_LOW',
  /** Decision receipts: `ask_id` is not the Ask the caller expects. */
  'ASK_MISMATCH',
  /** Decision receipts: `approve_at` / `reject_at` are not `decisionThresholds(rule, quorum, max)`. */
  'DECISION_THRESHOLD_MISMATCH',
  /** Decision receipts: the intents listed in `answers` do not reach `outcome` under the thresholds (`decidedBy`). */
  'DECISION_COUNT_MISMATCH',
  /** Decision receipts: a listed answer has no answer receipt among those given. */
  'DECISION_ANSWER_MISSING',
  /** Decision receipts: two answer receipts given name the same `event_id`. */
  'DECISION_ANSWER_DUPLICATE',
  /** Decision receipts: a verified answer receipt of the Ask that the decision does not list (it must count every accepted answer). */
  'DECISION_ANSWER_NOT_COUNTED',
] as const;

/** One of `RECEIPT_FAILURE_REASONS`. */
export type ReceiptFailureReason = (typeof RECEIPT_FAILURE_REASONS)[number];
