import { SessError } from '@sess/core';
import { describe, expect, it } from 'vitest';
import { parseAskArguments } from './ask.ts';
import type { AskArguments } from './ask-schema.ts';
import { countCodePoints, LIMITS } from './limits.ts';
import type { Surface } from './schema.ts';
import { askExample, codePoints, fieldOfKind, surfaceWith } from './test-fixtures.ts';
import { parseRequestArguments } from './validate.ts';

function thrown(run: () => unknown): SessError {
  try {
    run();
  } catch (error) {
    if (error instanceof SessError) return error;
    throw error;
  }
  throw new Error('expected a SessError');
}

describe('countCodePoints', () => {
  it.each([
    ['', 0],
    ['abc', 3],
    ['😀', 1],
    ['e\u0301', 2],
    ['🇸🇮', 2],
    ['𝄞中', 2],
    ['\ud800', 1],
    ['a\udc00b', 3],
  ])('counts %j as %i code points', (text, expected) => {
    expect(countCodePoints(text)).toBe(expected);
  });

  it('builds test strings of exactly the asked code points, longer in UTF-16 units', () => {
    const text = codePoints(80);
    expect(countCodePoints(text)).toBe(80);
    expect(text.length).toBeGreaterThan(80);
  });
});

/** One row per limit of the seed's table: where the string lives and how to put one there. */
interface SurfaceLimitRow {
  what: string;
  field: string;
  limit: number;
  place: (text: string) => Surface;
  title?: boolean;
}

const P = '/interaction';
const C = `${P}/source/components/0`;

const surfaceRows: SurfaceLimitRow[] = [
  { what: 'title', field: `${P}/title`, limit: LIMITS.title, title: true, place: (t) => ({ ...surfaceWith(), title: t }) },
  {
    what: 'description',
    field: `${P}/description`,
    limit: LIMITS.description,
    place: (t) => ({ ...surfaceWith(), description: t }),
  },
  { what: 'heading', field: `${C}/text`, limit: LIMITS.heading, place: (t) => surfaceWith({ type: 'heading', text: t }) },
  { what: 'text', field: `${C}/text`, limit: LIMITS.text, place: (t) => surfaceWith({ type: 'text', text: t }) },
  {
    what: 'record label',
    field: `${C}/label`,
    limit: LIMITS.recordLabel,
    place: (t) => surfaceWith({ type: 'record', label: t, fields: { a: 'b' } }),
  },
  {
    what: 'record key',
    field: `${C}/fields/`,
    limit: LIMITS.recordKey,
    place: (t) => surfaceWith({ type: 'record', label: 'Files', fields: { [t]: 'changed' } }),
  },
  {
    what: 'record value',
    field: `${C}/fields/src~1a.ts`,
    limit: LIMITS.recordValue,
    place: (t) => surfaceWith({ type: 'record', label: 'Files', fields: { 'src/a.ts': t } }),
  },
  { what: 'field label', field: `${C}/label`, limit: LIMITS.label, place: (t) => surfaceWith({ ...fieldOfKind(0), label: t }) },
  {
    what: 'help',
    field: `${C}/description`,
    limit: LIMITS.help,
    place: (t) => surfaceWith({ ...fieldOfKind(0), description: t }),
  },
  {
    what: 'option label',
    field: `${C}/schema/option_labels/1`,
    limit: LIMITS.label,
    place: (t) =>
      surfaceWith({
        type: 'field',
        name: 'pick',
        label: 'Pick',
        schema: { type: 'string', enum: ['a', 'b'], option_labels: ['A', t] },
      }),
  },
  {
    what: 'enum ID shown without a label',
    field: `${C}/schema/enum/1`,
    limit: LIMITS.label,
    place: (t) =>
      surfaceWith({
        type: 'field',
        name: 'pick',
        label: 'Pick',
        schema: { type: 'string', enum: ['a', t], option_labels: ['A'] },
      }),
  },
  {
    what: 'multi-choice enum ID shown without a label',
    field: `${C}/schema/items/enum/0`,
    limit: LIMITS.label,
    place: (t) =>
      surfaceWith({
        type: 'field',
        name: 'pick',
        label: 'Pick',
        schema: { type: 'array', items: { type: 'string', enum: [t, 'b'] } },
      }),
  },
  {
    what: 'button',
    field: `${P}/actions/0/label`,
    limit: LIMITS.button,
    place: (t) => ({ ...surfaceWith(), actions: [{ id: 'go', label: t, intent: 'approve' }] }),
  },
  {
    what: 'initial value over maxLength',
    field: `${C}/value`,
    limit: 100,
    place: (t) =>
      surfaceWith({ type: 'field', name: 'note', label: 'Note', schema: { type: 'string', maxLength: 100 }, value: t }),
  },
  {
    what: 'initial value over the default text limit',
    field: `${C}/value`,
    limit: LIMITS.text,
    place: (t) => surfaceWith({ type: 'field', name: 'note', label: 'Note', schema: { type: 'string' }, value: t }),
  },
  {
    what: 'pattern',
    field: `${C}/schema/pattern`,
    limit: LIMITS.pattern,
    // A class of the same code points: as long as a literal, but small once compiled (a literal
    // of 200 characters is 200 instructions, over the program bound).
    place: (t) => {
      const pattern = `[${Array.from(t).slice(1, -1).join('')}]`;
      return surfaceWith({ type: 'field', name: 'code', label: 'Code', schema: { type: 'string', pattern } });
    },
  },
];

