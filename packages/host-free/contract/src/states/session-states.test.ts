import { describe, expect, it } from 'vitest';
import {
  ASK_STATES,
  deriveAskState,
  deriveLinkState,
  deriveSessionState,
  isSettledSessionState,
  SESSION_LIST_STATUSES,
  SESSION_STATES,
  STORED_SESSION_MACHINE,
  STORED_SESSION_STATES,
  TIME_PHASES,
} from './session-states.ts';
import { TransitionError } from './state-machine.ts';

describe('stored session states', () => {
  it('moves open to completed or withdrawn, and nowhere else', () => {
    expect(STORED_SESSION_MACHINE.eventsBetween('open', 'completed')).toEqual(['completed']);
    expect(STORED_SESSION_MACHINE.eventsBetween('open', 'withdrawn')).toEqual(['withdrawn']);
    for (const from of ['completed', 'withdrawn'] as const) {
      for (const to of STORED_SESSION_STATES) expect(STORED_SESSION_MACHINE.canMove(from, to)).toBe(false);
    }
    expect(() => STORED_SESSION_MACHINE.assertMove('withdrawn', 'completed')).toThrow(TransitionError);
  });

  it('answers, extensions and publishes need an open session and keep it open', () => {
    for (const event of ['answered', 'extended', 'published'] as const) {
      expect(STORED_SESSION_MACHINE.next('open', event)).toBe('open');
      expect(STORED_SESSION_MACHINE.next('completed', event)).toBeUndefined();
      expect(STORED_SESSION_MACHINE.next('withdrawn', event)).toBeUndefined();
    }
  });
});

describe('derived states', () => {
  it('completed and withdrawn win over an answer and the clock', () => {
    for (const phase of TIME_PHASES) {
      for (const answered of [true, false]) {
        expect(deriveSessionState({ stored: 'completed', answered, phase })).toBe('completed');
        expect(deriveSessionState({ stored: 'withdrawn', answered, phase })).toBe('withdrawn');
        expect(deriveLinkState({ stored: 'completed', answered, phase })).toBe('completed');
        expect(deriveLinkState({ stored: 'withdrawn', answered, phase })).toBe('withdrawn');
      }
    }
  });

  it('an answer accepted in time stays answered after the end', () => {
    expect(deriveSessionState({ stored: 'open', answered: true, phase: 'closed' })).toBe('answered');
    expect(deriveLinkState({ stored: 'open', answered: true, phase: 'closed' })).toBe('answered');
  });

  it.each([
    ['open', 'waiting', 'open'],
    ['lapsed', 'waiting', 'lapsed'],
    ['closed', 'expired', 'expired'],
  ] as const)('unanswered in phase %s: agent %s, page %s', (phase, agent, page) => {
    expect(deriveSessionState({ stored: 'open', answered: false, phase })).toBe(agent);
    expect(deriveLinkState({ stored: 'open', answered: false, phase })).toBe(page);
  });

  it('an Ask closes when completed, full or over; withdrawn stays withdrawn', () => {
    expect(deriveAskState({ stored: 'open', full: false, ended: false })).toBe('waiting');
    expect(deriveAskState({ stored: 'open', full: true, ended: false })).toBe('closed');
    expect(deriveAskState({ stored: 'open', full: false, ended: true })).toBe('closed');
    expect(deriveAskState({ stored: 'completed', full: false, ended: false })).toBe('closed');
    expect(deriveAskState({ stored: 'withdrawn', full: true, ended: true })).toBe('withdrawn');
  });

  it('only waiting is unsettled', () => {
    expect(SESSION_STATES.filter((state) => !isSettledSessionState(state))).toEqual(['waiting']);
  });

  it('a listing status is an interaction state or an Ask state', () => {
    expect([...SESSION_LIST_STATUSES].sort()).toEqual([...new Set([...SESSION_STATES, ...ASK_STATES])].sort());
  });
});
