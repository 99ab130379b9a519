import { RE2JS } from 're2js';
import { LIMITS, lengthOverLimit, STRUCTURE_LIMITS } from './limits.ts';

/*
 * A field's `pattern` is written by an agent and run against a person's answer on the server, so
 * it is matched by RE2 (re2js: linear in the answer's length, never backtracking) — never by the
 * ECMAScript engine, which can take hours on `a*a*c`-like patterns and has no timeout. A pattern
 * must be valid in both syntaxes (JSON Schema names ECMAScript; RE2 is what runs): that common
 * subset covers what forms need (classes, \d \w \s \b, \p{L}, groups, alternation, counted
 * repeats, ^ $) and leaves out backreferences and lookaround, which RE2 cannot run in linear time.
 * `\uXXXX` and `\u{X}` are ECMAScript spellings that RE2 writes `\x{X}`; they are rewritten.
 *
 * "Linear" has a factor: the size of the compiled program. A counted repeat copies its atom
 * (`\p{L}{1000}` is 1,000 instructions), and an answer built to make the DFA visit a new state at
 * every character costs about that much per character; past a size the DFA runs out of memory and
 * the NFA takes over, slower still (bench/surface/patterns.ts). So the program is held to
 * `STRUCTURE_LIMITS.patternProgram` instructions — estimated first, so that a pattern built to be
 * costly to compile is refused without being compiled, then counted exactly.
 */

/** Why a field's `pattern` is refused, or `undefined` when it is usable. */
export type PatternProblem =
  | { kind: 'length'; length: number }
  | { kind: 'syntax' }
  | { kind: 'unsupported'; feature: string }
  | { kind: 'too_complex' };

/** A checked pattern, ready to test answers (unanchored, as JSON Schema says). */
export interface CompiledPattern {
  test(value: string): boolean;
}

type Checked = { ok: true; compiled: CompiledPattern } | { ok: false; problem: PatternProblem };

/*
 * Each compiled pattern keeps its lazy DFA's states (up to RE2's 8 MB budget; about 2 MB of heap
 * when an answer is built to visit new states at every character), so the cache is small.
 */
const CACHE_SIZE = 64;
const cache = new Map<string, Checked>();

/**
 * Checks a field's `pattern` before it is stored: at most `LIMITS.pattern` characters, valid as
 * an ECMAScript expression with the `u` flag, runnable by RE2, and a compiled program within its
 * bound. Results are cached per pattern text (least recently used out first).
 */
export function checkPattern(pattern: string): PatternProblem | undefined {
  const checked = checkCached(pattern);
  return checked.ok ? undefined : checked.problem;
}

/**
 * The pattern as RE2 runs it. A pattern stored before RE2 checked patterns (a lookahead, say) and
 * that RE2 cannot run is not enforced: running it on the ECMAScript engine could freeze the process.
 */
export function compilePattern(pattern: string): CompiledPattern {
  const checked = checkCached(pattern);
  return checked.ok ? checked.compiled : MATCHES_EVERYTHING;
}

const MATCHES_EVERYTHING: CompiledPattern = { test: () => true };

function checkCached(pattern: string): Checked {
  const hit = cache.get(pattern);
  if (hit) {
    cache.delete(pattern);
    cache.set(pattern, hit);
    return hit;
  }
  const checked = checkUncached(pattern);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(pattern, checked);
  return checked;
}

function checkUncached(pattern: string): Checked {
  const length = lengthOverLimit(pattern, LIMITS.pattern);
  if (length !== undefined) return { ok: false, problem: { kind: 'length', length } };
  try {
    new RegExp(pattern, 'u');
  } catch {
    return { ok: false, problem: { kind: 'syntax' } };
  }
  const scan = scanPattern(pattern);
  if (scan.unsupported) return { ok: false, problem: { kind: 'unsupported', feature: scan.unsupported } };
  if (scan.estimatedSize > STRUCTURE_LIMITS.patternProgram * 2) return { ok: false, problem: { kind: 'too_complex' } };
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(scan.re2);
  } catch {
    return { ok: false, problem: { kind: 'unsupported', feature: 'syntax that RE2 does not accept' } };
  }
  if (compiled.programSize() > STRUCTURE_LIMITS.patternProgram) return { ok: false, problem: { kind: 'too_complex' } };
  // re2js runs a pattern anchored with ^ on its one-pass engine, which is 4-6 times slower per
  // character than its lazy DFA when all we ask is yes or no (bench/surface/patterns.ts). Without
  // the one-pass program, `test` takes the DFA (then, if the DFA runs out of memory, the NFA),
  // with the same answers. re2js is pinned to the exact version this was measured on.
  (compiled.re2() as { onepass: unknown }).onepass = null;
  return { ok: true, compiled: { test: (value) => compiled.test(value) } };
}

