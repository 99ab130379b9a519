import { describe, expect, it } from 'vitest';
import { askState, linkState, nextTimeChange, sessionState, timePhase } from './derive-state.ts';

const t0 = Date.parse('2030-01-01T00:00:00Z');
const at = (seconds: number) => new Date(t0 + seconds * 1000);
// An extendable link: deadline at +1 h, horizon at +7 d.
const extendable = { state: 'open' as const, deadlineAt: at(3600), closesAt: at(7 * 86_400) };
// A link that cannot be extended: deadline = end.
const fixed = { state: 'open' as const, deadlineAt: at(3600), closesAt: at(3600) };

describe('expiry on read', () => {
  it.each([
    [extendable, 0, 'open', 'waiting', 'open'],
    [extendable, 3600, 'lapsed', 'waiting', 'lapsed'],
    [extendable, 7 * 86_400 - 1, 'lapsed', 'waiting', 'lapsed'],
    [extendable, 7 * 86_400, 'closed', 'expired', 'expired'],
    [fixed, 3599, 'open', 'waiting', 'open'],
    [fixed, 3600, 'closed', 'expired', 'expired'],
  ])('%o at +%is: phase %s, agent %s, page %s', (row, seconds, phase, agent, page) => {
    expect(timePhase(row, at(seconds))).toBe(phase);
    expect(sessionState(row, false, at(seconds))).toBe(agent);
    expect(linkState(row, false, at(seconds))).toBe(page);
  });

  it('an answer accepted before the end stays answered after it; completed and withdrawn win over everything', () => {
    expect(sessionState(fixed, true, at(10 * 86_400))).toBe('answered');
    expect(linkState(fixed, true, at(10 * 86_400))).toBe('answered');
    expect(sessionState({ ...fixed, state: 'completed' }, true, at(0))).toBe('completed');
    expect(sessionState({ ...fixed, state: 'withdrawn' }, true, at(0))).toBe('withdrawn');
  });

  it('names the next instant the clock alone changes the state', () => {
    expect(nextTimeChange(extendable, at(0))).toEqual(at(3600));
    expect(nextTimeChange(extendable, at(3600))).toEqual(at(7 * 86_400));
    expect(nextTimeChange(extendable, at(7 * 86_400))).toBeNull();
  });

  it('an Ask is waiting until it expires or max people answered', () => {
    const ask = { state: 'open' as const, closesAt: at(3600), askMax: 2, askAnswered: 1 };
    expect(askState(ask, at(0))).toBe('waiting');
    expect(askState({ ...ask, askAnswered: 2 }, at(0))).toBe('closed');
    expect(askState(ask, at(3600))).toBe('closed');
    expect(askState({ ...ask, state: 'withdrawn' }, at(0))).toBe('withdrawn');
  });
});
