import { checkRawInput, fromZodIssues, toInvalidArguments } from '@sess/surface';
import type { z } from 'zod';

/*
 * The small tools' arguments (sess_response, sess_publish's envelope, sess_complete, sess_list,
 * sess_cancel) are checked against the contract's own schemas, the ones tools/list serves, so
 * each rule is written once. The create tools use @sess/surface's parsers.
 */

/**
 * `input` parsed by `schema`, or the first problem as INVALID_ARGUMENTS with its JSON pointer:
 * unsafe keys and over-deep nesting first (@sess/surface's raw-input walk), then zod's issues in
 * the schema's key order, unknown keys last — the order @sess/surface uses for the forms.
 */
export function parseToolArguments<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const raw = checkRawInput(input, '');
  if (raw.length > 0) throw toInvalidArguments(raw[0]!);
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw toInvalidArguments(fromZodIssues(parsed.error.issues, input, '')[0]!);
}
