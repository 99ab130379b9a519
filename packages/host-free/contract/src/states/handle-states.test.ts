import { describe, expect, it } from 'vitest';
import {
  FINISHED_HANDLE_STATES,
  HANDLE_MACHINE,
  HANDLE_STATES,
  type HandleState,
  isUnfinishedHandleState,
  REVIEW_HANDLE_STATES,
  UNFINISHED_HANDLE_STATES,
} from './handle-states.ts';
import { TransitionError } from './state-machine.ts';

describe('handle states', () => {
  it('splits every state into unfinished and finished, once each', () => {
    expect([...UNFINISHED_HANDLE_STATES, ...FINISHED_HANDLE_STATES].sort()).toEqual([...HANDLE_STATES].sort());
    for (const state of UNFINISHED_HANDLE_STATES) expect(isUnfinishedHandleState(state)).toBe(true);
    for (const state of FINISHED_HANDLE_STATES) expect(isUnfinishedHandleState(state)).toBe(false);
  });

  it('review states are unfinished', () => {
    for (const state of REVIEW_HANDLE_STATES) expect(isUnfinishedHandleState(state)).toBe(true);
  });

  it('no event leaves a finished state', () => {
    for (const from of FINISHED_HANDLE_STATES) {
      for (const to of HANDLE_STATES) expect([from, to, HANDLE_MACHINE.canMove(from, to)]).toEqual([from, to, false]);
    }
  });

  it('every unfinished state has a way out', () => {
    for (const from of UNFINISHED_HANDLE_STATES) {
      expect([from, HANDLE_STATES.some((to) => HANDLE_MACHINE.canMove(from, to))]).toEqual([from, true]);
    }
  });

  it('only the owner moves a handle out of review', () => {
    for (const from of REVIEW_HANDLE_STATES) {
      const events = HANDLE_STATES.flatMap((to) => HANDLE_MACHINE.eventsBetween(from, to));
      expect(events).toEqual(['retired_by_owner']);
    }
  });

  it.each<[HandleState, HandleState, string[]]>([
    ['create_intent', 'waiting', ['create_saved']],
    ['create_intent', 'create_unknown', ['create_unknown']],
    ['create_intent', 'cancelled', ['create_rejected']],
    ['waiting', 'answered', ['answered']],
    ['answered', 'waiting', ['published']],
    ['answered', 'completed', ['completed']],
    ['waiting', 'expired', ['expired']],
    ['waiting', 'cancelled', ['withdrawn', 'cancelled']],
    ['answered', 'cancelled', ['cancelled']],
    ['waiting', 'closed', ['closed']],
    ['waiting', 'blocked', ['blocked']],
    ['answered', 'blocked', ['blocked']],
    ['blocked', 'cancelled', ['retired_by_owner']],
    ['create_unknown', 'cancelled', ['retired_by_owner']],
  ])('%s → %s by %j', (from, to, events) => {
    expect(HANDLE_MACHINE.eventsBetween(from, to)).toEqual(events);
    expect(() => HANDLE_MACHINE.assertMove(from, to)).not.toThrow();
  });

  it.each<[HandleState, HandleState]>([
    ['waiting', 'completed'],
    ['answered', 'expired'],
    ['answered', 'closed'],
    ['create_intent', 'answered'],
    ['blocked', 'waiting'],
    ['create_unknown', 'waiting'],
    ['cancelled', 'waiting'],
  ])('refuses %s → %s', (from, to) => {
    expect(HANDLE_MACHINE.canMove(from, to)).toBe(false);
    expect(() => HANDLE_MACHINE.assertMove(from, to)).toThrow(TransitionError);
  });

  it('a handle is written first as its intent, or as waiting when create and handle commit together', () => {
    expect(HANDLE_MACHINE.initial).toEqual(['create_intent', 'waiting']);
  });

  it('next() names where an event leads, and nothing where it does not apply', () => {
    expect(HANDLE_MACHINE.next('answered', 'published')).toBe('waiting');
    expect(HANDLE_MACHINE.next('waiting', 'published')).toBeUndefined();
  });
});
