import { SessError } from '@sess/core';
import { LIMITS } from './limits.ts';

/**
 * One thing wrong with a tool's arguments. `field` is an RFC 6901 JSON pointer into the
 * arguments; `limit` and `length` come with every length error and every count error.
 */
export interface ArgumentIssue {
  field: string;
  message: string;
  limit?: number;
  length?: number;
}

/** Where a string sits, for the one message the seed words differently (the title). */
export type LengthKind = 'title' | 'other';

/**
 * The seed's length error. The title (and `sess_ask`'s `question`) has its own sentence;
 * everything else names its pointer.
 */
export function lengthIssue(field: string, length: number, limit: number, kind: LengthKind = 'other'): ArgumentIssue {
  const message =
    kind === 'title'
      ? `The title can be at most ${LIMITS.title} characters. Keep it to a short heading, about 40.`
      : `${field} is ${length} characters; the limit is ${limit}. Shorten it to at most ${limit} characters.`;
  return { field, message, limit, length };
}

/** How a pointer reads at the start of a sentence; the empty pointer is the whole arguments object. */
export function pointerLabel(field: string): string {
  return field === '' ? 'The arguments' : field;
}

/** The `INVALID_ARGUMENTS` error for an issue, with `field`, `limit` and `length` in its details. */
export function toInvalidArguments(issue: ArgumentIssue): SessError {
  const details: { field: string; limit?: number; length?: number } = { field: issue.field };
  if (issue.limit !== undefined) details.limit = issue.limit;
  if (issue.length !== undefined) details.length = issue.length;
  return new SessError('INVALID_ARGUMENTS', issue.message, details);
}

/** Result of a validation: the parsed value (deep-equal to the input) or the issues found (never empty). */
export type Checked<T> = { ok: true; value: T } | { ok: false; issues: ArgumentIssue[] };

/** The value, or the first issue thrown as `INVALID_ARGUMENTS`. Issues come in a documented order, so "first" is stable. */
export function valueOrThrow<T>(checked: Checked<T>): T {
  if (checked.ok) return checked.value;
  throw toInvalidArguments(checked.issues[0]!);
}
