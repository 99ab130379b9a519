import { toolInputJsonSchema } from '@sess/contract';
import { type TSchema, Type } from 'typebox';
import { OPENCLAW_WAIT_MS } from '../config/read-plugin-config.ts';

/*
 * The parameter schemas OpenClaw shows the model, generated from the contract's JSON Schemas (the
 * ones tools/list serves, themselves generated from the zod schemas) and never written twice.
 * Two derivations only, both checked by tool-schemas.test.ts:
 * - sess_ask takes either of the MCP create tools' arguments: the properties of sess_ask and
 *   sess_request side by side (expires_in, answer_in_chat, assurance and for are the same in both), closed, nothing required at the
 *   top (a provider refuses anyOf there); the tool's own parse picks the form and refuses the rest.
 * - sess_response's wait_ms says the plugin's shorter wait (its bound stays the contract's).
 * Each is wrapped as a TypeBox schema (`Type.Unsafe`), the form the OpenClaw SDK takes.
 * The tools still parse every argument with the contract's zod schemas, which alone answer
 * INVALID_ARGUMENTS with the JSON pointer, limit and length.
 */

/** The plugin's four tools, in the order OpenClaw lists them. */
export const OPENCLAW_TOOL_NAMES = ['sess_ask', 'sess_response', 'sess_publish', 'sess_complete'] as const;
export type OpenclawToolName = (typeof OPENCLAW_TOOL_NAMES)[number];

type JsonObject = Record<string, unknown>;

/** A private, writable copy of a contract schema (the contract's are frozen and shared). */
function copyOf(name: Parameters<typeof toolInputJsonSchema>[0]): JsonObject {
  return structuredClone(toolInputJsonSchema(name)) as JsonObject;
}

function propertiesOf(schema: JsonObject): Record<string, JsonObject> {
  return schema.properties as Record<string, JsonObject>;
}

/** sess_ask: the short form's and the full form's properties in one closed object. */
function buildCreateSchema(): JsonObject {
  const ask = copyOf('sess_ask');
  const request = copyOf('sess_request');
  const properties: Record<string, JsonObject> = { ...propertiesOf(ask) };
  for (const [key, value] of Object.entries(propertiesOf(request))) {
    if (key in properties && JSON.stringify(properties[key]) !== JSON.stringify(value)) {
      throw new TypeError(`sess_ask and sess_request describe ${key} differently; the combined schema cannot hold both`);
    }
    properties[key] = value;
  }
  return {
    $schema: ask.$schema,
    type: 'object',
    description:
      'Either the short form (question and fields, with details, submit_label, expires_in, respondents, answer_in_chat, assurance, for) or the full form (interaction, with expires_in, answer_in_chat, assurance, for). Never both.',
    properties,
    required: [],
    additionalProperties: false,
  };
}

/** sess_response: the contract's, with the plugin's wait ceiling. */
function buildResponseSchema(): JsonObject {
  const schema = copyOf('sess_response');
  const waitMs = propertiesOf(schema).wait_ms!;
  // The bound stays the contract's (what the operation's parse takes); a longer wait is cut to the plugin's.
  waitMs.description = `How long to wait for an answer, in milliseconds: default ${OPENCLAW_WAIT_MS}, and never longer; 0 reads once.`;
  return schema;
}

/** Each tool's parameters as plain JSON Schema (what the unit test compares with the contract). */
export function buildParameterJsonSchemas(): Record<OpenclawToolName, JsonObject> {
  return {
    sess_ask: buildCreateSchema(),
    sess_response: buildResponseSchema(),
    sess_publish: copyOf('sess_publish'),
    sess_complete: copyOf('sess_complete'),
  };
}

/** Each tool's parameters as the TypeBox schema OpenClaw's `registerTool` takes. */
export function buildParameterSchemas(): Record<OpenclawToolName, TSchema> {
  const json = buildParameterJsonSchemas();
  return {
    sess_ask: Type.Unsafe(json.sess_ask as TSchema),
    sess_response: Type.Unsafe(json.sess_response as TSchema),
    sess_publish: Type.Unsafe(json.sess_publish as TSchema),
    sess_complete: Type.Unsafe(json.sess_complete as TSchema),
  };
}
