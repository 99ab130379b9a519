import type { JsonSchemaObject } from '@sess/surface';
import { z } from 'zod';

/*
 * One way from a zod schema to the JSON Schema a client reads (tools/list, /v1/openapi.json).
 * Generated as the schema's *input* (what `parse` accepts): a `z.object` stays open to fields it
 * does not name, a `z.strictObject` is `additionalProperties: false`.
 */

/** The JSON Schema dialect of every generated document. */
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

type Override = NonNullable<Parameters<typeof z.toJSONSchema>[1]>['override'];

/**
 * Removes what zod states that says nothing to a reader: the safe-integer range of every
 * `z.int()` (as @sess/surface does), and the regular expression zod writes beside
 * `format: "date-time"` (the format already says it).
 */
export const cleanGenerated: Override = ({ jsonSchema }) => {
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
  if (jsonSchema.format === 'date-time') delete jsonSchema.pattern;
};

/** The options every generated schema is built with. */
export const GENERATION_OPTIONS = { target: 'draft-2020-12', io: 'input', override: cleanGenerated } as const;

/** Freezes a generated value all the way down: it is shared by every request. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

const cache = new WeakMap<z.ZodType, JsonSchemaObject>();

/**
 * The JSON Schema of an object schema, as an MCP tool's `inputSchema` / `outputSchema` takes it:
 * built once per schema, then frozen and shared. An object without required fields still says
 * `required: []` (the form tools/list always served).
 */
export function toolJsonSchema(schema: z.ZodType): JsonSchemaObject {
  const cached = cache.get(schema);
  if (cached) return cached;
  const json = z.toJSONSchema(schema, GENERATION_OPTIONS) as Record<string, unknown>;
  if (json.type !== 'object') throw new TypeError('a tool schema must be an object schema');
  if (json.properties && !json.required) json.required = [];
  const frozen = deepFreeze(json) as JsonSchemaObject;
  cache.set(schema, frozen);
  return frozen;
}
