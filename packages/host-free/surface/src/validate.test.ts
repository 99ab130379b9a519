import { describe, expect, it } from 'vitest';
import type { FieldComponent, Surface } from './schema.ts';
import { DEFAULT_SUBMIT_ACTION, resolveActions } from './schema.ts';
import { fieldOfKind, fullSurface, sampleSurface, surfaceWith } from './test-fixtures.ts';
import { collectRequestArgumentsIssues, collectSurfaceIssues, parseRequestArguments, parseSurface } from './validate.ts';

const C = '/interaction/source/components/0';

function field(schema: FieldComponent['schema'], extra: Partial<FieldComponent> = {}): Surface {
  return surfaceWith({ type: 'field', name: 'answer', label: 'Answer', schema, ...extra });
}

function first(surface: unknown) {
  return collectSurfaceIssues(surface, '/interaction')[0];
}

describe('valid interactions come back deep-equal', () => {
  it("accepts the seed's sample", () => {
    const sample = sampleSurface();
    expect(parseRequestArguments({ interaction: sample, expires_in: 3600 })).toEqual({ interaction: sample, expires_in: 3600 });
    const inChat = { interaction: sample, answer_in_chat: false };
    expect(parseRequestArguments(inChat)).toEqual(inChat);
    expect(collectRequestArgumentsIssues({ interaction: sample, answer_in_chat: 1 })[0]?.field).toBe('/answer_in_chat');
    const signedIn = { interaction: sample, assurance: 'account', for: ['ana@example.com'] };
    expect(parseRequestArguments(signedIn)).toEqual(signedIn);
    expect(parseRequestArguments({ interaction: sample, assurance: 'passkey' })).toEqual({
      interaction: sample,
      assurance: 'passkey',
    });
    expect(collectRequestArgumentsIssues({ interaction: sample, assurance: 'high' })[0]?.field).toBe('/assurance');
    expect(collectRequestArgumentsIssues({ interaction: sample, for: ['ana@example.com'] })[0]?.field).toBe('/for');
    expect(collectRequestArgumentsIssues({ interaction: sample, assurance: 'account', for: [] })[0]?.field).toBe('/for');
  });

  it('accepts a form with every kind of field, 24 fields and 5 actions', () => {
    const surface = fullSurface();
    expect(parseSurface(surface)).toEqual(surface);
  });

  it.each([0, 1, 2, 3, 4, 5, 6])('accepts field kind %i with its initial value', (kind) => {
    const surface = surfaceWith(fieldOfKind(kind));
    expect(parseSurface(surface)).toEqual(surface);
  });

  it.each(['email', 'uri', 'date', 'date-time', 'time'] as const)('accepts format %s', (format) => {
    expect(first(field({ type: 'string', format }))).toBeUndefined();
  });

  it('gives a form without actions the default Submit button (and does not add it to the surface)', () => {
    const surface = parseSurface(surfaceWith({ type: 'text', text: 'Hello' }));
    expect(surface.actions).toBeUndefined();
    expect(resolveActions(surface)).toEqual([{ id: 'submit', label: 'Submit', intent: 'submit' }]);
    expect(resolveActions(sampleSurface())).toEqual(sampleSurface().actions);
    expect(Object.isFrozen(DEFAULT_SUBMIT_ACTION)).toBe(true);
  });

  it('takes an interaction with no components (a title and buttons)', () => {
    expect(first({ ...surfaceWith(), actions: [{ id: 'ok', label: 'OK', intent: 'approve' }] })).toBeUndefined();
  });
});

