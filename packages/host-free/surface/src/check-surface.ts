import { childPointer } from '@sess/core';
import { UNSAFE_KEYS } from './guard.ts';
import type { ArgumentIssue, LengthKind } from './issues.ts';
import { lengthIssue } from './issues.ts';
import { LIMITS, lengthOverLimit, STRUCTURE_LIMITS } from './limits.ts';
import { checkPattern, type PatternProblem } from './pattern.ts';
import type { FieldComponent, FieldType, StringType, Surface } from './schema.ts';
import type { ValueProblem } from './value-check.ts';
import { checkTypedValue } from './value-check.ts';

/** Pushes the seed's length error when `text` is over `limit` code points. */
export function checkLength(
  issues: ArgumentIssue[],
  text: string,
  field: string,
  limit: number,
  kind: LengthKind = 'other',
): void {
  const length = lengthOverLimit(text, limit);
  if (length !== undefined) issues.push(lengthIssue(field, length, limit, kind));
}

/**
 * The rules of a field's name, for an interaction's fields and sess_ask's alike: its length, not
 * a reserved word, and not a name already taken. `names` holds the names taken so far (the name
 * is added to it); `kept` maps a name the form keeps for itself to what it is kept for, said
 * instead when that name is taken. `at` is the field's pointer.
 */
export function checkFieldName(
  issues: ArgumentIssue[],
  name: string,
  at: string,
  names: Set<string>,
  kept: ReadonlyMap<string, string> = new Map(),
): void {
  const pointer = `${at}/name`;
  checkLength(issues, name, pointer, LIMITS.name);
  const keptFor = kept.get(name);
  if (UNSAFE_KEYS.has(name)) {
    issues.push({ field: pointer, message: `${pointer} cannot be "${name}": it is a reserved word. Choose another name.` });
  } else if (keptFor !== undefined && names.has(name)) {
    issues.push({ field: pointer, message: `${pointer} "${name}" is reserved for ${keptFor}. Choose another name.` });
  } else if (names.has(name)) {
    issues.push({
      field: pointer,
      message: `${pointer} "${name}" is already used by an earlier field. Give each field its own name.`,
    });
  }
  names.add(name);
}

/**
 * The checks zod cannot express, on a surface that already has the right shape: the field
 * count, then one walk in reading order (title, description, each component, each action),
 * where each element's lengths come before its rules. `base` is the surface's pointer.
 */
export function checkSurface(surface: Surface, base: string): ArgumentIssue[] {
  const issues: ArgumentIssue[] = [];
  const componentsPointer = `${base}/source/components`;
  const components = surface.source.components;

  let fieldCount = 0;
  for (const component of components) if (component.type === 'field') fieldCount++;
  if (fieldCount > STRUCTURE_LIMITS.fields) {
    issues.push({
      field: componentsPointer,
      message: `${componentsPointer} has ${fieldCount} fields; the limit is ${STRUCTURE_LIMITS.fields}. Ask fewer things at once, or ask the rest in a later step.`,
      limit: STRUCTURE_LIMITS.fields,
      length: fieldCount,
    });
  }

  checkLength(issues, surface.title, `${base}/title`, LIMITS.title, 'title');
  if (surface.description !== undefined) checkLength(issues, surface.description, `${base}/description`, LIMITS.description);

  const names = new Set<string>();
  for (let i = 0; i < components.length; i++) {
    const component = components[i]!;
    const at = `${componentsPointer}/${i}`;
    switch (component.type) {
      case 'heading':
        checkLength(issues, component.text, `${at}/text`, LIMITS.heading);
        break;
      case 'text':
        checkLength(issues, component.text, `${at}/text`, LIMITS.text);
        break;
      case 'record': {
        checkLength(issues, component.label, `${at}/label`, LIMITS.recordLabel);
        const keys = Object.keys(component.fields);
        if (keys.length === 0) {
          issues.push({
            field: `${at}/fields`,
            message: `${at}/fields is empty. Give at least one key and value, or leave the record out.`,
          });
        }
        for (const key of keys) {
          // The seed names a record entry by a pointer ending with its key, for the key and its value alike.
          const entry = childPointer(`${at}/fields`, key);
          checkLength(issues, key, entry, LIMITS.recordKey);
          checkLength(issues, component.fields[key]!, entry, LIMITS.recordValue);
        }
        break;
      }
      case 'field':
        checkField(issues, component, at, names);
        break;
    }
  }

  const actionIds = new Set<string>();
  const actions = surface.actions ?? [];
  for (let i = 0; i < actions.length; i++) {
    const action = actions[i]!;
    const at = `${base}/actions/${i}`;
    checkLength(issues, action.id, `${at}/id`, LIMITS.name);
    checkLength(issues, action.label, `${at}/label`, LIMITS.button);
    if (actionIds.has(action.id))
      issues.push({
        field: `${at}/id`,
        message: `${at}/id "${action.id}" is already used by an earlier action. Give each action its own id.`,
      });
    actionIds.add(action.id);
  }
  return issues;
}

