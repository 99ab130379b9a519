import { describe, expect, it } from 'vitest';
import { compatibilityBreaches } from './schema-compatibility.ts';
import { toolInputJsonSchema, toolOutputJsonSchema } from './tools.ts';

type Json = Record<string, unknown>;

/** The schema node at a path of keys. */
function at(schema: Json, ...path: string[]): Json {
  return path.reduce((node, key) => node[key] as Json, schema);
}

/** A writable copy of a tool's schema, changed by `edit`. */
function edited(schema: unknown, edit: (copy: Json) => void): Json {
  const copy = structuredClone(schema) as Json;
  edit(copy);
  return copy;
}

const ask = toolInputJsonSchema('sess_ask');
const list = toolInputJsonSchema('sess_list');
const interaction = toolOutputJsonSchema('sess_request');
const listed = toolOutputJsonSchema('sess_list');

describe('input compatibility (an input may only widen)', () => {
  it('takes the schema as it is', () => {
    expect(compatibilityBreaches(ask, ask, 'input')).toEqual([]);
  });

  it('takes a new field type and a new optional argument', () => {
    const now = edited(ask, (s) => {
      (at(s, 'properties', 'fields', 'items').oneOf as Json[]).push({
        type: 'object',
        properties: { name: { type: 'string' }, label: { type: 'string' }, type: { type: 'string', const: 'date' } },
        required: ['name', 'label', 'type'],
        additionalProperties: false,
      });
      at(s, 'properties').note = { type: 'string' };
    });
    expect(compatibilityBreaches(ask, now, 'input')).toEqual([]);
  });

  it('refuses a new required argument, a removed one, a removed field type, a lower limit and a removed enum value', () => {
    const now = edited(ask, (s) => {
      (s.required as string[]).push('details');
      delete at(s, 'properties').submit_label;
      (at(s, 'properties', 'fields', 'items').oneOf as Json[]).pop();
      at(s, 'properties', 'question').maxLength = 60;
    });
    expect(compatibilityBreaches(ask, now, 'input').sort()).toEqual(
      [
        ': now requires "details"',
        '/properties/question: maxLength lowered to 60',
        '/properties/fields/items|type=rating: union branch removed',
        '/properties/submit_label: removed',
      ].sort(),
    );
    const narrower = edited(list, (s) => {
      const status = at(s, 'properties', 'status');
      status.enum = (status.enum as string[]).filter((value) => value !== 'all');
      at(s, 'properties', 'limit').type = 'string';
    });
    expect(compatibilityBreaches(list, narrower, 'input')).toEqual([
      '/properties/status: enum value "all" removed',
      '/properties/limit: type was ["integer"], now ["string"]',
    ]);
  });
});

describe('output compatibility (an output may only narrow)', () => {
  it('takes a more precise result and a new optional property of an open one', () => {
    const before = edited(listed, (s) => {
      at(s, 'properties', 'interactions', 'items', 'properties').state = { type: 'string' };
    });
    const now = edited(interaction, (s) => {
      at(s, 'properties', 'interaction', 'properties').extra = { type: 'boolean' };
    });
    expect(compatibilityBreaches(before, listed, 'output')).toEqual([]);
    expect(compatibilityBreaches(interaction, now, 'output')).toEqual([]);
  });

  it('refuses a dropped required property, a new state and a property added to a closed result', () => {
    const now = edited(listed, (s) => {
      s.required = [];
      (at(s, 'properties', 'interactions', 'items', 'properties', 'state').enum as string[]).push('archived');
      at(s, 'properties').total = { type: 'integer' };
    });
    expect(compatibilityBreaches(listed, now, 'output').sort()).toEqual(
      [
        ': no longer requires "interactions"',
        '/properties/interactions/items/properties/state: enum value "archived" added',
        '/properties/total: added to a closed result',
      ].sort(),
    );
  });
});
