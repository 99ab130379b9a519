import { childPointer, toPointer } from '@sess/core';
import type { z } from 'zod';
import type { ArgumentIssue } from './issues.ts';
import { lengthIssue, pointerLabel } from './issues.ts';

type ZodIssue = z.ZodError['issues'][number];
type Path = ReadonlyArray<PropertyKey>;

const NOUNS: Record<string, string> = {
  actions: 'actions',
  fields: 'fields',
  enum: 'options',
  options: 'options',
  option_labels: 'labels',
};
const TOO_MANY_ADVICE: Record<string, string> = {
  actions: 'Keep one to five buttons.',
  fields: 'Ask fewer things at once, or ask the rest in a later step.',
  enum: 'Offer fewer options, or ask for text instead.',
  options: 'Offer fewer options, or ask for text instead.',
  option_labels: 'Give at most one label per enum ID.',
};

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  record: 'an object',
};

function valueAt(root: unknown, path: Path): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || typeof key === 'symbol') return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

function lastKey(path: Path): string {
  const key = path[path.length - 1];
  return typeof key === 'string' ? key : '';
}

/**
 * Turns zod's issues into argument issues in zod's order (the schema's key order, unknown keys
 * after the known ones), each with its pointer, and in words an agent can act on.
 */
export function fromZodIssues(issues: readonly ZodIssue[], input: unknown, base: string): ArgumentIssue[] {
  const out: ArgumentIssue[] = [];
  for (const issue of issues) {
    const field = base + toPointer(issue.path);
    const label = pointerLabel(field);
    const raw = valueAt(input, issue.path);
    switch (issue.code) {
      case 'unrecognized_keys':
        for (const key of issue.keys) {
          const child = childPointer(field, key);
          out.push({ field: child, message: `${child} is not a known property here. Remove it: this schema is closed.` });
        }
        break;
      case 'invalid_type':
        out.push({
          field,
          message:
            raw === undefined ? `${label} is required.` : `${label} must be ${TYPE_NAMES[issue.expected] ?? issue.expected}.`,
        });
        break;
      case 'invalid_union': {
        if (issue.discriminator !== undefined) {
          const options = ('options' in issue ? (issue.options ?? []) : []).map(String).join(', ');
          out.push({
            field,
            message: raw === undefined ? `${label} is required: one of ${options}.` : `${label} must be one of ${options}.`,
          });
        } else {
          const expected = issue.errors.flatMap((alternative) =>
            alternative.map((inner) => (inner.code === 'invalid_type' ? TYPE_NAMES[inner.expected] : undefined)),
          );
          const names = [...new Set(expected.filter((name) => name !== undefined))];
          out.push({ field, message: `${label} must be ${names.length > 0 ? names.join(', or ') : 'of an allowed shape'}.` });
        }
        break;
      }
      case 'invalid_value': {
        const values = issue.values.map((value) => JSON.stringify(value)).join(' or ');
        out.push({ field, message: raw === undefined ? `${label} is required: ${values}.` : `${label} must be ${values}.` });
        break;
      }
      case 'too_big':
        if (issue.origin === 'array' && Array.isArray(raw)) {
          const key = lastKey(issue.path);
          const limit = Number(issue.maximum);
          out.push({
            field,
            message: `${label} has ${raw.length} ${NOUNS[key] ?? 'items'}; the limit is ${limit}. ${TOO_MANY_ADVICE[key] ?? 'Remove some.'}`,
            limit,
            length: raw.length,
          });
        } else if (issue.origin === 'string' && typeof raw === 'string' && [...raw].length > Number(issue.maximum)) {
          // The seed's length error, in code points, with limit and length (zod counts UTF-16 units).
          out.push(lengthIssue(field, [...raw].length, Number(issue.maximum)));
        } else {
          out.push({ field, message: `${label} must be at most ${String(issue.maximum)}.`, limit: Number(issue.maximum) });
        }
        break;
      case 'too_small':
        if (issue.origin === 'array') {
          const key = lastKey(issue.path);
          const message =
            Number(issue.minimum) === 1
              ? `${label} must not be empty.`
              : `${label} must have at least ${String(issue.minimum)} ${NOUNS[key] ?? 'items'}.`;
          out.push({ field, message: key === 'actions' ? `${message} Leave actions out for one Submit button.` : message });
        } else if (issue.origin === 'string') {
          out.push({ field, message: `${label} must not be empty.` });
        } else {
          out.push({ field, message: `${label} must be at least ${String(issue.minimum)}.` });
        }
        break;
      case 'invalid_format':
        out.push({ field, message: `${label} ${issue.message}.` });
        break;
      case 'invalid_key':
        out.push({ field, message: `${label}: a key here must not be empty.` });
        break;
      default:
        out.push({ field, message: `${label} is not valid: ${issue.message}.` });
    }
  }
  return out;
}