describe('shape errors name their pointer', () => {
  it.each([
    ['a missing title', { ...surfaceWith(), title: undefined }, '/interaction/title', '/interaction/title is required.'],
    ['an empty title', { ...surfaceWith(), title: '' }, '/interaction/title', '/interaction/title must not be empty.'],
    ['a wrong mode', { ...surfaceWith(), mode: 'static' }, '/interaction/mode', '/interaction/mode must be "interactive".'],
    [
      'a wrong source kind',
      { ...surfaceWith(), source: { kind: 'html', components: [] } },
      '/interaction/source/kind',
      '/interaction/source/kind must be "sess_surface".',
    ],
    [
      'an unknown component',
      surfaceWith({ type: 'image' } as never),
      `${C}/type`,
      `${C}/type must be one of heading, text, record, field.`,
    ],
    [
      'a component without type',
      surfaceWith({ text: 'x' } as never),
      `${C}/type`,
      `${C}/type is required: one of heading, text, record, field.`,
    ],
    ['a number as text', surfaceWith({ type: 'text', text: 5 } as never), `${C}/text`, `${C}/text must be a string.`],
    [
      'an unknown intent',
      { ...surfaceWith(), actions: [{ id: 'x', label: 'X', intent: 'maybe' }] },
      '/interaction/actions/0/intent',
      '/interaction/actions/0/intent must be "approve" or "reject" or "submit" or "other".',
    ],
    [
      'a field name with a space',
      field({ type: 'boolean' }, { name: 'first name' }),
      `${C}/name`,
      `${C}/name must start with a letter and use only letters, digits, _ and -.`,
    ],
    ['an empty enum', field({ type: 'string', enum: [] }), `${C}/schema/enum`, `${C}/schema/enum must not be empty.`],
    [
      'an unknown schema type',
      field({ type: 'object' } as never),
      `${C}/schema/type`,
      `${C}/schema/type must be one of string, number, integer, boolean, array.`,
    ],
    [
      'an initial value of no allowed type',
      field({ type: 'string' }, { value: { a: 1 } as never }),
      `${C}/value`,
      `${C}/value must be a string, or a number, or a boolean, or an array.`,
    ],
    [
      'a record value that is not a string',
      surfaceWith({ type: 'record', label: 'R', fields: { a: 1 } } as never),
      `${C}/fields/a`,
      `${C}/fields/a must be a string.`,
    ],
    [
      'an empty record key',
      surfaceWith({ type: 'record', label: 'R', fields: { '': 'x' } }),
      `${C}/fields/`,
      `${C}/fields/: a key here must not be empty.`,
    ],
  ])('%s', (_, surface, field, message) => {
    expect(first(surface)).toEqual({ field, message });
  });

  it('refuses an expires_in under 30 seconds or not whole', () => {
    expect(collectRequestArgumentsIssues({ interaction: sampleSurface(), expires_in: 29 })[0]).toEqual({
      field: '/expires_in',
      message: '/expires_in must be at least 30.',
    });
    expect(collectRequestArgumentsIssues({ interaction: sampleSurface(), expires_in: 30.5 })[0]?.field).toBe('/expires_in');
    expect(collectRequestArgumentsIssues({ interaction: sampleSurface(), expires_in: 30 })).toEqual([]);
  });

  it('refuses a missing interaction and a non-object', () => {
    expect(collectRequestArgumentsIssues({})[0]).toEqual({ field: '/interaction', message: '/interaction is required.' });
    expect(collectRequestArgumentsIssues('hi')[0]).toEqual({ field: '', message: 'The arguments must be an object.' });
  });

  it('collects every shape issue of the phase', () => {
    const issues = collectSurfaceIssues({ mode: 'x', title: 1, source: { kind: 'sess_surface', components: [] }, extra: true });
    expect(issues.map((issue) => issue.field)).toEqual(['/mode', '/title', '/extra']);
  });
});

