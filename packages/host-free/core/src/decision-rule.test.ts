import { describe, expect, it } from 'vitest';
import { decidedBy, decisionThresholds } from './decision-rule.ts';

describe('the decision rule', () => {
  it('gives each rule its thresholds', () => {
    expect(decisionThresholds('any', undefined, 5)).toEqual({ approveAt: 1, rejectAt: 1 });
    expect(decisionThresholds('all', undefined, 3)).toEqual({ approveAt: 3, rejectAt: 1 });
    // 2 of 3: a second reject leaves one place, so 2 approvals can no longer be reached.
    expect(decisionThresholds('quorum', 2, 3)).toEqual({ approveAt: 2, rejectAt: 2 });
    expect(decisionThresholds('quorum', 1, 4)).toEqual({ approveAt: 1, rejectAt: 4 });
    expect(decisionThresholds('quorum', 4, 4)).toEqual({ approveAt: 4, rejectAt: 1 });
  });

  it('decides when a threshold is met, never before', () => {
    const twoOfThree = decisionThresholds('quorum', 2, 3);
    expect(decidedBy({ approved: 1, rejected: 1 }, twoOfThree)).toBe('pending');
    expect(decidedBy({ approved: 2, rejected: 0 }, twoOfThree)).toBe('approved');
    expect(decidedBy({ approved: 1, rejected: 2 }, twoOfThree)).toBe('rejected');
    // Every quorum of every size: with all places answered, one outcome is always reached.
    for (let max = 1; max <= 12; max++)
      for (let need = 1; need <= max; need++)
        for (let approved = 0; approved <= max; approved++)
          expect(decidedBy({ approved, rejected: max - approved }, decisionThresholds('quorum', need, max))).not.toBe('pending');
  });
});
