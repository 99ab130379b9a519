import { describe, expect, it } from 'vitest';
import type { AnswerResult } from './answer.ts';
import { validateAnswer } from './answer.ts';
import { parseAskArguments } from './ask.ts';
import type { FieldComponent, Surface } from './schema.ts';
import { fullAsk, sampleSurface, surfaceWith } from './test-fixtures.ts';
import { toSurface } from './to-surface.ts';

function form(schema: FieldComponent['schema'], extra: Partial<FieldComponent> = {}): Surface {
  return surfaceWith({ type: 'field', name: 'a', label: 'A', schema, ...extra });
}

function answer(surface: Surface, value: unknown, actionId?: string): AnswerResult {
  return validateAnswer(surface, { actionId, values: value === undefined ? {} : { a: value } });
}

function accepted(value: unknown) {
  return { ok: true, actionId: 'submit', values: value === undefined ? {} : { a: value } };
}

function refused(code: string, field: string | null = 'a') {
  return { ok: false, errors: [expect.objectContaining({ field, code, message: expect.any(String) })] };
}

describe('text', () => {
  const text = form({ type: 'string', maxLength: 10 });

  it.each<[string, unknown, unknown]>([
    ['a string', 'hello', accepted('hello')],
    ['CRLF line breaks as \\n', 'a\r\nb', accepted('a\nb')],
    ['exactly maxLength in code points', '😀'.repeat(10), accepted('😀'.repeat(10))],
    ['one over maxLength', '😀'.repeat(11), refused('too_long')],
    ['empty, when required', '', refused('required')],
    ['absent, when required', undefined, refused('required')],
    ['a number', 5, refused('type')],
    ['a list', ['a'], refused('type')],
  ])('%s', (_, value, expected) => {
    expect(answer(text, value)).toEqual(expected);
  });

  it.each([
    ['NUL', 'ab\u0000', 'an invisible control character (U+0000) at character 3'],
    ['ESC', '\u001B[2J', 'an invisible control character (U+001B) at character 1'],
    ['an unpaired surrogate', 'x\uD800', "a character that can't be saved (U+D800) at character 2"],
    ['a noncharacter', '\uFFFE', "a character that can't be saved (U+FFFE) at character 1"],
  ])('refuses %s in a text answer, saying where, for the person', (_, value, words) => {
    const result = answer(text, value);
    expect(result).toEqual(refused('character'));
    expect(result.ok === false && result.errors[0]!.message).toBe(`This has ${words}. Remove it and send again.`);
  });

  it("keeps a person's right-to-left controls and tabs (the pages isolate what they show)", () => {
    expect(answer(text, '\u202Eabc\u202C\t')).toEqual(accepted('\u202Eabc\u202C\t'));
  });

  it('leaves an empty optional field out of the values', () => {
    expect(answer(form({ type: 'string' }, { required: false }), '')).toEqual(accepted(undefined));
  });

  it('holds an answer to 4000 code points when the schema gives no maxLength', () => {
    expect(answer(form({ type: 'string' }), 'x'.repeat(4000)).ok).toBe(true);
    expect(answer(form({ type: 'string' }), 'x'.repeat(4001))).toEqual(refused('too_long'));
  });

  it('checks minLength, pattern and every format', () => {
    expect(answer(form({ type: 'string', minLength: 3 }), 'ab')).toEqual(refused('too_short'));
    expect(answer(form({ type: 'string', pattern: '^[A-Z]{3}-\\d+$' }), 'ABC-1')).toEqual(accepted('ABC-1'));
    expect(answer(form({ type: 'string', pattern: '^[A-Z]{3}-\\d+$' }), 'abc-1')).toEqual(refused('pattern'));
    const cases: [NonNullable<Extract<FieldComponent['schema'], { type: 'string' }>['format']>, string, string][] = [
      ['email', 'ana@example.com', 'ana@example'],
      ['uri', 'https://sess.si/a?b=1', 'sess.si'],
      ['date', '2024-02-29', '2023-02-29'],
      ['time', '14:30', '24:00'],
      ['date-time', '2025-06-30T14:30', '2025-06-31T14:30'],
      ['date-time', '2025-06-30T14:30:05.123+02:00', '2025-06-30 25:00'],
    ];
    for (const [format, good, bad] of cases) {
      expect(answer(form({ type: 'string', format }), good)).toEqual(accepted(good));
      expect(answer(form({ type: 'string', format }), bad)).toEqual(refused('format'));
    }
  });
});

