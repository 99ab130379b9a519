import { isSessError } from '@sess/core';
import { describe, expect, it } from 'vitest';
import { checkArguments } from './arguments.ts';

const rules = {
  handle: { type: 'string' as const, required: true, maxLength: 8 },
  revision: { type: 'integer' as const, required: true, minimum: 1 },
  wait_ms: { type: 'integer' as const, minimum: 0, maximum: 45_000 },
};

function fieldOf(input: unknown): { field: unknown; limit?: unknown } {
  try {
    checkArguments(input, rules);
  } catch (error) {
    if (isSessError(error) && error.code === 'INVALID_ARGUMENTS')
      return { field: error.details.field, limit: error.details.limit };
    throw error;
  }
  return { field: undefined };
}

describe('checkArguments', () => {
  it('accepts what the rules allow and returns it unchanged', () => {
    expect(checkArguments({ handle: 'hdl_x', revision: 2 }, rules)).toEqual({ handle: 'hdl_x', revision: 2 });
  });
  it.each([
    [{ revision: 1 }, '/handle'],
    [{ handle: '', revision: 1 }, '/handle'],
    [{ handle: 'x'.repeat(9), revision: 1 }, '/handle'],
    [{ handle: 'h', revision: 0 }, '/revision'],
    [{ handle: 'h', revision: 1.5 }, '/revision'],
    [{ handle: 'h', revision: '1' }, '/revision'],
    [{ handle: 'h', revision: 1, wait_ms: 45_001 }, '/wait_ms'],
    [{ handle: 'h', revision: 1, more: 1 }, '/more'],
    [JSON.parse('{"handle":"h","revision":1,"__proto__":{}}'), '/__proto__'],
    [[], ''],
    [null, ''],
  ])('%j is refused at %s', (input, field) => {
    expect(fieldOf(input).field).toBe(field);
  });
  it('an over-limit number names its limit', () => {
    expect(fieldOf({ handle: 'h', revision: 1, wait_ms: 99_999 }).limit).toBe(45_000);
  });
});
