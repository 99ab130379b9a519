import { describe, expect, it } from 'vitest';
import { portSessionState } from './sess-backend.ts';

describe('portSessionState: one decision of "lapsed" for both backends', () => {
  const now = new Date('2030-01-01T12:00:00.000Z');
  const before = '2030-01-01T11:00:00.000Z';
  const after = '2030-01-01T13:00:00.000Z';
  const horizon = '2030-01-08T12:00:00.000Z';

  it('a waiting or answered link past its deadline that the person can still extend is lapsed; before it, open', () => {
    for (const state of ['waiting', 'answered']) {
      expect(portSessionState({ state, deadlineAt: before, horizonAt: horizon }, now)).toBe('lapsed');
      expect(portSessionState({ state, deadlineAt: now.toISOString(), horizonAt: horizon }, now)).toBe('lapsed');
      expect(portSessionState({ state, deadlineAt: after, horizonAt: horizon }, now)).toBe('open');
      // No horizon: the link cannot be extended, so it is never lapsed (the runtime expires it).
      expect(portSessionState({ state, deadlineAt: before, horizonAt: null }, now)).toBe('open');
    }
  });

  it('finished states pass through; an unknown one is a protocol error, not a guess', () => {
    for (const state of ['completed', 'withdrawn', 'expired'] as const) {
      expect(portSessionState({ state, deadlineAt: before, horizonAt: horizon }, now)).toBe(state);
    }
    expect(() => portSessionState({ state: 'paused', deadlineAt: after, horizonAt: null }, now)).toThrow(
      expect.objectContaining({ code: 'SESS_PROTOCOL_ERROR' }),
    );
  });
});
