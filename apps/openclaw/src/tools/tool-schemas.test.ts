import { toolInputJsonSchema } from '@sess/contract';
import { parseAskArguments, SESS_ASK_EXAMPLE, toSurface } from '@sess/surface';
import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import { OPENCLAW_WAIT_MS } from '../config/read-plugin-config.ts';
import { buildParameterJsonSchemas, buildParameterSchemas, OPENCLAW_TOOL_NAMES } from './tool-schemas.ts';

type JsonObject = Record<string, unknown>;
const props = (schema: unknown) => (schema as { properties: Record<string, unknown> }).properties;

describe('the plugin parameter schemas are the contract schemas', () => {
  const json = buildParameterJsonSchemas();

  it('sess_publish and sess_complete are the MCP tools’ input schemas, unchanged', () => {
    expect(json.sess_publish).toEqual(toolInputJsonSchema('sess_publish'));
    expect(json.sess_complete).toEqual(toolInputJsonSchema('sess_complete'));
  });

  it('sess_response is the contract’s with only wait_ms’s wording changed to the plugin’s wait', () => {
    const contract = toolInputJsonSchema('sess_response') as JsonObject;
    const { wait_ms: ours, ...rest } = props(json.sess_response) as Record<string, JsonObject>;
    const { wait_ms: theirs, ...contractRest } = props(contract) as Record<string, JsonObject>;
    expect(rest).toEqual(contractRest);
    expect({ ...ours, description: undefined }).toEqual({ ...theirs, description: undefined });
    expect(ours!.description).toContain(String(OPENCLAW_WAIT_MS));
    expect({ ...json.sess_response, properties: undefined }).toEqual({ ...contract, properties: undefined });
  });

  it('sess_ask holds every property of sess_ask and of sess_request as the contract states it, and no other', () => {
    const ask = props(toolInputJsonSchema('sess_ask'));
    const request = props(toolInputJsonSchema('sess_request'));
    const ours = props(json.sess_ask);
    expect(Object.keys(ours).sort()).toEqual([...new Set([...Object.keys(ask), ...Object.keys(request)])].sort());
    for (const [key, value] of Object.entries(ask)) expect(ours[key], key).toEqual(value);
    for (const [key, value] of Object.entries(request)) expect(ours[key], key).toEqual(value);
    expect(json.sess_ask).toMatchObject({ type: 'object', additionalProperties: false, required: [] });
  });

  it('every schema is closed: a key, origin or workspace argument is refused by the schema itself', () => {
    const compiled = buildParameterSchemas();
    for (const name of OPENCLAW_TOOL_NAMES) {
      expect(json[name].additionalProperties, name).toBe(false);
      const validator = Compile(compiled[name]);
      for (const extra of ['api_key', 'key', 'origin', 'workspace', 'workspace_id']) {
        expect(validator.Check({ ...validArguments[name], [extra]: 'x' }), `${name} ${extra}`).toBe(false);
      }
      expect(validator.Check(validArguments[name]), name).toBe(true);
    }
  });

  it('TypeBox compiles every schema and takes the full form through sess_ask as well as the short one', () => {
    const validator = Compile(buildParameterSchemas().sess_ask);
    expect(validator.Check({ interaction: validArguments.sess_publish.interaction })).toBe(true);
    expect(validator.Check({ question: 'Where to?', fields: [{ name: 'place', label: 'Place', type: 'text' }] })).toBe(true);
  });

  it('is generated from the contract, never copied: a fresh object each time, the contract’s own left frozen', () => {
    expect(buildParameterJsonSchemas().sess_ask).not.toBe(json.sess_ask);
    expect(Object.isFrozen(toolInputJsonSchema('sess_response'))).toBe(true);
    expect((props(toolInputJsonSchema('sess_response')).wait_ms as JsonObject).maximum).toBe(45_000);
  });
});

/** A full form, as sess_ask's example becomes one (the form model's own conversion). */
const surface = toSurface(parseAskArguments(SESS_ASK_EXAMPLE));

const validArguments: Record<(typeof OPENCLAW_TOOL_NAMES)[number], Record<string, unknown>> = {
  sess_ask: { question: 'Where to?', fields: [{ name: 'place', label: 'Place', type: 'text' }] },
  sess_response: { handle: 'hdl_x', revision: 1 },
  sess_publish: { handle: 'hdl_x', expected_revision: 1, response_event_id: 'evt_x', interaction: surface },
  sess_complete: { handle: 'hdl_x', expected_revision: 1, response_event_id: 'evt_x' },
};
