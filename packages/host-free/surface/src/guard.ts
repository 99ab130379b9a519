import { describeTextProblem, findTextProblem, toPointer } from '@sess/core';
import type { ArgumentIssue } from './issues.ts';
import { pointerLabel } from './issues.ts';
import { STRUCTURE_LIMITS } from './limits.ts';

/** Keys that could reach an object's prototype when copied; refused at any depth. */
export const UNSAFE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Nesting level of the value at `pointer`: the arguments object is level 1, `/interaction` level 2. */
export function depthOf(pointer: string): number {
  if (pointer === '') return 1;
  let depth = 1;
  for (let i = 0; i < pointer.length; i++) if (pointer.charCodeAt(i) === 0x2f) depth++;
  return depth;
}

/**
 * Structural checks on the raw input, before zod sees it: zod would silently drop a
 * `__proto__` key that `JSON.parse` made an own property, and a deeply nested value would cost
 * a stack before it is refused. One depth-first walk in document order finds unsafe keys,
 * nesting deeper than 8 levels, values that JSON cannot carry, and strings or keys holding a
 * character Sess refuses (NUL, an unpaired surrogate, a control or bidirectional control
 * character, a noncharacter: `findTextProblem` in core). It does not descend below an offending
 * node, so a cyclic object ends at the nesting limit.
 */
export function checkRawInput(value: unknown, pointer = ''): ArgumentIssue[] {
  const issues: ArgumentIssue[] = [];
  visit(value, pointer, [], depthOf(pointer), issues);
  return issues;
}

// The path is kept as tokens and turned into a pointer only when there is something to report:
// most inputs are clean, and building a pointer per node would be most of the walk's cost.
function visit(value: unknown, base: string, path: (string | number)[], depth: number, issues: ArgumentIssue[]): void {
  if (value === null) return;
  const kind = typeof value;
  if (kind === 'bigint' || kind === 'function' || kind === 'symbol') {
    const field = base + toPointer(path);
    issues.push({
      field,
      message: `${pointerLabel(field)} is not a JSON value. Send strings, numbers, booleans, arrays and objects only.`,
    });
    return;
  }
  if (kind === 'string') {
    const problem = findTextProblem(value as string);
    if (problem) {
      const field = base + toPointer(path);
      issues.push({ field, message: `${pointerLabel(field)} ${describeTextProblem(problem)}. Remove it.` });
    }
    return;
  }
  if (kind !== 'object') return;
  if (depth > STRUCTURE_LIMITS.nesting) {
    const field = base + toPointer(path);
    issues.push({
      field,
      message: `${pointerLabel(field)} is nested more than ${STRUCTURE_LIMITS.nesting} levels deep. Remove the extra level; the form never needs more.`,
      limit: STRUCTURE_LIMITS.nesting,
      length: depth,
    });
    return;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      visit(value[i], base, path, depth + 1, issues);
      path.pop();
    }
    return;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const keyProblem = findTextProblem(key);
    if (keyProblem) {
      // The key itself cannot be named in a pointer that is safe to send back, so its object is.
      const field = base + toPointer(path);
      issues.push({ field, message: `${pointerLabel(field)} has a key that ${describeTextProblem(keyProblem)}. Remove it.` });
      continue;
    }
    path.push(key);
    if (UNSAFE_KEYS.has(key)) {
      const field = base + toPointer(path);
      issues.push({
        field,
        message: `${field} is not allowed: the keys __proto__, constructor and prototype are never accepted. Remove it.`,
      });
    } else {
      visit(record[key], base, path, depth + 1, issues);
    }
    path.pop();
  }
}

/** UTF-8 bytes of `JSON.stringify(value)`: the size the 32 KiB interaction limit is measured in. */
export function jsonByteLength(value: unknown): number {
  const text = JSON.stringify(value);
  return text === undefined ? 0 : Buffer.byteLength(text, 'utf8');
}

/** The 32 KiB limit on one interaction, named at `pointer`. */
export function checkInteractionSize(value: unknown, pointer: string, what = 'The interaction'): ArgumentIssue[] {
  const length = jsonByteLength(value);
  const limit = STRUCTURE_LIMITS.interactionBytes;
  if (length <= limit) return [];
  return [
    {
      field: pointer,
      message: `${what} is ${length} bytes of JSON; the limit is ${limit} (32 KiB). Shorten texts and records, or show part of it in a later step.`,
      limit,
      length,
    },
  ];
}
