import { codePointLabel, findTextProblem, type TextProblem } from '@sess/core';
import type { Action, FieldComponent, FieldType, Surface } from './schema.ts';
import { resolveActions } from './schema.ts';
import type { ValueProblem } from './value-check.ts';
import { checkTypedValue } from './value-check.ts';

/** One answer value: text or a choice ID, a number, a boolean, or the IDs of a multi-choice. */
export type AnswerValue = string | number | boolean | string[];

/** What the answer page (or the /v1 API) received: the button pressed and the field values. */
export interface SubmittedAnswer {
  /** The action `id`. May be left out only when the form has exactly one button. */
  actionId?: string | undefined;
  /** Field name → value, JSON-typed or as an HTML form posts it (strings, string lists). */
  values: Record<string, unknown>;
}

/** Error codes of an answer, one per rule; the page branches on these, never on the message. */
export type AnswerErrorCode =
  | 'required'
  | 'type'
  | 'enum'
  | 'duplicate'
  | 'too_short'
  | 'too_long'
  | 'too_small'
  | 'too_big'
  | 'too_few'
  | 'too_many'
  | 'pattern'
  | 'format'
  | 'character'
  | 'unknown_field'
  | 'unknown_action'
  | 'action_required';

/**
 * The values a page needs to say an error in any language (the English `message` stays for
 * agents): a limit and the length found, the type or format expected, a refused character.
 */
export interface AnswerErrorParams {
  limit?: number;
  length?: number;
  expected?: 'text' | 'number' | 'integer' | 'boolean' | 'list';
  format?: string;
  /** For `character`: `control` (NUL or another control character) or `unstorable`, its label (`U+0000`) and 1-based position. */
  kind?: 'control' | 'unstorable';
  codePoint?: string;
  position?: number;
}

/** An error for the person: `field` is the field's name, or `null` for the form as a whole (the button). */
export interface AnswerError {
  field: string | null;
  code: AnswerErrorCode;
  message: string;
  /** What the message says in numbers and names, for a page in another language. */
  params?: AnswerErrorParams;
}

/** An accepted answer: typed values by field name and the chosen action's id. */
export interface AcceptedAnswer {
  actionId: string;
  values: Record<string, AnswerValue>;
}

export type AnswerResult = ({ ok: true } & AcceptedAnswer) | { ok: false; errors: AnswerError[] };

const NO_ANSWER = Symbol('no answer');
/** What is wrong with an answer: a rule of its schema, or a character Sess refuses in a person's text. */
type AnswerProblem = ValueProblem | { code: 'character'; problem: TextProblem };
type Parsed = { value: AnswerValue | typeof NO_ANSWER } | { problem: AnswerProblem };

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const TRUE_STRINGS = new Set(['on', 'true']);

/** Turns a submitted value (typed or a form string) into the field's type, or says it is empty. */
function parseSubmitted(schema: FieldType, raw: unknown): Parsed {
  switch (schema.type) {
    case 'string':
      if (raw === undefined || raw === null || raw === '') return { value: NO_ANSWER };
      if (typeof raw !== 'string') return { problem: { code: 'type', expected: 'text' } };
      {
        // A person's own text may hold bidirectional controls (pasted right-to-left text); the
        // pages isolate it. What PostgreSQL cannot store, or a page cannot show, is refused.
        const problem = findTextProblem(raw, { allowBidiControls: true });
        if (problem) return { problem: { code: 'character', problem } };
      }
      // Browsers send a textarea's line breaks as CRLF; the agent gets \n.
      return { value: schema.enum === undefined ? raw.replace(/\r\n?/g, '\n') : raw };
    case 'number':
    case 'integer': {
      if (raw === undefined || raw === null || raw === '') return { value: NO_ANSWER };
      if (typeof raw === 'number') return { value: raw };
      if (typeof raw !== 'string') return { problem: { code: 'type', expected: schema.type } };
      const text = raw.trim();
      if (text === '') return { value: NO_ANSWER };
      return NUMBER.test(text) ? { value: Number(text) } : { problem: { code: 'type', expected: schema.type } };
    }
    case 'boolean':
      // A checkbox posts "on" when checked and nothing when not, so absent is false.
      if (raw === undefined || raw === null || raw === false || raw === 'false' || raw === '') return { value: false };
      if (raw === true || (typeof raw === 'string' && TRUE_STRINGS.has(raw))) return { value: true };
      return { problem: { code: 'type', expected: 'boolean' } };
    case 'array': {
      if (raw === undefined || raw === null || raw === '') return { value: NO_ANSWER };
      // A form with one box checked posts a single string.
      const list: unknown = typeof raw === 'string' ? [raw] : raw;
      if (!Array.isArray(list) || !list.every((item) => typeof item === 'string'))
        return { problem: { code: 'type', expected: 'list' } };
      return list.length === 0 ? { value: NO_ANSWER } : { value: list };
    }
  }
}

const TYPE_MESSAGES: Record<string, string> = {
  text: 'Enter text.',
  number: 'Enter a number.',
  integer: 'Enter a whole number.',
  boolean: 'Check the box or leave it empty.',
  list: 'Choose from the options.',
};
const FORMAT_MESSAGES: Record<string, string> = {
  email: 'Enter an email address, like name@example.com.',
  uri: 'Enter a full web address, like https://example.com.',
  date: 'Enter a date, like 2025-06-30.',
  'date-time': 'Enter a date and time, like 2025-06-30T14:30.',
  time: 'Enter a time, like 14:30.',
};

