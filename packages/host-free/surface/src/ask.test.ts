import { describe, expect, it } from 'vitest';
import { collectAskArgumentsIssues, parseAskArguments } from './ask.ts';
import type { AskArguments, AskField } from './ask-schema.ts';
import { ASK_FIELD_TYPES, SESS_ASK_EXAMPLE } from './ask-schema.ts';
import type { Component } from './schema.ts';
import { askExample, codePoints, fullAsk } from './test-fixtures.ts';
import { RESPONDENT_NAME_FIELD, toSurface } from './to-surface.ts';
import { parseSurface } from './validate.ts';

function ask(...fields: AskField[]): AskArguments {
  return { question: 'Quick question?', fields };
}

describe('sess_ask arguments', () => {
  it("accepts the seed's example and gives it back deep-equal (defaults are not added)", () => {
    const args = askExample();
    expect(args).toEqual(SESS_ASK_EXAMPLE);
    expect(parseAskArguments(args)).toEqual(args);
  });

  it('accepts every field type with their options, respondents and expires_in', () => {
    const args = { ...fullAsk(), respondents: { max: 20, name: true, respondent_expires_in: 600 } };
    expect(new Set(args.fields.map((field) => field.type))).toEqual(new Set(ASK_FIELD_TYPES));
    expect(parseAskArguments(args)).toEqual(args);
  });

  it.each<[string, unknown, string, RegExp]>([
    ['a missing question', { fields: [{ name: 'a', label: 'A', type: 'boolean' }] }, '/question', /is required/],
    [
      'an unknown field type',
      ask({ name: 'a', label: 'A', type: 'no_such_type' } as never),
      '/fields/0/type',
      new RegExp(`must be one of ${ASK_FIELD_TYPES.join(', ')}\\.`),
    ],
    ['a choice without options', ask({ name: 'a', label: 'A', type: 'choice' } as never), '/fields/0/options', /is required/],
    [
      'min and max on a text field',
      ask({ name: 'a', label: 'A', type: 'text', min: 1 } as never),
      '/fields/0/min',
      /not a known property/,
    ],
    [
      'a rating with options',
      ask({ name: 'a', label: 'A', type: 'rating', options: ['1'] } as never),
      '/fields/0/options',
      /not a known property/,
    ],
    [
      'an integer bound with decimals',
      ask({ name: 'a', label: 'A', type: 'integer', min: 0.5 }),
      '/fields/0/min',
      /whole number/,
    ],
    [
      'max_length over 4000',
      ask({ name: 'a', label: 'A', type: 'text', max_length: 4001 }),
      '/fields/0/max_length',
      /at most 4000/,
    ],
    [
      'two fields with one name',
      ask({ name: 'a', label: 'A', type: 'boolean' }, { name: 'a', label: 'B', type: 'rating' }),
      '/fields/1/name',
      /already used/,
    ],
    ['a field named constructor', ask({ name: 'constructor', label: 'A', type: 'boolean' }), '/fields/0/name', /reserved word/],
    [
      'a repeated option',
      ask({ name: 'a', label: 'A', type: 'choice', options: ['x', 'y', 'x'] }),
      '/fields/0/options/2',
      /repeats an earlier option/,
    ],
    [
      'an empty option',
      ask({ name: 'a', label: 'A', type: 'choice', options: ['x', ''] }),
      '/fields/0/options/1',
      /must not be empty/,
    ],
    ['min over max', ask({ name: 'a', label: 'A', type: 'number', min: 10, max: 1 }), '/fields/0/min', /more than max/],
    ['expires_in under 30', { ...askExample(), expires_in: 10 }, '/expires_in', /at least 30/],
    ['respondents without max', { ...askExample(), respondents: { name: true } }, '/respondents/max', /is required/],
    ['respondents.max of 0', { ...askExample(), respondents: { max: 0 } }, '/respondents/max', /at least 1/],
    [
      'respondent_expires_in under 30',
      { ...askExample(), respondents: { max: 2, respondent_expires_in: 5 } },
      '/respondents/respondent_expires_in',
      /at least 30/,
    ],
    [
      'two deadlines',
      { ...askExample(), expires_in: 600, respondents: { max: 2, expires_in: 600 } },
      '/respondents/expires_in',
      /Give it once/,
    ],
    [
      'answer_in_chat true for an Ask',
      { ...askExample(), respondents: { max: 2 }, answer_in_chat: true },
      '/answer_in_chat',
      /An Ask's link is for others: it is never answered in the chat\./,
    ],
    ['an answer_in_chat that is not a boolean', { ...askExample(), answer_in_chat: 'yes' }, '/answer_in_chat', /boolean/],
    [
      'assurance account for an Ask',
      { ...askExample(), respondents: { max: 2 }, assurance: 'account' },
      '/assurance',
      /respondents\.people/,
    ],
    [
      'assurance passkey for an Ask with people',
      { ...askExample(), respondents: { people: ['ana@example.com'] }, assurance: 'passkey' },
      '/assurance',
      /not taken on an Ask yet/,
    ],
    ['respondents with neither max nor people', { ...askExample(), respondents: {} }, '/respondents/max', /is required/],
    [
      'a max other than the number of people',
      { ...askExample(), respondents: { max: 3, people: ['ana@example.com', 'bo@example.com'] } },
      '/respondents/max',
      /names 2/,
    ],
    [
      'a person named twice (in another case)',
      { ...askExample(), respondents: { people: ['ana@example.com', 'ANA@Example.com'] } },
      '/respondents/people/1',
      /repeats an earlier address/,
    ],
    [
      'a person who is no address',
      { ...askExample(), respondents: { people: ['ana'] } },
      '/respondents/people/0',
      /not an e-mail/,
    ],
    ['no people', { ...askExample(), respondents: { people: [] } }, '/respondents/people', /must not be empty/],
    [
      'more than 50 people',
      { ...askExample(), respondents: { people: Array.from({ length: 51 }, (_, i) => `p${i}@example.com`) } },
      '/respondents/people',
      /50/,
    ],
    [
      'for with respondents',
      { ...askExample(), respondents: { people: ['ana@example.com'] }, for: ['ana@example.com'] },
      '/for',
      /respondents\.people/,
    ],
    ['assurance of a level there is not', { ...askExample(), assurance: 'high' }, '/assurance', /link|account|passkey/],
    ['for at assurance link', { ...askExample(), for: ['ana@example.com'] }, '/for', /Add assurance: "account"/],
    [
      'for with a repeated address',
      { ...askExample(), assurance: 'account', for: ['ana@example.com', 'ANA@example.com'] },
      '/for/1',
      /repeats/,
    ],
    ['for with no address', { ...askExample(), assurance: 'account', for: ['not-an-email'] }, '/for/0', /not an e-mail/],
    [
      'a field that takes the respondent name',
      { ...ask({ name: RESPONDENT_NAME_FIELD, label: 'Name', type: 'text' }), respondents: { max: 3, name: true } },
      '/fields/0/name',
      /reserved for the "Your name" field/,
    ],
  ])('refuses %s', (_, args, field, message) => {
    const issue = collectAskArgumentsIssues(args)[0];
    expect(issue?.field).toBe(field);
    expect(issue?.message).toMatch(message);
  });

  it('takes answer_in_chat either way for one person, and false (or nothing) for an Ask', () => {
    for (const args of [
      { ...askExample(), answer_in_chat: true },
      { ...askExample(), answer_in_chat: false },
      { ...askExample(), respondents: { max: 2 }, answer_in_chat: false },
    ]) {
      expect(parseAskArguments(args)).toEqual(args);
    }
  });

  it('takes assurance link or account for one person (with for), and link for an Ask', () => {
    for (const args of [
      { ...askExample(), assurance: 'account' },
      { ...askExample(), assurance: 'account', for: ['ana@example.com'] },
      { ...askExample(), respondents: { max: 2 }, assurance: 'link' },
    ]) {
      expect(parseAskArguments(args)).toEqual(args);
    }
  });

  it('takes named people, with or without a max that agrees, and assurance account with them', () => {
    for (const args of [
      { ...askExample(), respondents: { people: ['ana@example.com', 'Bo@Example.com'] } },
      { ...askExample(), respondents: { max: 2, people: ['ana@example.com', 'bo@example.com'], name: true } },
      { ...askExample(), respondents: { people: ['ana@example.com'] }, assurance: 'account' },
      { ...askExample(), respondents: { people: Array.from({ length: 50 }, (_, i) => `p${i}@example.com`) } },
    ]) {
      expect(parseAskArguments(args)).toEqual(args);
    }
  });

  it('never repeats a named address in its messages', () => {
    const issues = collectAskArgumentsIssues({
      ...askExample(),
      respondents: { people: ['secret-ana@example.com', 'SECRET-ana@example.com'] },
    });
    expect(issues.length).toBeGreaterThan(0);
    for (const issue of issues) expect(issue.message.toLowerCase()).not.toContain('secret-ana');
  });

  it('allows respondent_name as an ordinary field when no name is asked', () => {
    expect(collectAskArgumentsIssues(ask({ name: RESPONDENT_NAME_FIELD, label: 'Name', type: 'text' }))).toEqual([]);
  });

  it('refuses arguments whose interaction would be over 32 KiB, at the arguments root', () => {
    const options = Array.from({ length: 30 }, (_, j) => `${j}${codePoints(58)}`);
    const fields = Array.from({ length: 12 }, (_, i): AskField => ({ name: `f${i}`, label: 'Pick', type: 'choice', options }));
    const issues = collectAskArgumentsIssues({ question: 'Which?', fields });
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ field: '', limit: 32768 });
    expect(issues[0]?.message).toMatch(/^The interaction built from these arguments is \d+ bytes of JSON; the limit is 32768/);
  });
});

