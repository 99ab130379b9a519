import { describe, expect, it } from 'vitest';
import { defineStateMachine } from './state-machine.ts';

describe('defineStateMachine', () => {
  it('refuses a table that names a state it does not have', () => {
    expect(() =>
      defineStateMachine<'a' | 'b', 'go'>({
        name: 'bad',
        states: ['a'] as unknown as readonly ('a' | 'b')[],
        initial: ['a'],
        transitions: { go: { from: ['a'], to: 'b' } },
      }),
    ).toThrow('bad: event go names an unknown state b');
  });

  it('staying in a state is not a move', () => {
    const machine = defineStateMachine<'a', 'stay'>({
      name: 'm',
      states: ['a'],
      initial: ['a'],
      transitions: { stay: { from: ['a'], to: 'a' } },
    });
    expect(machine.canMove('a', 'a')).toBe(false);
    expect(machine.next('a', 'stay')).toBe('a');
  });
});
