import { SessListInputSchema, SessResponseInputSchema } from '@sess/contract';
import { isSessError } from '@sess/core';
import { describe, expect, it } from 'vitest';
import { parseToolArguments } from './arguments.ts';

function refusal(schema: Parameters<typeof parseToolArguments>[0], input: unknown) {
  try {
    parseToolArguments(schema, input);
  } catch (error) {
    if (isSessError(error) && error.code === 'INVALID_ARGUMENTS') return { ...error.details, message: error.message };
    throw error;
  }
  return undefined;
}

describe('parseToolArguments over the contract’s schemas', () => {
  it('accepts what the schema allows and returns it unchanged', () => {
    expect(parseToolArguments(SessResponseInputSchema, { handle: 'hdl_x', revision: 2 })).toEqual({
      handle: 'hdl_x',
      revision: 2,
    });
  });
  it.each([
    [{ revision: 1 }, '/handle'],
    [{ handle: '', revision: 1 }, '/handle'],
    [{ handle: 'x'.repeat(65), revision: 1 }, '/handle'],
    [{ handle: 'h', revision: 0 }, '/revision'],
    [{ handle: 'h', revision: 1.5 }, '/revision'],
    [{ handle: 'h', revision: '1' }, '/revision'],
    [{ handle: 'h', revision: 1, wait_ms: 45_001 }, '/wait_ms'],
    [{ handle: 'h', revision: 1, more: 1 }, '/more'],
    [JSON.parse('{"handle":"h","revision":1,"__proto__":{}}'), '/__proto__'],
    [[], ''],
    [null, ''],
  ])('%j is refused at %s', (input, field) => {
    expect(refusal(SessResponseInputSchema, input)?.field).toBe(field);
  });
  it('an over-long string gets the seed’s length error in code points, with limit and length', () => {
    expect(refusal(SessResponseInputSchema, { handle: '😀'.repeat(65), revision: 1 })).toMatchObject({
      field: '/handle',
      limit: 64,
      length: 65,
      message: '/handle is 65 characters; the limit is 64. Shorten it to at most 64 characters.',
    });
  });
  it('an over-limit number names its limit', () => {
    expect(refusal(SessResponseInputSchema, { handle: 'h', revision: 1, wait_ms: 99_999 })).toMatchObject({
      field: '/wait_ms',
      limit: 45_000,
    });
  });
  it('the first problem in the schema’s key order, unknown keys last', () => {
    expect(refusal(SessListInputSchema, { zzz: 1, limit: 51, status: 'nope' })?.field).toBe('/status');
    expect(refusal(SessListInputSchema, { zzz: 1, limit: 5 })?.field).toBe('/zzz');
    expect(refusal(SessListInputSchema, { status: 'nope' })?.message).toContain('"open"');
  });
});