/** Words for the person, in the page's voice. */
function personMessage(problem: AnswerProblem): string {
  switch (problem.code) {
    case 'type':
      return TYPE_MESSAGES[problem.expected] ?? 'Enter a valid value.';
    case 'enum':
      return 'Choose one of the options.';
    case 'duplicate':
      return 'Choose each option only once.';
    case 'too_short':
      return `Enter at least ${problem.limit} characters (this has ${problem.length}).`;
    case 'too_long':
      return `Enter at most ${problem.limit} characters (this has ${problem.length}).`;
    case 'too_small':
      return `Enter ${problem.limit} or more.`;
    case 'too_big':
      return `Enter ${problem.limit} or less.`;
    case 'too_few':
      return `Choose at least ${problem.limit}.`;
    case 'too_many':
      return `Choose at most ${problem.limit}.`;
    case 'pattern':
      return 'Enter it in the form asked for.';
    case 'format':
      return FORMAT_MESSAGES[problem.format] ?? 'Enter a valid value.';
    case 'character': {
      const { kind, codePoint, position } = problem.problem;
      const what = kind === 'nul' || kind === 'control' ? 'an invisible control character' : "a character that can't be saved";
      return `This has ${what} (${codePointLabel(codePoint)}) at character ${position}. Remove it and send again.`;
    }
  }
}

function chooseAction(surface: Surface, actionId: string | undefined): { action: Action } | { error: AnswerError } {
  const actions = resolveActions(surface);
  if (actionId === undefined || actionId === '') {
    if (actions.length === 1) return { action: actions[0]! };
    return { error: { field: null, code: 'action_required', message: 'Choose one of the buttons.' } };
  }
  const action = actions.find((candidate) => candidate.id === actionId);
  if (action) return { action };
  return {
    error: { field: null, code: 'unknown_action', message: 'That button is not on this form. Reload the page and try again.' },
  };
}

/**
 * Checks a person's answer against the surface they were shown. Pure: an answer that fails
 * changes nothing. Values are typed by the field's schema (numbers parsed from form strings,
 * a checkbox's "on" or absence as a boolean, one or many strings for a multi-choice); an empty
 * answer ("" or no value, or no choice) is left out of `values`, except a boolean, which is
 * always there. A required field needs an answer unless the chosen action's intent is `reject`
 * (a person may stop without filling in the form); any value given is still checked, since it
 * goes back to the agent typed. Multi-choice values come back in enum order. Unknown fields and
 * unknown buttons are refused. Errors come button first, then fields in form order, then
 * unknown fields in the order submitted.
 */
export function validateAnswer(surface: Surface, submitted: SubmittedAnswer): AnswerResult {
  const errors: AnswerError[] = [];
  const chosen = chooseAction(surface, submitted.actionId);
  if ('error' in chosen) errors.push(chosen.error);
  const mayLeaveEmpty = 'action' in chosen && chosen.action.intent === 'reject';

  const given: Record<string, unknown> =
    submitted.values !== null && typeof submitted.values === 'object' && !Array.isArray(submitted.values) ? submitted.values : {};
  const values: Record<string, AnswerValue> = {};
  const known = new Set<string>();

  for (const component of surface.source.components) {
    if (component.type !== 'field') continue;
    known.add(component.name);
    const raw = Object.hasOwn(given, component.name) ? given[component.name] : undefined;
    const outcome = checkField(component, raw, mayLeaveEmpty);
    if ('error' in outcome) errors.push(outcome.error);
    else if (outcome.value !== NO_ANSWER) values[component.name] = outcome.value;
  }
  for (const name of Object.keys(given)) {
    if (!known.has(name))
      errors.push({ field: name, code: 'unknown_field', message: 'This form has no such field. Reload the page and try again.' });
  }

  if (errors.length > 0 || !('action' in chosen)) return { ok: false, errors };
  return { ok: true, actionId: chosen.action.id, values };
}

function checkField(
  field: FieldComponent,
  raw: unknown,
  mayLeaveEmpty: boolean,
): { value: AnswerValue | typeof NO_ANSWER } | { error: AnswerError } {
  const parsed = parseSubmitted(field.schema, raw);
  if ('problem' in parsed) return { error: fieldError(field, parsed.problem) };
  const value = parsed.value;
  if (value === NO_ANSWER) {
    if (field.required !== false && !mayLeaveEmpty)
      return { error: { field: field.name, code: 'required', message: 'Answer this to continue.' } };
    return { value };
  }
  const problem = checkTypedValue(field.schema, value);
  if (problem) return { error: fieldError(field, problem) };
  if (field.schema.type === 'array' && Array.isArray(value)) {
    const order = field.schema.items.enum;
    return { value: [...value].sort((a, b) => order.indexOf(a) - order.indexOf(b)) };
  }
  return { value };
}

/** The numbers and names of a problem, for a page to say it in the person's language. */
function paramsOf(problem: AnswerProblem): AnswerErrorParams | undefined {
  switch (problem.code) {
    case 'type':
      return { expected: problem.expected };
    case 'format':
      return { format: problem.format };
    case 'too_short':
    case 'too_long':
    case 'too_few':
    case 'too_many':
      return { limit: problem.limit, length: problem.length };
    case 'too_small':
    case 'too_big':
      return { limit: problem.limit };
    case 'character': {
      const { kind, codePoint, position } = problem.problem;
      return {
        kind: kind === 'nul' || kind === 'control' ? 'control' : 'unstorable',
        codePoint: codePointLabel(codePoint),
        position,
      };
    }
    case 'enum':
    case 'duplicate':
    case 'pattern':
      return undefined;
  }
}

function fieldError(field: FieldComponent, problem: AnswerProblem): AnswerError {
  const params = paramsOf(problem);
  return { field: field.name, code: problem.code, message: personMessage(problem), ...(params ? { params } : {}) };
}
