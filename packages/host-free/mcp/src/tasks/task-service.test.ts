import { describe, expect, it } from 'vitest';
import { clockTime } from './task-service.ts';

describe('clockTime (a working task’s status line)', () => {
  it('is the UTC clock time on the same day, with the date on another', () => {
    const today = new Date('2026-12-07T18:00:00Z');
    expect(clockTime('2026-12-07T14:02:59.123Z', today)).toBe('14:02 UTC');
    expect(clockTime('2026-12-08T09:30:00Z', today)).toBe('2026-12-08 09:30 UTC');
  });
});
