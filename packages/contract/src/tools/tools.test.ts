import { sessAskInputSchema, sessRequestInputSchema } from '@sess/surface';
import { describe, expect, it } from 'vitest';
// What tools/list served before the contract: the hand-written schemas and the tool texts, read
// from where they still are (packages/mcp, packages/interactions) until the tools switch over.
import * as before from '../../../interactions/src/descriptions.ts';
import * as handWritten from '../../../mcp/src/tools/schemas.ts';
import { HANDLE_STATES } from '../states/handle-states.ts';
import * as descriptions from './descriptions.ts';
import { TOOL_NAMES, TOOLS, toolInputJsonSchema, toolOutputJsonSchema } from './tools.ts';

/*
 * tools/list must stay what it was, except where generation makes a schema more precise: each
 * difference the generated schema has is written out below with the reason it is more precise.
 */

type Json = Record<string, unknown>;

function clone<T>(value: T): T {
  return structuredClone(value) as T;
}

/** Sets `value` at a path of property names in a copy of `schema` (`undefined` removes it). */
function patched(schema: unknown, changes: Array<[path: string[], value: unknown]>): Json {
  const copy = clone(schema) as Json;
  for (const [path, value] of changes) {
    let node = copy;
    for (const key of path.slice(0, -1)) node = node[key] as Json;
    const last = path.at(-1)!;
    if (value === undefined) delete node[last];
    else node[last] = value;
  }
  return copy;
}

const interaction = ['properties', 'interaction', 'properties'];
const response = [...interaction, 'response', 'properties'];
const askAnswers = [...interaction, 'ask', 'properties', 'answers', 'items'];
const listItem = ['properties', 'interactions', 'items'];

/** What an answer value is: text, a number, a checkbox, or the options of a multi-choice. */
const ANSWER_VALUES = {
  type: 'object',
  propertyNames: { type: 'string' },
  additionalProperties: {
    anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'array', items: { type: 'string' } }],
  },
  description: 'The answers by field name. Untrusted human input: validate before acting.',
};

describe('tool input schemas', () => {
  it.each([
    ['sess_response', handWritten.SESS_RESPONSE_INPUT],
    ['sess_complete', handWritten.SESS_COMPLETE_INPUT],
    ['sess_cancel', handWritten.SESS_CANCEL_INPUT],
    ['sess_list', handWritten.SESS_LIST_INPUT],
    ['sess_publish', handWritten.sessPublishInputSchema()],
  ] as const)('%s is the hand-written schema, unchanged', (tool, schema) => {
    expect(toolInputJsonSchema(tool)).toEqual(schema);
  });

  it('sess_ask and sess_request are @sess/surface’s own schemas', () => {
    expect(toolInputJsonSchema('sess_ask')).toEqual(sessAskInputSchema());
    expect(toolInputJsonSchema('sess_request')).toEqual(sessRequestInputSchema());
  });
});

describe('tool output schemas', () => {
  it('{ interaction } is the hand-written schema, more precise where listed', () => {
    const expected = patched(handWritten.INTERACTION_OUTPUT, [
      // The answer values are typed (the hand-written schema said only "object").
      [[...response, 'values'], ANSWER_VALUES],
      [[...askAnswers, 'properties', 'values'], ANSWER_VALUES],
      // Every released answer carries answeredAt and receipt (ResponseResult always has them).
      [
        [...interaction, 'response', 'required'],
        ['eventId', 'actionId', 'values', 'verified', 'actorAssurance', 'answeredAt', 'receipt'],
      ],
      [
        [...askAnswers, 'required'],
        ['eventId', 'actionId', 'values', 'verified', 'actorAssurance', 'answeredAt', 'receipt', 'respondentId'],
      ],
      // Counts are never negative, and an Ask takes at least one person.
      [
        [...interaction, 'ask', 'properties', 'counts', 'properties'],
        {
          started: { type: 'integer', minimum: 0 },
          answered: { type: 'integer', minimum: 0 },
          max: { type: 'integer', minimum: 1 },
        },
      ],
    ]);
    for (const tool of TOOL_NAMES.filter((name) => name !== 'sess_list')) {
      expect([tool, toolOutputJsonSchema(tool)]).toEqual([tool, expected]);
    }
  });

  it('sess_list’s result is the hand-written schema, more precise where listed', () => {
    const expected = patched(handWritten.LIST_OUTPUT, [
      // A listed state is a handle state (the hand-written schema said only "string").
      [[...listItem, 'properties', 'state'], { type: 'string', enum: [...HANDLE_STATES] }],
      // Revisions start at 1, as in every other result.
      [[...listItem, 'properties', 'revision'], { type: 'integer', minimum: 1 }],
    ]);
    expect(toolOutputJsonSchema('sess_list')).toEqual(expected);
  });
});

describe('tool JSON Schemas', () => {
  it('are built once, frozen and shared', () => {
    for (const tool of TOOL_NAMES) {
      expect(toolInputJsonSchema(tool)).toBe(toolInputJsonSchema(tool));
      expect(Object.isFrozen(toolInputJsonSchema(tool).properties)).toBe(true);
      expect(Object.isFrozen(toolOutputJsonSchema(tool))).toBe(true);
    }
  });
});

describe('descriptions', () => {
  it('are the text the tools served before', () => {
    const { linkLines, ...texts } = before;
    expect(Object.keys(texts).length).toBe(10);
    for (const [name, text] of Object.entries(texts)) {
      expect([name, (descriptions as unknown as Record<string, string>)[name]]).toEqual([name, text]);
    }
    expect(descriptions.linkLines('https://sess.test/s/x')).toEqual(linkLines('https://sess.test/s/x'));
  });

  it('name each tool with its own description', () => {
    expect(TOOLS.sess_publish.description).toBe(descriptions.SESS_PUBLISH_DESCRIPTION);
    expect(TOOL_NAMES.map((name) => TOOLS[name].name)).toEqual([...TOOL_NAMES]);
  });
});
