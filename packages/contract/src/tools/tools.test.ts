import { readFileSync } from 'node:fs';
import { sessAskInputSchema, sessRequestInputSchema } from '@sess/surface';
import { describe, expect, it } from 'vitest';
import { HANDLE_STATES } from '../states/handle-states.ts';
import * as descriptions from './descriptions.ts';
import { TOOL_NAMES, TOOLS, toolInputJsonSchema, toolOutputJsonSchema } from './tools.ts';

/*
 * tools/list must stay what it was, except where generation makes a schema more precise: each
 * difference the generated schema has is written out below with the reason it is more precise.
 * "What it was" is frozen in tools-list.before.json: tools/list and the agent-facing texts as
 * served from the hand-written schemas, just before they were replaced by these.
 */

type Json = Record<string, unknown>;

interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: Json;
  outputSchema: Json;
  annotations: Json;
}
const BEFORE = JSON.parse(readFileSync(new URL('./tools-list.before.json', import.meta.url), 'utf8')) as {
  tools: ListedTool[];
  texts: Record<string, string | string[]>;
};
const served = (name: string) => BEFORE.tools.find((tool) => tool.name === name)!;

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

/** `interaction.notified` (issue 16). */
const NOTIFIED_PROPERTY = {
  type: 'boolean',
  description:
    "Only sess_request and sess_ask: true when Sess has already sent the link to the person's phone or e-mail itself; false when it has not (always for an Ask with respondents, whose link you share), so show them the link.",
};

/** The create tools' texts as served before, with the `notified` sentence each gained (issue 16). */
function withNotified(name: string, text: string): string {
  const after: Record<string, string> = {
    SESS_REQUEST_DESCRIPTION: 'in state "waiting".',
    sess_request: 'in state "waiting".',
    SESS_ASK_DESCRIPTION: 'It never waits and never returns an answer.',
    sess_ask: 'It never waits and never returns an answer.',
  };
  const anchor = after[name];
  if (!anchor) return text;
  expect(text).toContain(anchor);
  return text.replace(anchor, `${anchor} ${descriptions.NOTIFIED_SENTENCE}`);
}

describe('tool input schemas', () => {
  it.each(['sess_response', 'sess_complete', 'sess_cancel', 'sess_list', 'sess_publish'] as const)(
    '%s is the schema tools/list served, unchanged',
    (tool) => {
      expect(toolInputJsonSchema(tool)).toEqual(served(tool).inputSchema);
    },
  );

  it('sess_ask and sess_request are @sess/surface’s own schemas, as served', () => {
    expect(toolInputJsonSchema('sess_ask')).toEqual(sessAskInputSchema());
    expect(toolInputJsonSchema('sess_request')).toEqual(sessRequestInputSchema());
    expect(toolInputJsonSchema('sess_ask')).toEqual(served('sess_ask').inputSchema);
    expect(toolInputJsonSchema('sess_request')).toEqual(served('sess_request').inputSchema);
  });

  it('titles and annotations are the ones tools/list served', () => {
    for (const tool of TOOL_NAMES) {
      expect([tool, TOOLS[tool].title, TOOLS[tool].annotations]).toEqual([tool, served(tool).title, served(tool).annotations]);
    }
  });
});

describe('tool output schemas', () => {
  it('{ interaction } is the hand-written schema, more precise where listed', () => {
    const expected = patched(served('sess_request').outputSchema, [
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
    // Added since (issue 16): whether Sess sent the link to the person itself. Optional, so every
    // result that was valid before still is.
    const properties = (expected['properties'] as Json)['interaction'] as { properties: Json };
    properties.properties = Object.fromEntries(
      Object.entries(properties.properties).flatMap(([key, value]) =>
        key === 'expiresAt'
          ? [
              [key, value],
              ['notified', NOTIFIED_PROPERTY],
            ]
          : [[key, value]],
      ),
    );
    for (const tool of TOOL_NAMES.filter((name) => name !== 'sess_list')) {
      expect([tool, toolOutputJsonSchema(tool)]).toEqual([tool, expected]);
    }
  });

  it('sess_list’s result is the hand-written schema, more precise where listed', () => {
    const expected = patched(served('sess_list').outputSchema, [
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
  it('are the texts the tools served before', () => {
    const { linkLines, ...texts } = BEFORE.texts;
    expect(Object.keys(texts).length).toBe(10);
    for (const [name, text] of Object.entries(texts)) {
      expect([name, (descriptions as unknown as Record<string, string>)[name]]).toEqual([
        name,
        withNotified(name, text as string),
      ]);
    }
    expect(descriptions.linkLines('https://sess.test/s/x')).toEqual(linkLines);
    for (const tool of TOOL_NAMES)
      expect([tool, TOOLS[tool].description]).toEqual([tool, withNotified(tool, served(tool).description)]);
  });

  it('name each tool with its own description', () => {
    expect(TOOLS.sess_publish.description).toBe(descriptions.SESS_PUBLISH_DESCRIPTION);
    expect(TOOL_NAMES.map((name) => TOOLS[name].name)).toEqual([...TOOL_NAMES]);
  });
});