describe('rules the schema cannot say', () => {
  it.each<[string, Surface, string, RegExp]>([
    [
      'two fields with one name',
      surfaceWith(fieldOfKind(0), { ...fieldOfKind(6), name: 'field_0' }),
      '/interaction/source/components/1/name',
      /already used/,
    ],
    ['a field named prototype', field({ type: 'boolean' }, { name: 'prototype' }), `${C}/name`, /reserved word/],
    [
      'two actions with one id',
      {
        ...surfaceWith(),
        actions: [
          { id: 'go', label: 'Go', intent: 'approve' },
          { id: 'go', label: 'Stop', intent: 'reject' },
        ],
      },
      '/interaction/actions/1/id',
      /already used/,
    ],
    [
      'a repeated enum ID',
      field({ type: 'string', enum: ['a', 'b', 'a'] }),
      `${C}/schema/enum/2`,
      /repeats an earlier option ID/,
    ],
    [
      'a repeated multi-choice ID',
      field({ type: 'array', items: { type: 'string', enum: ['a', 'a'] } }),
      `${C}/schema/items/enum/1`,
      /repeats an earlier option ID/,
    ],
    [
      'more labels than IDs',
      field({ type: 'string', enum: ['a'], option_labels: ['A', 'B'] }),
      `${C}/schema/option_labels`,
      /2 labels for 1 enum IDs/,
    ],
    ['labels without enum', field({ type: 'string', option_labels: ['A'] }), `${C}/schema/option_labels`, /needs enum/],
    [
      'a choice with maxLength',
      field({ type: 'string', enum: ['a'], maxLength: 3 }),
      `${C}/schema/maxLength`,
      /does not apply to a choice/,
    ],
    [
      'a pattern that does not compile',
      field({ type: 'string', pattern: '(' }),
      `${C}/schema/pattern`,
      /not a valid regular expression/,
    ],
    [
      'a pattern with a backreference',
      field({ type: 'string', pattern: '^(\\w)\\1$' }),
      `${C}/schema/pattern`,
      /uses a backreference .* matched by RE2/,
    ],
    ['a pattern with a lookahead', field({ type: 'string', pattern: '^(?=.*\\d).+$' }), `${C}/schema/pattern`, /lookahead/],
    ['a pattern with a lookbehind', field({ type: 'string', pattern: '(?<!\\$)\\d+' }), `${C}/schema/pattern`, /lookbehind/],
    [
      'a pattern with a script property',
      field({ type: 'string', pattern: '\\p{Script=Greek}+' }),
      `${C}/schema/pattern`,
      /Unicode property with a value/,
    ],
    [
      'a pattern ECMAScript and RE2 read apart',
      field({ type: 'string', pattern: '[^]' }),
      `${C}/schema/pattern`,
      /empty character class/,
    ],
    ['a pattern RE2 does not accept', field({ type: 'string', pattern: '\\cJ' }), `${C}/schema/pattern`, /RE2 does not accept/],
    ['a pattern too costly to run', field({ type: 'string', pattern: '\\p{L}{1000}' }), `${C}/schema/pattern`, /too complex/],
    [
      'a pattern too costly even to compile',
      field({ type: 'string', pattern: '(?:(?:(?:a?){10}){10}){10}' }),
      `${C}/schema/pattern`,
      /too complex/,
    ],
    [
      'minLength over maxLength',
      field({ type: 'string', minLength: 5, maxLength: 3 }),
      `${C}/schema/minLength`,
      /more than maxLength/,
    ],
    ['minimum over maximum', field({ type: 'integer', minimum: 5, maximum: 3 }), `${C}/schema/minimum`, /more than maximum/],
    [
      'minItems over the options',
      field({ type: 'array', items: { type: 'string', enum: ['a'] }, minItems: 2 }),
      `${C}/schema/minItems`,
      /only 1 options/,
    ],
    [
      'minItems over maxItems',
      field({ type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 3, maxItems: 2 }),
      `${C}/schema/minItems`,
      /more than maxItems/,
    ],
    [
      'multiline on a choice',
      field({ type: 'string', enum: ['a'] }, { multiline: true }),
      `${C}/multiline`,
      /only to a text field/,
    ],
    ['multiline on a number', field({ type: 'number' }, { multiline: false }), `${C}/multiline`, /only to a text field/],
    ['an empty record', surfaceWith({ type: 'record', label: 'R', fields: {} }), `${C}/fields`, /is empty/],
    [
      'an initial choice not in enum',
      field({ type: 'string', enum: ['a'] }, { value: 'b' }),
      `${C}/value`,
      /one of the schema's enum IDs/,
    ],
    [
      'an initial multi-choice not in enum',
      field({ type: 'array', items: { type: 'string', enum: ['a', 'b'] } }, { value: ['a', 'z'] }),
      `${C}/value/1`,
      /enum IDs/,
    ],
    [
      'an initial multi-choice repeated',
      field({ type: 'array', items: { type: 'string', enum: ['a', 'b'] } }, { value: ['a', 'a'] }),
      `${C}/value/1`,
      /repeats/,
    ],
    ['an initial number of the wrong type', field({ type: 'number' }, { value: '3' }), `${C}/value`, /must be a number/],
    ['an initial integer with decimals', field({ type: 'integer' }, { value: 2.5 }), `${C}/value`, /whole number/],
    ['an initial number out of range', field({ type: 'number', maximum: 10 }, { value: 11 }), `${C}/value`, /at most 10/],
    ['an initial text too short', field({ type: 'string', minLength: 3 }, { value: 'ab' }), `${C}/value`, /minLength is 3/],
    ['an initial text off its pattern', field({ type: 'string', pattern: '^\\d+$' }, { value: 'abc' }), `${C}/value`, /pattern/],
    [
      'an initial text off its format',
      field({ type: 'string', format: 'email' }, { value: 'not-an-email' }),
      `${C}/value`,
      /valid email/,
    ],
    ['an initial boolean as text', field({ type: 'boolean' }, { value: 'on' }), `${C}/value`, /a boolean/],
  ])('refuses %s', (_, surface, pointer, message) => {
    const issue = first(surface);
    expect(issue?.field).toBe(pointer);
    expect(issue?.message).toMatch(message);
    expect(issue?.message.startsWith(pointer)).toBe(true);
  });

  it.each([
    '^[A-Z]{3}-\\d+$',
    '^(?:ab)+$',
    '^(\\d{3}-)?\\d{4}$',
    '^[a-z][a-z-]*$',
    '\\p{L}+',
    '^(?<year>\\d{4})$',
    '^\\u{1F600}+$',
  ])('accepts the usual pattern %s', (pattern) => {
    expect(first(field({ type: 'string', pattern }))).toBeUndefined();
  });

  it.each(['^(a+)+$', '^(a|aa)*$', 'a*a*c', '\\s*\\s*\\s*x', '^[a-z]+(?:-[a-z]+)*$', '^(\\w+\\s?)*$'])(
    'accepts %s: RE2 runs even the classic catastrophic patterns in linear time',
    (pattern) => {
      expect(first(field({ type: 'string', pattern }))).toBeUndefined();
    },
  );

  it('does not judge an initial value against a schema that is itself broken', () => {
    const issues = collectSurfaceIssues(field({ type: 'string', pattern: '(' }, { value: 'x' }));
    expect(issues.map((issue) => issue.field)).toEqual(['/source/components/0/schema/pattern']);
  });
});

