import { type ErrorCode, isSessError } from '@sess/core';
import { classifyDatabaseError } from '@sess/db';

/**
 * What a failure means to a person on one of our pages:
 * - `unavailable`: the database is out of reach (or a verb said `SESS_UNAVAILABLE`); try again soon.
 * - `bad_input`: the post held characters the database cannot store; the same post always fails.
 * - `not_found`: there is nothing at this address.
 * - `internal`: anything else, including a code the route should have answered itself.
 */
export type PageFailure = 'unavailable' | 'bad_input' | 'not_found' | 'internal';

/**
 * The one classification of a thrown value for the HTML faces. The database's own
 * classification comes first, since it looks through the `cause` chain (one of our errors may
 * wrap a lost connection); then our codes, one exhaustive switch; anything else is `internal`.
 */
export function classifyPageFailure(error: unknown): PageFailure {
  switch (classifyDatabaseError(error).kind) {
    case 'unavailable':
      return 'unavailable';
    case 'bad_input':
      return 'bad_input';
    case 'other':
      return isSessError(error) ? pageFailureOfCode(error.code) : 'internal';
  }
}

/**
 * A code that reaches a page's error mapper. The routes answer the codes a person can act on
 * inline (a refused answer re-renders the form, `ALREADY_ANSWERED` shows the current state, a
 * rate limit says when to come back), so what reaches here is not the person's to fix.
 */
function pageFailureOfCode(code: ErrorCode): PageFailure {
  switch (code) {
    case 'NOT_FOUND':
      return 'not_found';
    case 'SESS_UNAVAILABLE':
      return 'unavailable';
    case 'INVALID_ARGUMENTS':
    case 'HANDLE_NOT_FOUND':
    case 'BINDING_MISMATCH':
    case 'REVISION_MISMATCH':
    case 'RESPONSE_MISMATCH':
    case 'PENDING_MUTATION_DIFFERS':
    case 'MUTATION_PENDING':
    case 'INVALID_STATE':
    case 'CREATE_REJECTED':
    case 'PLAN_LIMIT_REACHED':
    case 'CREATE_OUTCOME_UNKNOWN':
    case 'CREATED_NOT_SAVED':
    case 'OUTCOME_UNKNOWN':
    case 'MUTATION_REJECTED':
    case 'VERIFICATION_FAILED':
    case 'RECOVERY_BLOCKED':
    case 'NOT_CONFIGURED':
    case 'SESS_PROTOCOL_ERROR':
    case 'STATE_STORE_ERROR':
    case 'STATE_STORE_FULL':
    case 'UNAUTHORIZED':
    case 'FORBIDDEN':
    case 'ALREADY_ANSWERED':
    case 'ANSWER_IN_CHAT_OFF':
    case 'SIGN_IN_REQUIRED':
    case 'FORM_FOR_SOMEONE_ELSE':
    case 'ANSWERER_NOT_A_PERSON':
    case 'PASSKEY_REQUIRED':
    case 'IDEMPOTENCY_KEY_REUSED':
    case 'PRECONDITION_REQUIRED':
    case 'LINK_CLOSED':
    case 'ASK_FULL':
    case 'PAYLOAD_TOO_LARGE':
    case 'UNSUPPORTED_MEDIA_TYPE':
    case 'RATE_LIMITED':
    case 'EMAIL_TAKEN':
    case 'SIGNUP_NOT_ALLOWED':
    case 'PASSKEY_REFUSED':
    case 'VIEW_TOKEN_INVALID':
    case 'WEBHOOK_URL_REFUSED':
    case 'INTERNAL':
      return 'internal';
  }
}
