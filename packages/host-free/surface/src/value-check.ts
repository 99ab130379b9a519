import { matchesFormat } from './formats.ts';
import { countCodePoints, LIMITS } from './limits.ts';
import { compilePattern } from './pattern.ts';
import type { FieldType, StringType } from './schema.ts';

/** Why a value does not fit its field's schema. `index` points into a multi-choice list. */
export type ValueProblem =
  | { code: 'type'; expected: 'text' | 'number' | 'integer' | 'boolean' | 'list' }
  | { code: 'enum'; index?: number }
  | { code: 'duplicate'; index: number }
  | { code: 'too_short'; limit: number; length: number }
  | { code: 'too_long'; limit: number; length: number }
  | { code: 'too_small'; limit: number }
  | { code: 'too_big'; limit: number }
  | { code: 'too_few'; limit: number; length: number }
  | { code: 'too_many'; limit: number; length: number }
  | { code: 'pattern' }
  | { code: 'format'; format: NonNullable<StringType['format']> };

/**
 * Checks a typed value (string, number, boolean or list of strings) against a field's schema.
 * Used for a field's initial `value` and, after form strings are parsed, for an answer.
 */
export function checkTypedValue(schema: FieldType, value: unknown): ValueProblem | undefined {
  switch (schema.type) {
    case 'string':
      return typeof value === 'string' ? checkString(schema, value) : { code: 'type', expected: 'text' };
    case 'number':
    case 'integer':
      return checkNumber(schema.type, schema.minimum, schema.maximum, value);
    case 'boolean':
      return typeof value === 'boolean' ? undefined : { code: 'type', expected: 'boolean' };
    case 'array':
      return checkChoices(schema.items.enum, schema.minItems, schema.maxItems, value);
  }
}

function checkString(schema: StringType, value: string): ValueProblem | undefined {
  if (schema.enum) return schema.enum.includes(value) ? undefined : { code: 'enum' };
  const limit = schema.maxLength ?? LIMITS.text;
  // Code points are never more than UTF-16 units, so most strings skip the count.
  const length = value.length > limit || (schema.minLength ?? 0) > 0 ? countCodePoints(value) : value.length;
  if (length > limit) return { code: 'too_long', limit, length };
  if (schema.minLength !== undefined && length < schema.minLength) return { code: 'too_short', limit: schema.minLength, length };
  if (schema.format !== undefined && !matchesFormat(schema.format, value)) return { code: 'format', format: schema.format };
  if (schema.pattern !== undefined && !compilePattern(schema.pattern).test(value)) return { code: 'pattern' };
  return undefined;
}

function checkNumber(
  type: 'number' | 'integer',
  minimum: number | undefined,
  maximum: number | undefined,
  value: unknown,
): ValueProblem | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return { code: 'type', expected: type };
  if (type === 'integer' && !Number.isSafeInteger(value)) return { code: 'type', expected: 'integer' };
  if (minimum !== undefined && value < minimum) return { code: 'too_small', limit: minimum };
  if (maximum !== undefined && value > maximum) return { code: 'too_big', limit: maximum };
  return undefined;
}

function checkChoices(
  options: readonly string[],
  minItems: number | undefined,
  maxItems: number | undefined,
  value: unknown,
): ValueProblem | undefined {
  if (!Array.isArray(value)) return { code: 'type', expected: 'list' };
  for (let i = 0; i < value.length; i++) {
    const choice: unknown = value[i];
    if (typeof choice !== 'string' || !options.includes(choice)) return { code: 'enum', index: i };
    if (value.indexOf(choice) !== i) return { code: 'duplicate', index: i };
  }
  if (minItems !== undefined && value.length < minItems) return { code: 'too_few', limit: minItems, length: value.length };
  if (maxItems !== undefined && value.length > maxItems) return { code: 'too_many', limit: maxItems, length: value.length };
  return undefined;
}
