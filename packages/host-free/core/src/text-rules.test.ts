import { describe, expect, it } from 'vitest';
import { describeTextProblem, findTextProblem, isAcceptableText } from './text-rules.ts';

describe('the character rule', () => {
  it.each([
    ['ordinary text with tabs and line breaks', 'Line one\tcol\r\nline two\n'],
    ['emoji and combining marks', '😀 e\u0301 中文 🇸🇮'],
    ['right-to-left text without controls', 'שלום עולם مرحبا'],
    ['marks that do not reorder (LRM, RLM, ALM)', 'a\u200Eb\u200Fc\u061Cd'],
    ['the private use area and U+FFFD', '\uE000\uFFFD'],
  ])('accepts %s', (_, text) => {
    expect(findTextProblem(text)).toBeUndefined();
    expect(isAcceptableText(text)).toBe(true);
  });

  it.each([
    ['NUL', 'ab\u0000c', 'nul', 0x0000, 3],
    ['a lone high surrogate', 'ab\uD800', 'surrogate', 0xd800, 3],
    ['a lone low surrogate after a pair', '😀\uDC00', 'surrogate', 0xdc00, 2],
    ['ESC (a terminal escape)', '\u001B[31mred', 'control', 0x1b, 1],
    ['vertical tab', 'a\u000Bb', 'control', 0x0b, 2],
    ['DEL', 'a\u007F', 'control', 0x7f, 2],
    ['a C1 control (NEL)', 'a\u0085', 'control', 0x85, 2],
    ['U+FFFE', 'a\uFFFE', 'noncharacter', 0xfffe, 2],
    ['U+FDD0', '\uFDD0', 'noncharacter', 0xfdd0, 1],
    ['U+10FFFF', '\u{10FFFF}', 'noncharacter', 0x10ffff, 1],
    ['U+1FFFE after an emoji', '😀\u{1FFFE}', 'noncharacter', 0x1fffe, 2],
    ['a right-to-left override', 'Pay invoice \u202Efdp.exe\u202C now', 'bidi_control', 0x202e, 13],
    ['a first-strong isolate', '\u2068x\u2069', 'bidi_control', 0x2068, 1],
  ])('refuses %s, naming the code point and its position in code points', (_, text, kind, codePoint, position) => {
    expect(findTextProblem(text)).toEqual({ kind, codePoint, position });
    expect(isAcceptableText(text)).toBe(false);
  });

  it("allows bidirectional controls in a person's own answer, nothing else", () => {
    expect(findTextProblem('abc \u202Edef\u202C', { allowBidiControls: true })).toBeUndefined();
    expect(findTextProblem('abc \u202E\u0000', { allowBidiControls: true })?.kind).toBe('nul');
  });

  it('says what the character is, where, and why', () => {
    expect(describeTextProblem(findTextProblem('ab\u0000')!)).toBe(
      'contains a NUL character (U+0000) at character 3; Sess cannot store it',
    );
  });
});
