import { SessError } from '@sess/core';
import type { ReceiptFailureReason } from './failure-reasons.ts';

/**
 * Maps a verification failure to the seed's error classes: a key set that could not be had is
 * `SESS_UNAVAILABLE` (retryable, nothing changed); every other reason is `VERIFICATION_FAILED`
 * (the interaction blocks for owner review). The reason travels in `details.reason`.
 * The message is generic on purpose: it may reach the wire, so the verifier's detailed
 * `message` belongs in the log, not here. The exhaustive switch makes a new reason a compile
 * error until it is classified.
 */
export function toSessError(reason: ReceiptFailureReason): SessError {
  switch (reason) {
    case 'KEY_SET_UNAVAILABLE':
      return new SessError('SESS_UNAVAILABLE', 'The receipt key set could not be fetched; try again later.', { reason });
    case 'MALFORMED':
    case 'ALG_NOT_ALLOWED':
    case 'HEADER_NOT_ALLOWED':
    case 'TYPE_MISMATCH':
    case 'UNKNOWN_KEY_ID':
    case 'BAD_SIGNATURE':
    case 'ISSUER_MISMATCH':
    case 'ACTOR_ASSURANCE_MISMATCH':
    case 'WORKSPACE_MISMATCH':
    case 'SESSION_MISMATCH':
    case 'REVISION_MISMATCH':
    case 'EVENT_MISMATCH':
    case 'SURFACE_MISMATCH':
    case 'ANSWER_MISMATCH':
    case 'RESPONDENT_MISMATCH':
    case 'VIA_MISMATCH':
    case 'ASSURANCE_MISMATCH':
    case 'ASSURANCE_TOO_LOW':
      return new SessError('VERIFICATION_FAILED', `The answer's receipt did not verify (${reason}).`, { reason });
    case 'ASK_MISMATCH':
    case 'DECISION_THRESHOLD_MISMATCH':
    case 'DECISION_COUNT_MISMATCH':
    case 'DECISION_ANSWER_MISSING':
    case 'DECISION_ANSWER_DUPLICATE':
    case 'DECISION_ANSWER_NOT_COUNTED':
      return new SessError('VERIFICATION_FAILED', `The decision receipt did not verify (${reason}).`, { reason });
    default: {
      const unreachable: never = reason;
      throw new TypeError(`unclassified receipt failure ${String(unreachable)}`);
    }
  }
}