function checkField(issues: ArgumentIssue[], field: FieldComponent, at: string, names: Set<string>): void {
  checkFieldName(issues, field.name, at, names);
  checkLength(issues, field.label, `${at}/label`, LIMITS.label);
  if (field.description !== undefined) checkLength(issues, field.description, `${at}/description`, LIMITS.help);

  const before = issues.length;
  checkFieldType(issues, field.schema, `${at}/schema`);
  const isText = field.schema.type === 'string' && field.schema.enum === undefined;
  if (field.multiline !== undefined && !isText) {
    issues.push({
      field: `${at}/multiline`,
      message: `${at}/multiline applies only to a text field (a string schema without enum). Remove it.`,
    });
  }
  // An initial value is only judged against a schema that is itself sound.
  if (field.value !== undefined && issues.length === before) {
    const problem = checkTypedValue(field.schema, field.value);
    if (problem) issues.push(initialValueIssue(problem, `${at}/value`));
  }
}

function checkFieldType(issues: ArgumentIssue[], schema: FieldType, at: string): void {
  switch (schema.type) {
    case 'string':
      if (schema.enum !== undefined) {
        for (const key of ['minLength', 'maxLength', 'pattern', 'format'] as const) {
          if (schema[key] !== undefined)
            issues.push({
              field: `${at}/${key}`,
              message: `${at}/${key} does not apply to a choice (a schema with enum). Remove it.`,
            });
        }
        checkOptions(issues, schema.enum, schema.option_labels, at);
      } else {
        if (schema.option_labels !== undefined) {
          issues.push({
            field: `${at}/option_labels`,
            message: `${at}/option_labels needs enum: give the option IDs in enum, or remove option_labels.`,
          });
        }
        checkTextType(issues, schema, at);
      }
      break;
    case 'number':
    case 'integer':
      if (schema.minimum !== undefined && schema.maximum !== undefined && schema.minimum > schema.maximum) {
        issues.push({
          field: `${at}/minimum`,
          message: `${at}/minimum is more than maximum; no answer could fit. Swap or fix them.`,
        });
      }
      break;
    case 'boolean':
      break;
    case 'array': {
      checkOptions(issues, schema.items.enum, schema.items.option_labels, `${at}/items`);
      const options = schema.items.enum.length;
      if (schema.minItems !== undefined && schema.minItems > options) {
        issues.push({
          field: `${at}/minItems`,
          message: `${at}/minItems is ${schema.minItems}, but there are only ${options} options. Lower it.`,
        });
      } else if (schema.minItems !== undefined && schema.maxItems !== undefined && schema.minItems > schema.maxItems) {
        issues.push({
          field: `${at}/minItems`,
          message: `${at}/minItems is more than maxItems; no answer could fit. Swap or fix them.`,
        });
      }
      break;
    }
  }
}

function checkTextType(issues: ArgumentIssue[], schema: StringType, at: string): void {
  if (schema.minLength !== undefined && schema.minLength > (schema.maxLength ?? LIMITS.text)) {
    issues.push({ field: `${at}/minLength`, message: `${at}/minLength is more than maxLength; no answer could fit. Lower it.` });
  }
  if (schema.pattern === undefined) return;
  const problem = checkPattern(schema.pattern);
  if (problem) issues.push(patternIssue(problem, `${at}/pattern`));
}

