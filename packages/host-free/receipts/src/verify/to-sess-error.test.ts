import { describe, expect, it } from 'vitest';
import { RECEIPT_FAILURE_REASONS } from './failure-reasons.ts';
import { toSessError } from './to-sess-error.ts';

describe('toSessError', () => {
  it('a key set that could not be had is SESS_UNAVAILABLE, retryable', () => {
    const error = toSessError('KEY_SET_UNAVAILABLE');
    expect(error.code).toBe('SESS_UNAVAILABLE');
    expect(error.retryable).toBe(true);
    expect(error.toBody()).toMatchObject({ code: 'SESS_UNAVAILABLE', retryable: true, reason: 'KEY_SET_UNAVAILABLE' });
  });

  it.each(RECEIPT_FAILURE_REASONS.filter((reason) => reason !== 'KEY_SET_UNAVAILABLE'))(
    '%s is VERIFICATION_FAILED, not retryable',
    (reason) => {
      const error = toSessError(reason);
      expect(error.code).toBe('VERIFICATION_FAILED');
      expect(error.retryable).toBe(false);
      expect(error.details).toEqual({ reason });
    },
  );

  it("a decision receipt's own reasons say the decision did not verify", () => {
    expect(toSessError('DECISION_COUNT_MISMATCH').message).toBe('The decision receipt did not verify (DECISION_COUNT_MISMATCH).');
    expect(toSessError('BAD_SIGNATURE').message).toBe("The answer's receipt did not verify (BAD_SIGNATURE).");
  });
});
