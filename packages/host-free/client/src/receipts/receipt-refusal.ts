import type { ReceiptFailureReason } from '@sess/receipts';
import { SessClientError } from '../errors/sess-client-error.ts';

/*
 * The two ways a receipt check fails, worded once for every verification of the client (an
 * answer's, a decision's): the keys could not be had (transport, retryable: nothing is known to
 * be wrong yet), or the receipt does not verify (protocol, VERIFICATION_FAILED, not retryable).
 */

/** What was being verified, as the messages name it. */
type Subject = 'answer' | 'decision';

/** A receipt that does not verify: `protocol` with the verifier's `reason`. */
export function refused(operation: string, subject: Subject, reason: ReceiptFailureReason, message: string): SessClientError {
  return new SessClientError({
    kind: 'protocol',
    operation,
    code: 'VERIFICATION_FAILED',
    reason,
    retryable: false,
    message: `The ${subject}'s receipt did not verify (${reason}): ${message}. Do not act on this ${subject}.`,
  });
}

/** A failed verification as the client throws it: a key set that could not be fetched is `transport`. */
export function verificationError(
  operation: string,
  subject: Subject,
  failure: { reason: ReceiptFailureReason; message: string },
): SessClientError {
  if (failure.reason === 'KEY_SET_UNAVAILABLE') {
    return new SessClientError({
      kind: 'transport',
      operation,
      reason: failure.reason,
      sent: true,
      message: `The receipt keys (JWKS) could not be fetched: ${failure.message}. Verify again later; the ${subject} is not rejected.`,
    });
  }
  return refused(operation, subject, failure.reason, failure.message);
}