describe('number and integer', () => {
  const number = form({ type: 'number', minimum: 0, maximum: 10 });
  const integer = form({ type: 'integer', minimum: 1, maximum: 5 });

  it.each<[string, Surface, unknown, unknown]>([
    ['a JSON number', number, 2.5, accepted(2.5)],
    ['a form string', number, '2.5', accepted(2.5)],
    ['a form string with spaces', number, ' 7 ', accepted(7)],
    ['an exponent', number, '1e1', accepted(10)],
    ['below minimum', number, '-1', refused('too_small')],
    ['above maximum', number, 10.5, refused('too_big')],
    ['not a number', number, 'ten', refused('type')],
    ['a hex string', number, '0x10', refused('type')],
    ['an overflowing string', number, '1e400', refused('type')],
    ['NaN', number, Number.NaN, refused('type')],
    ['a boolean', number, true, refused('type')],
    ['empty, required', number, '', refused('required')],
    ['a whole number string', integer, '3', accepted(3)],
    ['a whole JSON number', integer, 5, accepted(5)],
    ['decimals', integer, '3.5', refused('type')],
    ['over an integer maximum', integer, '6', refused('too_big')],
  ])('%s', (_, surface, value, expected) => {
    expect(answer(surface, value)).toEqual(expected);
  });
});

describe('boolean (a checkbox)', () => {
  const box = form({ type: 'boolean' });

  it.each<[string, unknown, unknown]>([
    ['"on" when checked', 'on', accepted(true)],
    ['absent when not checked, as false', undefined, accepted(false)],
    ['true', true, accepted(true)],
    ['false', false, accepted(false)],
    ['"true"', 'true', accepted(true)],
    ['"false"', 'false', accepted(false)],
    ['"yes"', 'yes', refused('type')],
    ['1', 1, refused('type')],
  ])('%s', (_, value, expected) => {
    expect(answer(box, value)).toEqual(expected);
  });
});

describe('choice and multi-choice', () => {
  const choice = form({ type: 'string', enum: ['beach', 'city'], option_labels: ['Beach', 'City'] });
  const multi = form(
    { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2 },
    { required: false },
  );

  it.each<[string, Surface, unknown, unknown]>([
    ['a listed ID', choice, 'city', accepted('city')],
    ['a label instead of the ID', choice, 'City', refused('enum')],
    ['an unknown ID', choice, 'moon', refused('enum')],
    ['two values for one choice', choice, ['beach', 'city'], refused('type')],
    ['several IDs, in enum order', multi, ['b', 'a'], accepted(['a', 'b'])],
    ['one checked box posted as a string', multi, 'c', accepted(['c'])],
    ['an unknown ID among them', multi, ['a', 'z'], refused('enum')],
    ['a repeated ID', multi, ['a', 'a'], refused('duplicate')],
    ['more than maxItems', multi, ['a', 'b', 'c'], refused('too_many')],
    ['nothing chosen, optional', multi, [], accepted(undefined)],
    ['a non-string in the list', multi, ['a', 1], refused('type')],
  ])('%s', (_, surface, value, expected) => {
    expect(answer(surface, value)).toEqual(expected);
  });

  it('applies minItems to a given answer and required to an empty one', () => {
    const atLeastTwo = form({ type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 2 });
    expect(answer(atLeastTwo, ['a'])).toEqual(refused('too_few'));
    expect(answer(atLeastTwo, [])).toEqual(refused('required'));
  });
});

