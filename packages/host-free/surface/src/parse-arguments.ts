import type { z } from 'zod';
import { checkRawInput } from './guard.ts';
import { toInvalidArguments } from './issues.ts';
import { fromZodIssues } from './zod-issues.ts';

/**
 * `input` parsed by a contract schema (a tool's arguments, a /v1 body), or its first problem as
 * `INVALID_ARGUMENTS` at its JSON pointer: unsafe keys, over-deep nesting and refused characters
 * first (the raw-input walk), then zod's issues in the schema's key order, unknown keys last — the
 * order the form's own parsers use. For small envelopes; a Surface goes through `parseSurface`,
 * which measures in code points and words the seed's errors.
 * @throws SessError `INVALID_ARGUMENTS`
 */
export function parseArguments<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const raw = checkRawInput(input, '');
  if (raw.length > 0) throw toInvalidArguments(raw[0]!);
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw toInvalidArguments(fromZodIssues(parsed.error.issues, input, '')[0]!);
}