describe('toSurface', () => {
  const base = { mode: 'interactive', title: 'Quick question?', source: { kind: 'sess_surface' } } as const;

  it.each<[string, AskField, Component]>([
    [
      'text',
      { name: 'note', label: 'Note', type: 'text', multiline: true, max_length: 500, help: 'A line or two.' },
      {
        type: 'field',
        name: 'note',
        label: 'Note',
        description: 'A line or two.',
        multiline: true,
        required: true,
        schema: { type: 'string', maxLength: 500 },
      },
    ],
    [
      'text, short',
      { name: 'note', label: 'Note', type: 'text', required: false },
      { type: 'field', name: 'note', label: 'Note', required: false, schema: { type: 'string' } },
    ],
    [
      'number',
      { name: 'budget', label: 'Budget', type: 'number', min: 0, max: 99.5 },
      { type: 'field', name: 'budget', label: 'Budget', required: true, schema: { type: 'number', minimum: 0, maximum: 99.5 } },
    ],
    [
      'integer',
      { name: 'people', label: 'People', type: 'integer', min: 1 },
      { type: 'field', name: 'people', label: 'People', required: true, schema: { type: 'integer', minimum: 1 } },
    ],
    [
      'boolean',
      { name: 'ok', label: 'OK?', type: 'boolean' },
      { type: 'field', name: 'ok', label: 'OK?', required: true, schema: { type: 'boolean' } },
    ],
    [
      'choice',
      { name: 'place', label: 'Where to?', type: 'choice', options: ['Beach', 'City'] },
      { type: 'field', name: 'place', label: 'Where to?', required: true, schema: { type: 'string', enum: ['Beach', 'City'] } },
    ],
    [
      'multi_choice',
      { name: 'food', label: 'Food', type: 'multi_choice', options: ['Pizza', 'Salad'], required: false },
      {
        type: 'field',
        name: 'food',
        label: 'Food',
        required: false,
        schema: { type: 'array', items: { type: 'string', enum: ['Pizza', 'Salad'] } },
      },
    ],
    [
      'rating',
      { name: 'stars', label: 'How was it?', type: 'rating' },
      { type: 'field', name: 'stars', label: 'How was it?', required: true, schema: { type: 'integer', minimum: 1, maximum: 5 } },
    ],
  ])('turns a %s field into a field component', (_, askField, component) => {
    const surface = toSurface(parseAskArguments(ask(askField)));
    expect(surface).toEqual({ ...base, source: { ...base.source, components: [component] } });
    expect(parseSurface(surface, '/interaction')).toEqual(surface);
  });

  it("turns the seed's example into details text, fields and its one submit button", () => {
    expect(toSurface(parseAskArguments(askExample()))).toEqual({
      mode: 'interactive',
      title: 'Where should we go on Saturday?',
      source: {
        kind: 'sess_surface',
        components: [
          { type: 'text', text: 'I will check the forecast and suggest a plan.' },
          {
            type: 'field',
            name: 'place',
            label: 'Where to?',
            required: true,
            schema: { type: 'string', enum: ['Beach', 'Mountains', 'City'] },
          },
          { type: 'field', name: 'avoid', label: 'Anything to avoid?', required: false, schema: { type: 'string' } },
        ],
      },
      actions: [{ id: 'submit', label: 'Plan it', intent: 'submit' }],
    });
  });

  it('leaves actions out without submit_label (the default Submit button)', () => {
    expect(toSurface(ask({ name: 'a', label: 'A', type: 'boolean' })).actions).toBeUndefined();
  });

  it('puts a required "Your name" field first when respondents.name is true', () => {
    const surface = toSurface(parseAskArguments({ ...askExample(), respondents: { max: 5, name: true } }));
    expect(surface.source.components[1]).toEqual({
      type: 'field',
      name: RESPONDENT_NAME_FIELD,
      label: 'Your name',
      required: true,
      schema: { type: 'string', maxLength: 60 },
    });
  });

  it('does not share arrays with the arguments', () => {
    const args = ask({ name: 'a', label: 'A', type: 'choice', options: ['x'] });
    const surface = toSurface(args);
    (args.fields[0] as { options: string[] }).options.push('y');
    expect(surface.source.components[0]).toMatchObject({ schema: { enum: ['x'] } });
  });

  it('builds a valid interaction from a full 12-field ask', () => {
    const surface = toSurface(parseAskArguments(fullAsk()));
    expect(surface.source.components.filter((component) => component.type === 'field')).toHaveLength(12);
    expect(parseSurface(surface)).toEqual(surface);
  });
});