describe('surface limits, in code points', () => {
  describe.each(surfaceRows)('$what ($limit)', (row) => {
    it('accepts exactly the limit, counted in code points', () => {
      const text = codePoints(row.limit);
      expect(text.length).toBeGreaterThan(row.limit);
      const args = { interaction: row.place(text) };
      expect(parseRequestArguments(args)).toEqual(args);
    });

    it('refuses one over, naming the pointer, the limit and the length', () => {
      const text = codePoints(row.limit + 1);
      const error = thrown(() => parseRequestArguments({ interaction: row.place(text) }));
      const field = row.what === 'record key' ? `${row.field}${text}` : row.field;
      expect(error.code).toBe('INVALID_ARGUMENTS');
      expect(error.retryable).toBe(false);
      expect(error.details).toEqual({ field, limit: row.limit, length: row.limit + 1 });
      expect(error.message).toBe(
        row.title
          ? 'The title can be at most 80 characters. Keep it to a short heading, about 40.'
          : `${field} is ${row.limit + 1} characters; the limit is ${row.limit}. Shorten it to at most ${row.limit} characters.`,
      );
    });
  });

  it('holds a labelled enum ID to no length: a long ID with a short label is fine', () => {
    const id = codePoints(LIMITS.label * 3);
    const surface = surfaceWith({
      type: 'field',
      name: 'pick',
      label: 'Pick',
      schema: { type: 'string', enum: [id], option_labels: ['Short'] },
    });
    expect(parseRequestArguments({ interaction: surface }).interaction).toEqual(surface);
  });

  it('escapes a record key in its pointer (RFC 6901)', () => {
    const key = `a/b~${codePoints(LIMITS.recordKey)}`;
    const error = thrown(() =>
      parseRequestArguments({ interaction: surfaceWith({ type: 'record', label: 'Files', fields: { [key]: 'x' } }) }),
    );
    expect(error.details.field).toBe(`${C}/fields/a~1b~0${codePoints(LIMITS.recordKey)}`);
    expect(error.details.length).toBe(LIMITS.recordKey + 4);
  });

  it('counts combining marks as code points of their own (not graphemes)', () => {
    const text = 'e\u0301'.repeat(41); // 41 graphemes, 82 code points
    const error = thrown(() => parseRequestArguments({ interaction: { ...surfaceWith(), title: text } }));
    expect(error.details).toEqual({ field: `${P}/title`, limit: 80, length: 82 });
  });
});

interface AskLimitRow {
  what: string;
  field: string;
  limit: number;
  place: (text: string) => AskArguments;
  title?: boolean;
}

const askRows: AskLimitRow[] = [
  { what: 'question', field: '/question', limit: LIMITS.title, title: true, place: (t) => ({ ...askExample(), question: t }) },
  { what: 'details', field: '/details', limit: LIMITS.text, place: (t) => ({ ...askExample(), details: t }) },
  { what: 'submit_label', field: '/submit_label', limit: LIMITS.button, place: (t) => ({ ...askExample(), submit_label: t }) },
  {
    what: 'field label',
    field: '/fields/0/label',
    limit: LIMITS.label,
    place: (t) => ({ ...askExample(), fields: [{ name: 'x', label: t, type: 'text' }] }),
  },
  {
    what: 'help',
    field: '/fields/0/help',
    limit: LIMITS.help,
    place: (t) => ({ ...askExample(), fields: [{ name: 'x', label: 'X', type: 'boolean', help: t }] }),
  },
  {
    what: 'option',
    field: '/fields/0/options/1',
    limit: LIMITS.label,
    place: (t) => ({ ...askExample(), fields: [{ name: 'x', label: 'X', type: 'multi_choice', options: ['a', t] }] }),
  },
];

describe('sess_ask limits, in code points', () => {
  describe.each(askRows)('$what ($limit)', (row) => {
    it('accepts exactly the limit', () => {
      const args = row.place(codePoints(row.limit));
      expect(parseAskArguments(args)).toEqual(args);
    });

    it('refuses one over, naming the pointer, the limit and the length', () => {
      const error = thrown(() => parseAskArguments(row.place(codePoints(row.limit + 1))));
      expect(error.details).toEqual({ field: row.field, limit: row.limit, length: row.limit + 1 });
      expect(error.message).toBe(
        row.title
          ? 'The title can be at most 80 characters. Keep it to a short heading, about 40.'
          : `${row.field} is ${row.limit + 1} characters; the limit is ${row.limit}. Shorten it to at most ${row.limit} characters.`,
      );
    });
  });

  it("gives the seed's own example error body, word for word", () => {
    const error = thrown(() =>
      parseAskArguments({ ...askExample(), fields: [{ name: 'x', label: 'L'.repeat(72), type: 'text' }] }),
    );
    expect(error.toBody()).toEqual({
      code: 'INVALID_ARGUMENTS',
      message: '/fields/0/label is 72 characters; the limit is 60. Shorten it to at most 60 characters.',
      retryable: false,
      field: '/fields/0/label',
      limit: 60,
      length: 72,
    });
  });
});
