import { z } from 'zod';
import { AskArgumentsSchema } from './ask-schema.ts';
import { RequestArgumentsSchema, SurfaceSchema } from './schema.ts';

/** A JSON Schema object, as an MCP tool's `inputSchema` takes it. Frozen: it is shared. */
export type JsonSchemaObject = { readonly type: 'object'; readonly [keyword: string]: unknown };

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** Build once from the zod definitions, the one source of truth. */
function build(schema: z.ZodType): JsonSchemaObject {
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    // `z.int()` states the safe-integer range on every integer; it says nothing to an agent.
    override: ({ jsonSchema }) => {
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
    },
  });
  return deepFreeze(json) as JsonSchemaObject;
}

function once(schema: z.ZodType): () => JsonSchemaObject {
  let cached: JsonSchemaObject | undefined;
  return () => {
    cached ??= build(schema);
    return cached;
  };
}

/** `inputSchema` of the sess_ask tool, with every readable field described and one complete good call. */
export const sessAskInputSchema: () => JsonSchemaObject = once(AskArgumentsSchema);

/** `inputSchema` of the sess_request tool (`interaction`, optional `expires_in`). */
export const sessRequestInputSchema: () => JsonSchemaObject = once(RequestArgumentsSchema);

/** JSON Schema of the interaction alone, for sess_publish's `interaction` and the /v1 API. */
export const interactionJsonSchema: () => JsonSchemaObject = once(SurfaceSchema);
