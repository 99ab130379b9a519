import { describe, expect, it } from 'vitest';
import { STRUCTURE_LIMITS } from './limits.ts';
import { checkPattern, compilePattern } from './pattern.ts';

describe('field patterns run on RE2', () => {
  it('matches with RE2 semantics, not the ECMAScript engine: \\s is ASCII whitespace only', () => {
    // ECMAScript's \s matches a no-break space; RE2's does not. Only RE2 can give this answer.
    expect(/^\s$/u.test('\u00a0')).toBe(true);
    expect(compilePattern('^\\s$').test('\u00a0')).toBe(false);
    expect(compilePattern('^\\s$').test(' ')).toBe(true);
  });

  it('answers the same for anchored patterns, which it runs on the DFA rather than the one-pass engine', () => {
    for (const [pattern, yes, no] of [
      ['^[A-Za-z ]+$', 'lorem ipsum', 'lorem 1psum'],
      ['^\\d{3}-\\d{4}$', '555-1234', '555-12345'],
      ['^(?:ab|cd)+$', 'abcdab', 'abcda'],
      ['^$', '', 'x'],
    ] as const) {
      expect(compilePattern(pattern).test(yes), `${pattern} ${yes}`).toBe(true);
      expect(compilePattern(pattern).test(no), `${pattern} ${no}`).toBe(false);
    }
  });

  it('is unanchored, as JSON Schema says', () => {
    expect(compilePattern('\\d{3}').test('abc 123 def')).toBe(true);
    expect(compilePattern('^\\d{3}$').test('abc 123 def')).toBe(false);
  });

  it('reads the ECMAScript \\uXXXX and \\u{X} escapes (RE2 spells them \\x{X}), inside classes too', () => {
    expect(compilePattern('^\\u00e9+$').test('ééé')).toBe(true);
    expect(compilePattern('^[\\u0600-\\u06FF]+$').test('سلام')).toBe(true);
    expect(compilePattern('^\\u{1F600}$').test('😀')).toBe(true);
    // An escaped backslash before a u is a literal backslash and a u, not an escape.
    expect(compilePattern('^\\\\u0041$').test('\\u0041')).toBe(true);
  });

  it('counts an astral character once, as RE2 does', () => {
    expect(checkPattern('😀'.repeat(STRUCTURE_LIMITS.patternProgram - 2))).toBeUndefined();
    expect(compilePattern('^😀{3}$').test('😀😀😀')).toBe(true);
  });

  it.each([
    ['(\\w)\\1', 'a backreference'],
    ['(?<a>x)\\k<a>', 'a backreference'],
    ['a(?=b)', 'a lookahead or lookbehind'],
    ['a(?!b)', 'a lookahead or lookbehind'],
    ['(?<=a)b', 'a lookahead or lookbehind'],
    ['(?<!a)b', 'a lookahead or lookbehind'],
    ['\\p{Script=Latin}', 'a Unicode property with a value'],
    ['[^]', 'an empty character class'],
    ['[]', 'an empty character class'],
  ])('refuses %s: %s', (pattern, feature) => {
    const problem = checkPattern(pattern);
    expect(problem?.kind).toBe('unsupported');
    expect(problem?.kind === 'unsupported' && problem.feature.startsWith(feature)).toBe(true);
  });

  it('refuses what is not ECMAScript, even where RE2 would take it', () => {
    expect(checkPattern('(?i)abc')).toEqual({ kind: 'syntax' });
    expect(checkPattern('a{,3}')).toEqual({ kind: 'syntax' });
  });

  it('bounds the compiled program, before compiling when the estimate is already over', () => {
    expect(checkPattern(`\\d{${STRUCTURE_LIMITS.patternProgram - 2}}`)).toBeUndefined();
    expect(checkPattern(`\\d{${STRUCTURE_LIMITS.patternProgram}}`)).toEqual({ kind: 'too_complex' });
    expect(checkPattern('(?:(?:(?:a?){10}){10}){10}')).toEqual({ kind: 'too_complex' });
    expect(checkPattern('(?:a?){1000}a{1000}')).toEqual({ kind: 'too_complex' });
  });

  it.each([
    ['a UUID', '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'],
    ['a phone number', '^\\+?[0-9 ()-]{7,20}$'],
    ['an IBAN', '^[A-Z]{2}\\d{2}[A-Z0-9]{11,30}$'],
    ['an IPv4 address', '^\\d{1,3}(?:\\.\\d{1,3}){3}$'],
    ['an e-mail address', '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$'],
  ])('takes %s within the program bound', (_, pattern) => {
    expect(checkPattern(pattern)).toBeUndefined();
  });

  it('does not enforce a stored pattern RE2 cannot run (it is never handed to the ECMAScript engine)', () => {
    expect(compilePattern('^(?=.*\\d).+$').test('no digits')).toBe(true);
  });
});
