import { describe, expect, it } from 'vitest';
import { parseAskArguments } from './ask.ts';
import { ASK_FIELD_TYPES, SESS_ASK_EXAMPLE } from './ask-schema.ts';
import { interactionJsonSchema, sessAskInputSchema, sessRequestInputSchema } from './json-schema.ts';
import { LIMITS } from './limits.ts';

type Node = Record<string, unknown>;

/** Every schema node with its path, walking properties, items, oneOf/anyOf and additionalProperties. */
function nodes(schema: Node, path = ''): [string, Node][] {
  const out: [string, Node][] = [[path, schema]];
  const properties = (schema.properties ?? {}) as Record<string, Node>;
  for (const [key, child] of Object.entries(properties)) out.push(...nodes(child, `${path}/${key}`));
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = (schema[key] ?? []) as Node[];
    options.forEach((child, i) => {
      out.push(...nodes(child, `${path}|${i}`));
    });
  }
  if (schema.items && typeof schema.items === 'object') out.push(...nodes(schema.items as Node, `${path}[]`));
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object')
    out.push(...nodes(schema.additionalProperties as Node, `${path}{}`));
  return out;
}

const schemas = { sess_ask: sessAskInputSchema, sess_request: sessRequestInputSchema, interaction: interactionJsonSchema };

describe.each(Object.entries(schemas))('%s JSON Schema', (_, build) => {
  it('is built once and frozen', () => {
    expect(build()).toBe(build());
    expect(Object.isFrozen(build())).toBe(true);
    expect(Object.isFrozen(build().properties)).toBe(true);
  });

  it('is a closed object at every level', () => {
    expect(build().type).toBe('object');
    const objects = nodes(build()).filter(([, node]) => node.type === 'object' && node.properties);
    expect(objects.length).toBeGreaterThan(3);
    for (const [path, node] of objects) expect([path, node.additionalProperties]).toEqual([path, false]);
  });

  it('describes every string a person reads with its limit, style and an example', () => {
    const readable = nodes(build()).filter(
      ([, node]) => node.type === 'string' && typeof node.maxLength === 'number' && node.maxLength !== LIMITS.name,
    );
    expect(readable.length).toBeGreaterThan(3);
    for (const [path, node] of readable) {
      const description = String(node.description);
      expect([path, description]).toEqual([path, expect.stringContaining(`at most ${node.maxLength}`)]);
      expect([path, description]).toEqual([path, expect.stringMatching(/Example: /)]);
    }
  });

  it('does not state the safe-integer range on integers', () => {
    for (const [, node] of nodes(build())) {
      expect(node.minimum).not.toBe(Number.MIN_SAFE_INTEGER);
      expect(node.maximum).not.toBe(Number.MAX_SAFE_INTEGER);
    }
  });
});

describe('sess_ask JSON Schema', () => {
  it('carries one complete good call, which is itself valid', () => {
    const schema = sessAskInputSchema();
    expect(schema.examples).toEqual([SESS_ASK_EXAMPLE]);
    expect(String(schema.description)).toContain(JSON.stringify(SESS_ASK_EXAMPLE));
    expect(parseAskArguments(SESS_ASK_EXAMPLE)).toEqual(SESS_ASK_EXAMPLE);
  });

  it('lists every field type and the limits of the seed table', () => {
    const byPath = new Map(nodes(sessAskInputSchema()));
    expect(byPath.get('/question')?.maxLength).toBe(80);
    expect(byPath.get('/details')?.maxLength).toBe(4000);
    expect(byPath.get('/submit_label')?.maxLength).toBe(24);
    expect(byPath.get('/fields')).toMatchObject({ minItems: 1, maxItems: 12 });
    const types = ASK_FIELD_TYPES.map((_, i) => (byPath.get(`/fields[]|${i}/type`) as { const: string }).const);
    expect(types).toEqual(ASK_FIELD_TYPES);
    expect(byPath.get('/fields[]|4/options[]')?.maxLength).toBe(60);
    expect(byPath.get('/fields[]|0/help')?.maxLength).toBe(160);
    expect(byPath.get('/expires_in')).toMatchObject({ type: 'integer', minimum: 30 });
    expect(sessAskInputSchema().required).toEqual(['question', 'fields']);
  });
});

describe('sess_request JSON Schema', () => {
  it('nests the interaction with the seed limits', () => {
    const byPath = new Map(nodes(sessRequestInputSchema()));
    expect(byPath.get('/interaction/title')?.maxLength).toBe(80);
    expect(byPath.get('/interaction/description')?.maxLength).toBe(280);
    expect(byPath.get('/interaction/actions')).toMatchObject({ minItems: 1, maxItems: 5 });
    expect(byPath.get('/interaction/actions[]/label')?.maxLength).toBe(24);
    expect(byPath.get('/interaction/source/components[]|0/text')?.maxLength).toBe(60);
    expect(byPath.get('/interaction/source/components[]|1/text')?.maxLength).toBe(4000);
    expect(byPath.get('/interaction/source/components[]|2/label')?.maxLength).toBe(200);
    expect(byPath.get('/interaction/source/components[]|2/fields')).toMatchObject({
      propertyNames: { maxLength: 40 },
      additionalProperties: { maxLength: 200 },
    });
    expect(byPath.get('/interaction/source/components[]|3/label')?.maxLength).toBe(60);
    expect(byPath.get('/interaction/source/components[]|3/description')?.maxLength).toBe(160);
    expect(sessRequestInputSchema().required).toEqual(['interaction']);
  });
});
