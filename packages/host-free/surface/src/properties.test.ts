import { isAcceptableText, toPointer } from '@sess/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateAnswer } from './answer.ts';
import { checkAskArguments, collectAskArgumentsIssues } from './ask.ts';
import type { AskArguments, AskField, AskFieldType } from './ask-schema.ts';
import { ASK_FIELD_TYPES } from './ask-schema.ts';
import { hashSurface } from './canonical.ts';
import { jsonByteLength } from './guard.ts';
import { LIMITS } from './limits.ts';
import type { Action, Component, FieldComponent, FieldType, Surface } from './schema.ts';
import { ACTION_INTENTS, STRING_FORMATS } from './schema.ts';
import { toSurface } from './to-surface.ts';
import { collectSurfaceIssues, parseRequestArguments, parseSurface } from './validate.ts';
import { checkTypedValue } from './value-check.ts';

/* Strings are built from single code points, half of them outside the BMP or combining, so a
 * UTF-16 count would be wrong on almost every generated value. Any code point the character rule
 * accepts may appear (those it refuses have their own tests). */
const codePoint = fc.oneof(
  fc.constantFrom('a', 'Z', ' ', 'é', '\u0301', '\u0308', '😀', '𝄞', '中', '🇸', '/', '~', '\n'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((unit) => isAcceptableText(unit)),
);
const text = (min: number, max: number) => fc.array(codePoint, { minLength: min, maxLength: max }).map((units) => units.join(''));
/** Mostly short, sometimes exactly at the limit. */
const readable = (limit: number) =>
  fc.oneof({ weight: 8, arbitrary: text(1, Math.min(limit, 30)) }, { weight: 1, arbitrary: text(limit, limit) });

const choiceIds = fc.uniqueArray(readable(LIMITS.label), { minLength: 1, maxLength: 6 });

function pickSubsequence(ids: string[]) {
  return fc.array(fc.boolean(), { minLength: ids.length, maxLength: ids.length }).map((keep) => ids.filter((_, i) => keep[i]));
}

type FieldBody = Omit<FieldComponent, 'name'>;

const plainTextField: fc.Arbitrary<FieldBody> = fc
  .record({
    maxLength: fc.option(fc.integer({ min: 30, max: LIMITS.text }), { nil: undefined }),
    multiline: fc.option(fc.boolean(), { nil: undefined }),
  })
  .chain(({ maxLength, multiline }) =>
    fc.record(
      {
        type: fc.constant('field' as const),
        label: readable(LIMITS.label),
        multiline: fc.constant(multiline),
        schema: fc.constant<FieldType>(maxLength === undefined ? { type: 'string' } : { type: 'string', maxLength }),
        value: text(0, 30),
      },
      { requiredKeys: ['type', 'label', 'schema'] },
    ),
  );

const formattedField: fc.Arbitrary<FieldBody> = fc.record({
  type: fc.constant('field' as const),
  label: readable(LIMITS.label),
  schema: fc.oneof(
    fc.constantFrom(...STRING_FORMATS).map((format): FieldType => ({ type: 'string', format })),
    fc.constantFrom('^[A-Z]{3}-\\d+$', '^\\d{4}$', '\\p{L}').map((pattern): FieldType => ({ type: 'string', pattern })),
  ),
});

const choiceField: fc.Arbitrary<FieldBody> = choiceIds.chain((ids) =>
  fc.record(
    {
      type: fc.constant('field' as const),
      label: readable(LIMITS.label),
      schema: fc
        .array(readable(LIMITS.label), { maxLength: ids.length })
        .map(
          (labels): FieldType =>
            labels.length > 0 ? { type: 'string', enum: ids, option_labels: labels } : { type: 'string', enum: ids },
        ),
      value: fc.constantFrom(...ids),
    },
    { requiredKeys: ['type', 'label', 'schema'] },
  ),
);

const multiChoiceField: fc.Arbitrary<FieldBody> = choiceIds.chain((ids) =>
  fc.record(
    {
      type: fc.constant('field' as const),
      label: readable(LIMITS.label),
      schema: fc.array(readable(LIMITS.label), { maxLength: ids.length }).map(
        (labels): FieldType => ({
          type: 'array',
          items: labels.length > 0 ? { type: 'string', enum: ids, option_labels: labels } : { type: 'string', enum: ids },
        }),
      ),
      value: pickSubsequence(ids),
    },
    { requiredKeys: ['type', 'label', 'schema'] },
  ),
);

const numberField: fc.Arbitrary<FieldBody> = fc
  .tuple(
    fc.constantFrom('number' as const, 'integer' as const),
    fc.integer({ min: -1000, max: 1000 }),
    fc.integer({ min: 0, max: 1000 }),
  )
  .chain(([type, minimum, span]) =>
    fc.record(
      {
        type: fc.constant('field' as const),
        label: readable(LIMITS.label),
        schema: fc.constant<FieldType>({ type, minimum, maximum: minimum + span }),
        value: fc.integer({ min: minimum, max: minimum + span }),
      },
      { requiredKeys: ['type', 'label', 'schema'] },
    ),
  );

const booleanField: fc.Arbitrary<FieldBody> = fc.record(
  {
    type: fc.constant('field' as const),
    label: readable(LIMITS.label),
    schema: fc.constant<FieldType>({ type: 'boolean' }),
    value: fc.boolean(),
  },
  { requiredKeys: ['type', 'label', 'schema'] },
);

const fieldBody = fc
  .tuple(
    fc.oneof(plainTextField, formattedField, choiceField, multiChoiceField, numberField, booleanField),
    fc.option(readable(LIMITS.help), { nil: undefined }),
    fc.option(fc.boolean(), { nil: undefined }),
  )
  .map(([body, description, required]) => {
    const field = { ...body };
    if (description !== undefined) field.description = description;
    if (required !== undefined) field.required = required;
    if (field.multiline === undefined) delete field.multiline;
    return field;
  });

const recordKey = readable(LIMITS.recordKey).filter((key) => key !== '__proto__' && key !== 'constructor' && key !== 'prototype');

const component: fc.Arbitrary<Component | FieldBody> = fc.oneof(
  readable(LIMITS.heading).map((t): Component => ({ type: 'heading', text: t })),
  readable(LIMITS.text).map((t): Component => ({ type: 'text', text: t })),
  fc
    .record({ label: readable(LIMITS.recordLabel), fields: fc.dictionary(recordKey, text(0, 40), { minKeys: 1, maxKeys: 4 }) })
    .map((record): Component => ({ type: 'record', ...record })),
  fieldBody,
);

const actions: fc.Arbitrary<Action[]> = fc
  .uniqueArray(fc.stringMatching(/^[a-z][a-z0-9_]{0,10}$/), { minLength: 1, maxLength: 5 })
  .chain((ids) =>
    fc.tuple(
      ...ids.map((id) =>
        fc.record({ id: fc.constant(id), label: readable(LIMITS.button), intent: fc.constantFrom(...ACTION_INTENTS) }),
      ),
    ),
  );

/** Valid interactions: names unique by construction, values fitting their schema, at most 32 KiB. */
const surface: fc.Arbitrary<Surface> = fc
  .record(
    {
      title: readable(LIMITS.title),
      description: readable(LIMITS.description),
      components: fc.array(component, { maxLength: 8 }),
      actions,
    },
    { requiredKeys: ['title', 'components'] },
  )
  .map(({ title, description, components, actions }) => {
    const named = components.map(
      (c, i): Component => (c.type === 'field' ? ({ ...c, name: `f${i}` } as FieldComponent) : (c as Component)),
    );
    const result: Surface = { mode: 'interactive', title, source: { kind: 'sess_surface', components: named } };
    if (description !== undefined) result.description = description;
    if (actions !== undefined) result.actions = actions;
    return result;
  })
  .filter((s) => jsonByteLength(s) <= 32 * 1024);

/** Every string a person reads in a surface, with its pointer path and its limit. */
function readableStrings(s: Surface): { path: (string | number)[]; limit: number; title?: boolean; recordKey?: boolean }[] {
  const out: { path: (string | number)[]; limit: number; title?: boolean; recordKey?: boolean }[] = [
    { path: ['title'], limit: LIMITS.title, title: true },
  ];
  if (s.description !== undefined) out.push({ path: ['description'], limit: LIMITS.description });
  s.source.components.forEach((c, i) => {
    const at = ['source', 'components', i];
    if (c.type === 'heading') out.push({ path: [...at, 'text'], limit: LIMITS.heading });
    if (c.type === 'text') out.push({ path: [...at, 'text'], limit: LIMITS.text });
    if (c.type === 'record') {
      out.push({ path: [...at, 'label'], limit: LIMITS.recordLabel });
      for (const key of Object.keys(c.fields)) {
        out.push({ path: [...at, 'fields', key], limit: LIMITS.recordValue });
        out.push({ path: [...at, 'fields', key], limit: LIMITS.recordKey, recordKey: true });
      }
    }
    if (c.type === 'field') {
      out.push({ path: [...at, 'label'], limit: LIMITS.label });
      if (c.description !== undefined) out.push({ path: [...at, 'description'], limit: LIMITS.help });
      const choice =
        c.schema.type === 'array'
          ? { at: [...at, 'schema', 'items'], items: c.schema.items }
          : c.schema.type === 'string' && c.schema.enum
            ? { at: [...at, 'schema'], items: c.schema }
            : undefined;
      if (choice?.items.enum) {
        const labels = choice.items.option_labels ?? [];
        labels.forEach((_, j) => {
          out.push({ path: [...choice.at, 'option_labels', j], limit: LIMITS.label });
        });
        choice.items.enum.forEach((_, j) => {
          if (j >= labels.length) out.push({ path: [...choice.at, 'enum', j], limit: LIMITS.label });
        });
      }
    }
  });
  (s.actions ?? []).forEach((_, i) => {
    out.push({ path: ['actions', i, 'label'], limit: LIMITS.button });
  });
  return out;
}

function setAt(root: unknown, path: (string | number)[], value: string, renameKey: boolean): void {
  let node = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (!renameKey) {
    node[last] = value;
    return;
  }
  // Rename a record key in place, keeping the order of the others.
  const entries = Object.entries(node).map(([key, v]) => (key === last ? [value, v] : [key, v]));
  for (const key of Object.keys(node)) delete node[key];
  for (const [key, v] of entries) node[key as string] = v;
}

describe('properties of interactions', () => {
  it('a random valid interaction passes and comes back deep-equal (nothing truncated or dropped)', () => {
    fc.assert(
      fc.property(surface, (s) => {
        const snapshot = structuredClone(s);
        expect(parseSurface(s, '/interaction')).toEqual(snapshot);
        expect(parseRequestArguments({ interaction: s })).toEqual({ interaction: snapshot });
        expect(hashSurface(parseSurface(s))).toBe(hashSurface(snapshot));
      }),
      { numRuns: 300 },
    );
  });

  it('a random over-limit string always fails, at its own pointer, with limit and length', () => {
    fc.assert(
      fc.property(surface, fc.nat(), fc.integer({ min: 1, max: 5 }), (s, pick, over) => {
        const targets = readableStrings(s);
        const target = targets[pick % targets.length]!;
        const mutated = structuredClone(s);
        const long = [...'😀é\u0301中'.repeat(target.limit + over)].slice(0, target.limit + over).join('');
        setAt(mutated, target.path, long, target.recordKey === true);
        fc.pre(jsonByteLength(mutated) <= 32 * 1024);
        const pointer = `/interaction${toPointer(target.recordKey ? [...target.path.slice(0, -1), long] : target.path)}`;
        const issues = collectSurfaceIssues(mutated, '/interaction');
        expect(issues).toHaveLength(1);
        expect(issues[0]).toMatchObject({ field: pointer, limit: target.limit, length: target.limit + over });
        expect(issues[0]?.message).toBe(
          target.title
            ? 'The title can be at most 80 characters. Keep it to a short heading, about 40.'
            : `${pointer} is ${target.limit + over} characters; the limit is ${target.limit}. Shorten it to at most ${target.limit} characters.`,
        );
      }),
      { numRuns: 300 },
    );
  });

  it("a field's initial values are accepted as the answer", () => {
    fc.assert(
      fc.property(surface, (s) => {
        const values: Record<string, unknown> = {};
        const freeText = new Set<string>();
        const optional = structuredClone(s);
        for (const c of optional.source.components) {
          if (c.type !== 'field') continue;
          if (c.value !== undefined) values[c.name] = c.value;
          if (c.schema.type === 'string' && !('enum' in c.schema && c.schema.enum)) freeText.add(c.name);
          // An empty initial value is no answer, so only an optional field may keep it.
          if (c.value === undefined || c.value === '' || (Array.isArray(c.value) && c.value.length === 0)) c.required = false;
        }
        const actionId = (optional.actions ?? [{ id: 'submit' }])[0]!.id;
        const result = validateAnswer(optional, { actionId, values });
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        for (const [name, value] of Object.entries(values)) {
          if (value === '' || (Array.isArray(value) && value.length === 0)) expect(result.values[name]).toBeUndefined();
          // Free text comes back with line breaks as \n (browsers post CRLF); choices come back as sent.
          else if (freeText.has(name)) expect(result.values[name]).toEqual(String(value).replace(/\r\n?/g, '\n'));
          else expect(result.values[name]).toEqual(value);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('validateAnswer never throws and only ever returns known fields with values that fit', () => {
    const submitted = fc.dictionary(fc.oneof(fc.constantFrom('f0', 'f1', 'f2', 'f3', '__proto__'), fc.string()), fc.jsonValue());
    fc.assert(
      fc.property(surface, submitted, fc.option(fc.string(), { nil: undefined }), (s, values, actionId) => {
        const result = validateAnswer(s, { actionId, values });
        if (!result.ok) return;
        const fields = new Map(s.source.components.flatMap((c) => (c.type === 'field' ? [[c.name, c] as const] : [])));
        for (const [name, value] of Object.entries(result.values)) {
          const field = fields.get(name);
          expect(field).toBeDefined();
          expect(checkTypedValue(field!.schema, value)).toBeUndefined();
        }
      }),
      { numRuns: 300 },
    );
  });
});

type GeneratedField = Omit<AskField, 'name'>;

/** A field with only the options every type has: what a type without options of its own gets. */
const plainField = (type: AskFieldType) =>
  fc.record(
    { label: readable(LIMITS.label), type: fc.constant(type), help: readable(LIMITS.help), required: fc.boolean() },
    { requiredKeys: ['label', 'type'] },
  ) as fc.Arbitrary<GeneratedField>;

const boundedField = (type: 'number' | 'integer') =>
  fc.record(
    {
      label: readable(LIMITS.label),
      type: fc.constant(type),
      min: fc.integer({ max: 0 }),
      max: fc.integer({ min: 0 }),
      required: fc.boolean(),
    },
    { requiredKeys: ['label', 'type'] },
  );

const optionsField = (type: 'choice' | 'multi_choice') =>
  fc.record({
    label: readable(LIMITS.label),
    type: fc.constant(type),
    options: fc.uniqueArray(readable(LIMITS.label), { minLength: 1, maxLength: 6 }),
  });

/** The types with options of their own; every other type of the schema is generated plain. */
const withOwnOptions: Partial<Record<AskFieldType, fc.Arbitrary<GeneratedField>>> = {
  text: fc.record(
    {
      label: readable(LIMITS.label),
      type: fc.constant('text' as const),
      multiline: fc.boolean(),
      max_length: fc.integer({ min: 1, max: LIMITS.text }),
      help: readable(LIMITS.help),
    },
    { requiredKeys: ['label', 'type'] },
  ),
  number: boundedField('number'),
  integer: boundedField('integer'),
  choice: optionsField('choice'),
  multi_choice: optionsField('multi_choice'),
};

/** Any field of any type the schema lists (ASK_FIELD_TYPES), so a new type is generated too. */
const askField: fc.Arbitrary<GeneratedField> = fc.oneof(
  ...ASK_FIELD_TYPES.map((type) => withOwnOptions[type] ?? plainField(type)),
);

const ask: fc.Arbitrary<AskArguments> = fc
  .record(
    {
      question: readable(LIMITS.title),
      details: readable(LIMITS.text),
      fields: fc.array(askField, { minLength: 1, maxLength: 12 }),
      submit_label: readable(LIMITS.button),
      expires_in: fc.integer({ min: 30, max: 86400 }),
      respondents: fc.record({ max: fc.integer({ min: 1, max: 100 }), name: fc.boolean() }, { requiredKeys: ['max'] }),
    },
    { requiredKeys: ['question', 'fields'] },
  )
  .map((args) => ({ ...args, fields: args.fields.map((f, i) => ({ ...f, name: i === 0 ? 'first' : `q${i}` }) as AskField) }))
  .filter((args) => jsonByteLength(toSurface(args)) <= 32 * 1024);

describe('properties of sess_ask', () => {
  it('a random valid ask passes, comes back deep-equal, and its interaction passes the same rules', () => {
    fc.assert(
      fc.property(ask, (args) => {
        const snapshot = structuredClone(args);
        const checked = checkAskArguments(args);
        expect(checked).toEqual({ ok: true, value: snapshot });
        const built = toSurface(args);
        expect(parseSurface(built, '/interaction')).toEqual(built);
        const fieldCount = built.source.components.filter((c) => c.type === 'field').length;
        expect(fieldCount).toBe(args.fields.length + (args.respondents?.name === true ? 1 : 0));
      }),
      { numRuns: 300 },
    );
  });

  it('a random over-limit string always fails at its own pointer', () => {
    fc.assert(
      fc.property(ask, fc.nat(), fc.integer({ min: 1, max: 5 }), (args, pick, over) => {
        const targets: { path: (string | number)[]; limit: number }[] = [{ path: ['question'], limit: LIMITS.title }];
        if (args.details !== undefined) targets.push({ path: ['details'], limit: LIMITS.text });
        if (args.submit_label !== undefined) targets.push({ path: ['submit_label'], limit: LIMITS.button });
        args.fields.forEach((f, i) => {
          targets.push({ path: ['fields', i, 'label'], limit: LIMITS.label });
          if (f.help !== undefined) targets.push({ path: ['fields', i, 'help'], limit: LIMITS.help });
          if ('options' in f) {
            for (let j = 0; j < f.options.length; j++) targets.push({ path: ['fields', i, 'options', j], limit: LIMITS.label });
          }
        });
        const target = targets[pick % targets.length]!;
        const mutated = structuredClone(args);
        setAt(mutated, target.path, [...'𝄞a\u0308'.repeat(target.limit + over)].slice(0, target.limit + over).join(''), false);
        const issues = collectAskArgumentsIssues(mutated);
        fc.pre(issues[0]?.field !== '');
        expect(issues).toHaveLength(1);
        expect(issues[0]).toMatchObject({ field: toPointer(target.path), limit: target.limit, length: target.limit + over });
      }),
      { numRuns: 300 },
    );
  });
});