interface Scan {
  /** The same expression in RE2's spelling. */
  re2: string;
  /** A feature RE2 cannot run, named for the agent. */
  unsupported?: string;
  /** Roughly how many instructions the compiled program has: counted repeats multiply. */
  estimatedSize: number;
}

const HEX_ESCAPE = /^u([0-9a-fA-F]{4})|^u\{([0-9a-fA-F]+)\}/;
const COUNTED_REPEAT = /^\{(\d+)(,(\d*))?\}/;
/** `(`, `(?:`, `(?<name>` or a lookaround's opening: what is copied before the group's content. */
const GROUP_OPENING = /^\((?:\?(?::|=|!|<=|<!|<[^>]*>))?/;
const LOOKAROUND = /^\(\?(?:=|!|<=|<!)/;

/** One element of a sequence: its estimated size, and whether a quantifier may follow it. */
interface Group {
  /** Sizes of the alternatives closed so far. */
  alternatives: number[];
  /** Size of the current alternative, and of its last element (which a quantifier multiplies). */
  sequence: number;
  last: number;
}

/**
 * One left-to-right walk over a pattern already known to be valid ECMAScript: rewrites the
 * `\u` escapes, names what RE2 cannot run, and estimates the program size.
 */
function scanPattern(pattern: string): Scan {
  let re2 = '';
  let unsupported: string | undefined;
  const stack: Group[] = [{ alternatives: [], sequence: 0, last: 0 }];
  const top = () => stack[stack.length - 1]!;
  const atom = (size = 1) => {
    top().sequence += size;
    top().last = size;
  };
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '\\') {
      const rest = pattern.slice(i + 1);
      const hex = HEX_ESCAPE.exec(rest);
      if (hex) {
        re2 += `\\x{${hex[1] ?? hex[2]}}`;
        i += hex[0].length;
      } else {
        const next = rest[0] ?? '';
        if (/[1-9]/.test(next) || next === 'k') unsupported ??= 'a backreference (\\1, \\k<name>)';
        if ((next === 'p' || next === 'P') && /^.\{[^}]*=/.test(rest)) {
          unsupported ??=
            'a Unicode property with a value (\\p{Script=…}); only categories such as \\p{L} and \\p{Lu} are supported';
        }
        const end = (next === 'p' || next === 'P') && rest[1] === '{' ? rest.indexOf('}') + 1 : 1;
        re2 += `\\${rest.slice(0, end)}`;
        i += end;
      }
      if (!inClass) atom();
      continue;
    }
    re2 += char;
    if (inClass) {
      if (char === ']') {
        inClass = false;
        atom();
      }
      continue;
    }
    if (char === '[') {
      inClass = true;
      if (pattern[i + 1] === '^') re2 += pattern[++i];
      // A `]` first in a class is a literal in RE2 but an empty class in ECMAScript: the two disagree.
      if (pattern[i + 1] === ']') unsupported ??= 'an empty character class ([] or [^])';
    } else if (char === '(') {
      const opening = GROUP_OPENING.exec(pattern.slice(i))![0];
      if (LOOKAROUND.test(opening)) unsupported ??= 'a lookahead or lookbehind ((?=, (?!, (?<=, (?<!)';
      re2 += opening.slice(1);
      i += opening.length - 1;
      stack.push({ alternatives: [], sequence: 0, last: 0 });
    } else if (char === ')') {
      const group = stack.length > 1 ? stack.pop()! : top();
      atom(group.alternatives.reduce((sum, size) => sum + size, group.sequence) + 1);
    } else if (char === '|') {
      top().alternatives.push(top().sequence);
      top().sequence = 0;
      top().last = 0;
    } else if (char === '{') {
      const repeat = COUNTED_REPEAT.exec(pattern.slice(i));
      if (repeat) {
        const low = Number(repeat[1]);
        const high = repeat[2] === undefined ? low : repeat[3] === '' ? low + 1 : Number(repeat[3]);
        const group = top();
        group.sequence += group.last * (Math.max(high, 1) - 1) + 1;
        group.last = 0;
        re2 += repeat[0].slice(1);
        i += repeat[0].length - 1;
      } else atom();
    } else if (char === '*' || char === '+' || char === '?') {
      top().sequence += 1;
    } else {
      // An astral character is two UTF-16 units and one instruction.
      if (/[\uD800-\uDBFF]/.test(char) && /[\uDC00-\uDFFF]/.test(pattern[i + 1] ?? '')) re2 += pattern[++i];
      atom();
    }
  }
  const root = stack[0]!;
  const estimatedSize = root.alternatives.reduce((sum, size) => sum + size, root.sequence) + 2;
  return unsupported ? { re2, unsupported, estimatedSize } : { re2, estimatedSize };
}
