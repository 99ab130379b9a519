import { describe, expect, it } from 'vitest';
import { parseArgs, UsageError } from './args.ts';
import { formatWaited } from './wait-progress.ts';

describe('parseArgs', () => {
  const spec = { valued: ['jwks', 'timeout'], flags: ['no-qr'] };

  it('takes --name value, --name=value, flags and positionals (with - as a positional)', () => {
    const parsed = parseArgs(['-', '--jwks', 'keys.json', '--timeout=30', '--no-qr', 'extra'], spec);
    expect(Object.fromEntries(parsed.options)).toEqual({ jwks: 'keys.json', timeout: '30' });
    expect([...parsed.flags]).toEqual(['no-qr']);
    expect(parsed.positionals).toEqual(['-', 'extra']);
  });

  it.each([
    [['--jwks'], '--jwks needs a value'],
    [['--jwks='], '--jwks needs a value'],
    [['--frobnicate'], 'unknown option --frobnicate'],
    [['--no-qr=yes'], 'unknown option --no-qr'],
  ])('%o is refused: %s', (args, message) => {
    expect(() => parseArgs(args, spec)).toThrow(new UsageError(message));
  });
});

describe('formatWaited', () => {
  it.each([
    [0, '0:00'],
    [59_999, '0:59'],
    [61_000, '1:01'],
    [3_600_000, '60:00'],
  ])('%i ms → %s', (ms, text) => {
    expect(formatWaited(ms)).toBe(text);
  });
});
