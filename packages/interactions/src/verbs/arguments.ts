import { childPointer, SessError } from '@sess/core';
import { checkRawInput, toInvalidArguments } from '@sess/surface';

/*
 * Argument checks for the small tools (sess_response, sess_publish's envelope, sess_complete,
 * sess_list, sess_cancel). The create tools use @sess/surface's own parsers. Every refusal is
 * INVALID_ARGUMENTS with a JSON pointer, in the schema's key order, unknown keys last — the same
 * order @sess/surface uses.
 */

type Rule =
  | { type: 'string'; required?: boolean; maxLength: number }
  | { type: 'integer'; required?: boolean; minimum: number; maximum?: number }
  | { type: 'enum'; required?: boolean; values: readonly string[] }
  | { type: 'any'; required?: boolean };

export type ArgumentRules = Record<string, Rule>;

function invalid(field: string, message: string, extra: { limit?: number; length?: number } = {}): SessError {
  return new SessError('INVALID_ARGUMENTS', message, { field, ...extra });
}

/**
 * Checks `input` against `rules` and returns it typed. Unsafe keys and over-deep nesting are
 * refused first (by @sess/surface's raw-input walk), then each known key, then unknown keys.
 */
export function checkArguments<T>(input: unknown, rules: ArgumentRules): T {
  const raw = checkRawInput(input, '');
  if (raw.length > 0) throw toInvalidArguments(raw[0]!);
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw invalid('', 'The arguments must be an object.');
  }
  const args = input as Record<string, unknown>;
  for (const [key, rule] of Object.entries(rules)) {
    const field = childPointer('', key);
    const value = args[key];
    if (value === undefined) {
      if (rule.required) throw invalid(field, `${field} is required.`);
      continue;
    }
    switch (rule.type) {
      case 'string':
        if (typeof value !== 'string' || value.length === 0) throw invalid(field, `${field} must be a non-empty string.`);
        if (value.length > rule.maxLength)
          throw invalid(field, `${field} is ${value.length} characters; the limit is ${rule.maxLength}.`, {
            limit: rule.maxLength,
            length: value.length,
          });
        break;
      case 'integer':
        if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw invalid(field, `${field} must be a whole number.`);
        if (value < rule.minimum) throw invalid(field, `${field} must be at least ${rule.minimum}.`, { limit: rule.minimum });
        if (rule.maximum !== undefined && value > rule.maximum)
          throw invalid(field, `${field} must be at most ${rule.maximum}.`, { limit: rule.maximum });
        break;
      case 'enum':
        if (typeof value !== 'string' || !rule.values.includes(value))
          throw invalid(field, `${field} must be one of ${rule.values.join(', ')}.`);
        break;
      case 'any':
        break;
    }
  }
  for (const key of Object.keys(args)) {
    if (!(key in rules)) {
      const field = childPointer('', key);
      throw invalid(field, `${field} is not a known property here. Remove it: this schema is closed.`);
    }
  }
  return args as T;
}