describe('rating (from sess_ask)', () => {
  const rating = toSurface(
    parseAskArguments({ question: 'How was it?', fields: [{ name: 'a', label: 'Stars', type: 'rating' }] }),
  );

  it.each<[unknown, unknown]>([
    ['1', accepted(1)],
    ['5', accepted(5)],
    [4, accepted(4)],
    ['0', refused('too_small')],
    ['6', refused('too_big')],
    ['4.5', refused('type')],
  ])('%j', (value, expected) => {
    expect(answer(rating, value)).toEqual(expected);
  });
});

describe('buttons and unknown fields', () => {
  const sample = sampleSurface();

  it('returns the chosen action', () => {
    expect(validateAnswer(sample, { actionId: 'approve', values: { message: 'Fix typo' } })).toEqual({
      ok: true,
      actionId: 'approve',
      values: { message: 'Fix typo' },
    });
  });

  it('lets a reject button leave required fields empty', () => {
    expect(validateAnswer(sample, { actionId: 'stop', values: { message: '' } })).toEqual({
      ok: true,
      actionId: 'stop',
      values: {},
    });
    expect(validateAnswer(sample, { actionId: 'approve', values: { message: '' } })).toEqual(refused('required', 'message'));
  });

  it('still checks what a reject button sends', () => {
    expect(validateAnswer(sample, { actionId: 'stop', values: { message: 'x'.repeat(2001) } })).toEqual(
      refused('too_long', 'message'),
    );
  });

  it('refuses an unknown button, and a missing one when there are several', () => {
    expect(validateAnswer(sample, { actionId: 'merge', values: { message: 'x' } })).toEqual(refused('unknown_action', null));
    expect(validateAnswer(sample, { values: { message: 'x' } })).toEqual(refused('action_required', null));
  });

  it('uses the only button when none is named (the default Submit)', () => {
    expect(answer(form({ type: 'boolean' }), 'on')).toEqual(accepted(true));
    expect(answer(form({ type: 'boolean' }), 'on', 'submit')).toEqual(accepted(true));
    expect(answer(form({ type: 'boolean' }), 'on', 'approve')).toEqual(refused('unknown_action', null));
  });

  it('refuses unknown fields, including a JSON __proto__, without touching any prototype', () => {
    const values = JSON.parse('{"message":"ok","__proto__":{"polluted":true},"extra":"x"}');
    const result = validateAnswer(sample, { actionId: 'approve', values });
    expect(result).toEqual({
      ok: false,
      errors: [
        expect.objectContaining({ field: '__proto__', code: 'unknown_field' }),
        expect.objectContaining({ field: 'extra', code: 'unknown_field' }),
      ],
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('lists errors button first, then fields in form order', () => {
    const surface = toSurface(parseAskArguments(fullAsk()));
    const result = validateAnswer(surface, { actionId: 'nope', values: { q1: 'abc', q0: 'x'.repeat(501) } });
    expect(result.ok).toBe(false);
    const fields = result.ok ? [] : result.errors.map((error) => error.field);
    expect(fields.slice(0, 4)).toEqual([null, 'q0', 'q1', 'q2']);
  });

  it('accepts a full 12-field answer as the page posts it', () => {
    const surface = toSurface(parseAskArguments(fullAsk()));
    const posted = {
      q0: 'Lovely\r\nweather',
      q1: '12.5',
      q2: '7',
      q3: 'on',
      q4: 'Beach',
      q5: ['Lake', 'City'],
      q6: '4',
      q7: 'More hikes',
      q8: '0',
      q9: '100',
      q11: 'Mountains',
    };
    expect(validateAnswer(surface, { values: posted })).toEqual({
      ok: true,
      actionId: 'submit',
      values: {
        q0: 'Lovely\nweather',
        q1: 12.5,
        q2: 7,
        q3: true,
        q4: 'Beach',
        q5: ['City', 'Lake'],
        q6: 4,
        q7: 'More hikes',
        q8: 0,
        q9: 100,
        q10: false,
        q11: 'Mountains',
      },
    });
  });
});
