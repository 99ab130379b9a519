import { isSessError } from '@sess/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseArguments } from './parse-arguments.ts';

// Shaped like the contract's sess_response and sess_list inputs (the contract imports this package).
const SessResponseInputSchema = z.strictObject({
  handle: z.string().min(1).max(64),
  revision: z.int().min(1),
  wait_ms: z.int().min(0).max(45_000).optional(),
});
const SessListInputSchema = z.strictObject({
  status: z.enum(['open', 'waiting', 'all']).optional(),
  cursor: z.string().min(1).max(200).optional(),
  limit: z.int().min(1).max(50).optional(),
});

function refusal(schema: Parameters<typeof parseArguments>[0], input: unknown) {
  try {
    parseArguments(schema, input);
  } catch (error) {
    if (isSessError(error) && error.code === 'INVALID_ARGUMENTS') return { ...error.details, message: error.message };
    throw error;
  }
  return undefined;
}

describe('parseArguments', () => {
  it('accepts what the schema allows and returns it unchanged', () => {
    expect(parseArguments(SessResponseInputSchema, { handle: 'hdl_x', revision: 2 })).toEqual({
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
