/*
 * The one rule for which characters Sess takes in text it stores or shows (docs/errors.md,
 * "Characters"). Everywhere text comes in — agent-written forms, answers, OAuth client metadata,
 * account forms — the same function decides:
 *
 * - NUL (U+0000) and unpaired UTF-16 surrogates: PostgreSQL cannot store them (text refuses NUL,
 *   jsonb refuses both), so they are refused where they arrive instead of failing as a 500.
 * - Other C0 and C1 control characters and DEL, except tab, line feed and carriage return:
 *   invisible on a page, and escape sequences in a terminal or a log.
 * - Noncharacters (U+FDD0–U+FDEF and the last two code points of every plane): reserved by
 *   Unicode for a program's internal use, never meaningful in a form.
 * - In text an agent writes for a person to read (not in the person's own answers): the
 *   bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), which make
 *   text read differently from the characters it is made of ("Trojan Source"). A person's own
 *   answer may hold them (pasted right-to-left text); every page shows text isolated anyway.
 */

/** What is wrong with a character, for a message. */
export type TextProblemKind = 'nul' | 'surrogate' | 'control' | 'noncharacter' | 'bidi_control';

export interface TextProblem {
  kind: TextProblemKind;
  /** The offending code point (a lone surrogate's own unit). */
  codePoint: number;
  /** Its position in code points from the start, counting from 1 (as a person counts). */
  position: number;
}

export interface TextRuleOptions {
  /** Allow bidirectional controls (a person's own answer). Default: refused. */
  allowBidiControls?: boolean;
}

const ASTRAL_NONCHARACTERS = Array.from({ length: 16 }, (_, plane) => {
  const base = (plane + 1) * 0x10000;
  return `\\u{${(base + 0xfffe).toString(16)}}\\u{${(base + 0xffff).toString(16)}}`;
}).join('');

// One scan finds any candidate; with the u flag a lone surrogate matches the surrogate range and a
// well-formed pair is one code point that does not.
const SUSPECT = new RegExp(
  `[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\uD800-\\uDFFF\\uFDD0-\\uFDEF\\uFFFE\\uFFFF${ASTRAL_NONCHARACTERS}\\u202A-\\u202E\\u2066-\\u2069]`,
  'u',
);
const SUSPECT_WITHOUT_BIDI = new RegExp(
  `[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\uD800-\\uDFFF\\uFDD0-\\uFDEF\\uFFFE\\uFFFF${ASTRAL_NONCHARACTERS}]`,
  'u',
);

function kindOf(codePoint: number): TextProblemKind {
  if (codePoint === 0) return 'nul';
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) return 'surrogate';
  if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint <= 0x9f)) return 'control';
  if ((codePoint >= 0x202a && codePoint <= 0x202e) || (codePoint >= 0x2066 && codePoint <= 0x2069)) return 'bidi_control';
  return 'noncharacter';
}

/** The first character of `text` that Sess refuses, or `undefined` when every character is fine. */
export function findTextProblem(text: string, options: TextRuleOptions = {}): TextProblem | undefined {
  const suspect = options.allowBidiControls ? SUSPECT_WITHOUT_BIDI : SUSPECT;
  const match = suspect.exec(text);
  if (!match) return undefined;
  const codePoint = match[0].codePointAt(0)!;
  let position = 1;
  for (let i = 0; i < match.index; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    position++;
  }
  return { kind: kindOf(codePoint), codePoint, position };
}

/** True when `text` passes the rule (see `findTextProblem`). */
export function isAcceptableText(text: string, options: TextRuleOptions = {}): boolean {
  return !(options.allowBidiControls ? SUSPECT_WITHOUT_BIDI : SUSPECT).test(text);
}

const NAMES: Record<TextProblemKind, string> = {
  nul: 'a NUL character',
  surrogate: 'an unpaired UTF-16 surrogate',
  control: 'a control character',
  noncharacter: 'a Unicode noncharacter',
  bidi_control: 'a bidirectional control character',
};

const WHY: Record<TextProblemKind, string> = {
  nul: 'Sess cannot store it',
  surrogate: 'it is not valid Unicode text',
  control: 'it is invisible on a page',
  noncharacter: 'it is reserved for internal use',
  bidi_control: 'it can make text read differently from what it says',
};

/** `U+202E`: how a code point is named in messages. */
export function codePointLabel(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * The clause for an agent or a developer, after the pointer: what the character is, where, and
 * why it is refused — "contains a NUL character (U+0000) at character 4; Sess cannot store it".
 */
export function describeTextProblem(problem: TextProblem): string {
  return `contains ${NAMES[problem.kind]} (${codePointLabel(problem.codePoint)}) at character ${problem.position}; ${WHY[problem.kind]}`;
}
