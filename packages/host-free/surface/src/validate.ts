import { checkAudienceRules } from './assurance.ts';
import { checkSurface } from './check-surface.ts';
import { checkInteractionSize, checkRawInput } from './guard.ts';
import type { ArgumentIssue, Checked } from './issues.ts';
import { valueOrThrow } from './issues.ts';
import type { RequestArguments, Surface } from './schema.ts';
import { RequestArgumentsSchema, SurfaceSchema } from './schema.ts';
import { fromZodIssues } from './zod-issues.ts';

/*
 * Validation runs in phases, and a phase runs only when the ones before it found nothing,
 * because each relies on the last: (1) raw structure — unsafe keys, nesting, non-JSON values,
 * in document order; (2) the 32 KiB size; (3) the shape, by zod, in schema order; (4) the field
 * count, then lengths and rules in reading order (`check-surface.ts`). The first issue of that
 * sequence is the error; the collect functions return every issue of the phase that failed.
 */

function checkSurfaceAt(input: unknown, pointer: string): Checked<Surface> {
  const size = checkInteractionSize(input, pointer);
  if (size.length > 0) return { ok: false, issues: size };
  const parsed = SurfaceSchema.safeParse(input);
  if (!parsed.success) return { ok: false, issues: fromZodIssues(parsed.error.issues, input, pointer) };
  const issues = checkSurface(parsed.data, pointer);
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: parsed.data };
}

/**
 * Checks an interaction that sits at `pointer` in a tool's arguments (`/interaction` for
 * sess_request and sess_publish, `` for a bare interaction). Nesting is counted from the
 * arguments' root, so the same interaction has the same room wherever it is checked.
 */
export function checkSurfaceInput(input: unknown, pointer = ''): Checked<Surface> {
  const raw = checkRawInput(input, pointer);
  if (raw.length > 0) return { ok: false, issues: raw };
  return checkSurfaceAt(input, pointer);
}

/** All issues of the first failing phase (empty when the interaction is valid). */
export function collectSurfaceIssues(input: unknown, pointer = ''): ArgumentIssue[] {
  const checked = checkSurfaceInput(input, pointer);
  return checked.ok ? [] : checked.issues;
}

/**
 * The interaction, validated. Throws `INVALID_ARGUMENTS` (a `SessError` with `field`, and
 * `limit`/`length` where they apply) for the first issue. Nothing is ever truncated or dropped:
 * a valid input comes back deep-equal.
 */
export function parseSurface(input: unknown, pointer = ''): Surface {
  return valueOrThrow(checkSurfaceInput(input, pointer));
}

/** Checks sess_request's arguments (`interaction`, optional `expires_in`, `answer_in_chat`, `assurance`, `for`). */
export function checkRequestArguments(input: unknown): Checked<RequestArguments> {
  const raw = checkRawInput(input, '');
  if (raw.length > 0) return { ok: false, issues: raw };
  const interaction = input !== null && typeof input === 'object' ? (input as { interaction?: unknown }).interaction : undefined;
  if (interaction !== undefined) {
    const size = checkInteractionSize(interaction, '/interaction');
    if (size.length > 0) return { ok: false, issues: size };
  }
  const parsed = RequestArgumentsSchema.safeParse(input);
  if (!parsed.success) return { ok: false, issues: fromZodIssues(parsed.error.issues, input, '') };
  const issues = [...checkSurface(parsed.data.interaction, '/interaction'), ...checkAudienceRules(parsed.data)];
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: parsed.data };
}

/** All issues of the first failing phase of sess_request's arguments. */
export function collectRequestArgumentsIssues(input: unknown): ArgumentIssue[] {
  const checked = checkRequestArguments(input);
  return checked.ok ? [] : checked.issues;
}

/** sess_request's arguments, validated; throws `INVALID_ARGUMENTS` for the first issue. */
export function parseRequestArguments(input: unknown): RequestArguments {
  return valueOrThrow(checkRequestArguments(input));
}