describe('characters Sess refuses, in every string an agent writes', () => {
  type Node = Record<string | number, unknown>;
  /** Writes `value` at `path` into a copy of the seed's sample (the record key case renames a key). */
  function sampleWith(path: Array<string | number>, value: (old: string) => string, renameKey = false): unknown {
    const surface = JSON.parse(JSON.stringify(sampleSurface())) as Node;
    let node = surface;
    for (const token of path.slice(0, -1)) node = node[token] as Node;
    const last = path.at(-1)!;
    if (renameKey) {
      node[value(String(last))] = node[last];
      delete node[last];
    } else node[last] = value(String(node[last]));
    return surface;
  }
  const R = ['source', 'components', 0];
  const F = ['source', 'components', 1];
  const slots: Array<[string, Array<string | number>, string, boolean?]> = [
    ['the title', ['title'], '/interaction/title'],
    ['a record label', [...R, 'label'], '/interaction/source/components/0/label'],
    ['a record value', [...R, 'fields', 'src/greeting.js'], '/interaction/source/components/0/fields/src~1greeting.js'],
    ['a record key (named by its record)', [...R, 'fields', 'src/greeting.js'], '/interaction/source/components/0/fields', true],
    ['a field label', [...F, 'label'], '/interaction/source/components/1/label'],
    ['an initial value', [...F, 'value'], '/interaction/source/components/1/value'],
    ['a button label', ['actions', 0, 'label'], '/interaction/actions/0/label'],
  ];
  const bad: Array<[string, string]> = [
    ['NUL', '\u0000'],
    ['an unpaired surrogate', '\uD800'],
    ['a right-to-left override', '\u202E'],
    ['ESC', '\u001B'],
    ['a noncharacter', '\uFFFF'],
  ];
  for (const [slot, path, pointer, renameKey] of slots) {
    it.each(bad)(`refuses %s in ${slot}, at its pointer`, (_, character) => {
      const surface = sampleWith(path, (old) => `${old}${character}`, renameKey);
      const issues = collectRequestArgumentsIssues({ interaction: surface });
      expect(issues[0]?.field).toBe(pointer);
      expect(issues[0]?.message).toMatch(/contains .* \(U\+[0-9A-F]{4}\) at character \d+; .* Remove it\.$/);
      expect(() => parseRequestArguments({ interaction: surface })).toThrowError(
        expect.objectContaining({ code: 'INVALID_ARGUMENTS', retryable: false, details: { field: pointer } }),
      );
    });
  }

  it('keeps tabs and line breaks, and right-to-left text without controls', () => {
    const surface = sampleWith([...F, 'value'], () => 'Line one\n\tLine two\r\nשלום');
    expect(collectRequestArgumentsIssues({ interaction: surface })).toEqual([]);
  });
});
