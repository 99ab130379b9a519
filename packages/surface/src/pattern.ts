import { LIMITS, lengthOverLimit } from './limits.ts';

/** Why a field's `pattern` is refused, or `undefined` when it is usable. */
export type PatternProblem = { kind: 'length'; length: number } | { kind: 'syntax' } | { kind: 'nested_repeat' };

/**
 * Checks a field's `pattern` before it is stored: bounded in length, compiles as an ECMAScript
 * expression with the `u` flag, and has no repeated group that itself contains a repeat or an
 * alternation (`(a+)+`, `(a|aa)*`). That last rule is a heuristic against catastrophic
 * backtracking on a person's answer; Node has no regex timeout, so we refuse the usual culprits.
 */
export function checkPattern(pattern: string): PatternProblem | undefined {
  const length = lengthOverLimit(pattern, LIMITS.pattern);
  if (length !== undefined) return { kind: 'length', length };
  try {
    new RegExp(pattern, 'u');
  } catch {
    return { kind: 'syntax' };
  }
  return hasNestedRepeat(pattern) ? { kind: 'nested_repeat' } : undefined;
}

/** The compiled pattern. JSON Schema patterns are unanchored, so callers use `.test()`. */
export function compilePattern(pattern: string): RegExp {
  return new RegExp(pattern, 'u');
}

const UNBOUNDED_QUANTIFIER = /[*+]|\{\d+,\}/y;
const QUANTIFIER = /[*+?]|\{\d+(?:,\d*)?\}/y;

function quantifierAt(pattern: string, at: number, quantifier: RegExp): boolean {
  quantifier.lastIndex = at;
  return quantifier.test(pattern);
}

/** Index of the last character of the escape that starts at `at` (the backslash). */
function escapeEnd(pattern: string, at: number): number {
  const letter = pattern[at + 1];
  if ((letter === 'u' || letter === 'p' || letter === 'P') && pattern[at + 2] === '{') {
    const close = pattern.indexOf('}', at + 2);
    return close === -1 ? pattern.length - 1 : close;
  }
  return at + 1;
}

/** Index of the last character of a group's opening: `(`, `(?:`, `(?=`, `(?<=`, `(?<name>`... */
function groupOpenEnd(pattern: string, at: number): number {
  if (pattern[at + 1] !== '?') return at;
  if (pattern[at + 2] === '<' && pattern[at + 3] !== '=' && pattern[at + 3] !== '!') {
    const close = pattern.indexOf('>', at + 3);
    return close === -1 ? pattern.length - 1 : close;
  }
  return pattern[at + 2] === '<' ? at + 3 : at + 2;
}

function hasNestedRepeat(pattern: string): boolean {
  // One flag per open group: does it contain a quantifier or an alternation?
  const risky: boolean[] = [];
  const markInnermost = () => {
    if (risky.length > 0) risky[risky.length - 1] = true;
  };
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '\\') {
      i = escapeEnd(pattern, i);
      if (!inClass && quantifierAt(pattern, i + 1, QUANTIFIER)) markInnermost();
    } else if (inClass) {
      if (char === ']') {
        inClass = false;
        if (quantifierAt(pattern, i + 1, QUANTIFIER)) markInnermost();
      }
    } else if (char === '[') {
      inClass = true;
    } else if (char === '(') {
      risky.push(false);
      i = groupOpenEnd(pattern, i);
    } else if (char === '|') {
      markInnermost();
    } else if (char === ')') {
      const inner = risky.pop() ?? false;
      if (inner && quantifierAt(pattern, i + 1, UNBOUNDED_QUANTIFIER)) return true;
      if (inner || quantifierAt(pattern, i + 1, QUANTIFIER)) markInnermost();
    } else if (quantifierAt(pattern, i, QUANTIFIER)) {
      markInnermost();
    }
  }
  return false;
}