function patternIssue(problem: PatternProblem, field: string): ArgumentIssue {
  switch (problem.kind) {
    case 'length':
      return lengthIssue(field, problem.length, LIMITS.pattern);
    case 'syntax':
      return { field, message: `${field} is not a valid regular expression (ECMAScript, u flag). Fix it or remove it.` };
    case 'unsupported':
      return {
        field,
        message: `${field} uses ${problem.feature}, which Sess does not support: patterns are matched by RE2, without backreferences or lookaround. Rewrite it without that, or remove it.`,
      };
    case 'too_complex':
      return {
        field,
        message: `${field} is too complex to check quickly (over ${STRUCTURE_LIMITS.patternProgram} steps once compiled; counted repeats such as {50} multiply). Use smaller counts, or maxLength for the length.`,
        limit: STRUCTURE_LIMITS.patternProgram,
      };
  }
}

/** Enum IDs (unique; held to the label limit when shown as their own label) and their labels. */
function checkOptions(
  issues: ArgumentIssue[],
  ids: readonly string[],
  optionLabels: readonly string[] | undefined,
  at: string,
): void {
  const labels = optionLabels ?? [];
  const seen = new Set<string>();
  for (let j = 0; j < ids.length; j++) {
    const id = ids[j]!;
    const field = `${at}/enum/${j}`;
    if (j >= labels.length) checkLength(issues, id, field, LIMITS.label);
    if (seen.has(id))
      issues.push({ field, message: `${field} "${id}" repeats an earlier option ID. Give each option its own ID.` });
    seen.add(id);
  }
  if (labels.length > ids.length) {
    issues.push({
      field: `${at}/option_labels`,
      message: `${at}/option_labels has ${labels.length} labels for ${ids.length} enum IDs. Give at most one label per ID.`,
      limit: ids.length,
      length: labels.length,
    });
  }
  for (let j = 0; j < labels.length; j++) checkLength(issues, labels[j]!, `${at}/option_labels/${j}`, LIMITS.label);
}

const EXPECTED: Record<string, string> = {
  text: 'a string',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'a boolean',
  list: 'an array of enum IDs',
};

function initialValueIssue(problem: ValueProblem, at: string): ArgumentIssue {
  if (problem.code === 'too_long') return lengthIssue(at, problem.length, problem.limit);
  const field =
    (problem.code === 'enum' || problem.code === 'duplicate') && problem.index !== undefined ? `${at}/${problem.index}` : at;
  const fix = 'Fix the initial value or leave it out.';
  switch (problem.code) {
    case 'type':
      return { field, message: `${field} must be ${EXPECTED[problem.expected]} for this schema. ${fix}` };
    case 'enum':
      return { field, message: `${field} must be one of the schema's enum IDs. ${fix}` };
    case 'duplicate':
      return { field, message: `${field} repeats an earlier choice. ${fix}` };
    case 'too_short':
      return {
        field,
        message: `${field} is ${problem.length} characters; the schema's minLength is ${problem.limit}. ${fix}`,
        limit: problem.limit,
        length: problem.length,
      };
    case 'too_small':
      return { field, message: `${field} must be at least ${problem.limit}. ${fix}` };
    case 'too_big':
      return { field, message: `${field} must be at most ${problem.limit}. ${fix}` };
    case 'too_few':
      return {
        field,
        message: `${field} has ${problem.length} choices; minItems is ${problem.limit}. ${fix}`,
        limit: problem.limit,
        length: problem.length,
      };
    case 'too_many':
      return {
        field,
        message: `${field} has ${problem.length} choices; maxItems is ${problem.limit}. ${fix}`,
        limit: problem.limit,
        length: problem.length,
      };
    case 'pattern':
      return { field, message: `${field} does not match the schema's pattern. ${fix}` };
    case 'format':
      return { field, message: `${field} is not a valid ${problem.format}. ${fix}` };
  }
}
