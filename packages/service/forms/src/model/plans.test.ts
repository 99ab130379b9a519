import { describe, expect, it } from 'vitest';
import { describeSeconds, PLANS, planFor } from './plans.ts';

describe('plans', () => {
  it('falls back to free for an unknown plan name', () => {
    expect(planFor('gold')).toBe(PLANS.free);
    expect(planFor(undefined)).toBe(PLANS.free);
    expect(planFor('enterprise').openSessions).toBeNull();
  });
  it('words a number of seconds for a message', () => {
    expect(describeSeconds(604_800)).toBe('7 days');
    expect(describeSeconds(72_000)).toBe('20 hours');
    expect(describeSeconds(60)).toBe('1 minute');
    expect(describeSeconds(61)).toBe('61 seconds');
  });
});
