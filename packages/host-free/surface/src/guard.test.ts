import type { SessError } from '@sess/core';
import { describe, expect, it } from 'vitest';
import { collectAskArgumentsIssues, parseAskArguments } from './ask.ts';
import { checkRawInput, depthOf, jsonByteLength } from './guard.ts';
import { askExample, codePoints, fieldOfKind, fullSurface, sampleSurface, surfaceOfBytes, surfaceWith } from './test-fixtures.ts';
import { collectRequestArgumentsIssues, collectSurfaceIssues, parseRequestArguments, parseSurface } from './validate.ts';

function firstIssue(args: unknown) {
  return collectRequestArgumentsIssues(args)[0];
}

/** Deepest container level of a JSON value, the arguments object being level 1. */
function nesting(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(nesting));
}

function multiChoiceArgs(): { interaction: unknown } {
  return {
    interaction: surfaceWith({
      type: 'field',
      name: 'pick',
      label: 'Pick',
      schema: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
    }),
  };
}

describe('unsafe keys, refused at any depth before zod could drop them', () => {
  it.each(['__proto__', 'constructor', 'prototype'])('refuses %s at depth 1 (the arguments)', (key) => {
    const args = JSON.parse(`{"${key}": {}, "interaction": ${JSON.stringify(sampleSurface())}}`);
    expect(firstIssue(args)?.field).toBe(`/${key}`);
    expect(firstIssue(args)?.message).toMatch(/never accepted/);
  });

  it.each(['__proto__', 'constructor', 'prototype'])('refuses %s at depth 4 (inside an action)', (key) => {
    const args = JSON.parse(
      JSON.stringify({ interaction: sampleSurface() }).replace('"id":"approve"', `"${key}":1,"id":"approve"`),
    );
    expect(firstIssue(args)?.field).toBe(`/interaction/actions/0/${key}`);
  });

  it.each(['__proto__', 'constructor', 'prototype'])('refuses %s at depth 8, ahead of the unknown key around it', (key) => {
    const text = JSON.stringify(multiChoiceArgs()).replace('"enum":["a","b"]', `"enum":["a","b"],"extra":{"${key}":1}`);
    const issues = collectRequestArgumentsIssues(JSON.parse(text));
    expect(issues).toHaveLength(1);
    expect(issues[0]?.field).toBe(`/interaction/source/components/0/schema/items/extra/${key}`);
    expect(depthOf('/interaction/source/components/0/schema/items/extra')).toBe(8);
  });

  it('refuses a record key __proto__, which zod would silently drop', () => {
    const args = JSON.parse(
      '{"interaction":{"mode":"interactive","title":"T","source":{"kind":"sess_surface","components":[{"type":"record","label":"R","fields":{"__proto__":"x","a":"b"}}]}}}',
    );
    expect(firstIssue(args)?.field).toBe('/interaction/source/components/0/fields/__proto__');
  });

  it('refuses a field named constructor (it would become a key of the answer)', () => {
    const issues = collectSurfaceIssues(surfaceWith({ ...fieldOfKind(6), name: 'constructor' }), '/interaction');
    expect(issues[0]?.field).toBe('/interaction/source/components/0/name');
  });
});

describe('nesting: at most 8 levels from the tool arguments', () => {
  it('lets the deepest real form (a multi-choice enum, level 8) through', () => {
    const args = multiChoiceArgs();
    expect(nesting(args)).toBe(8);
    expect(parseRequestArguments(args)).toEqual(args);
  });

  it('refuses level 9, naming where it starts', () => {
    const args = JSON.parse(JSON.stringify(multiChoiceArgs()).replace('"enum":["a","b"]', '"enum":[["a"],"b"]'));
    expect(nesting(args)).toBe(9);
    expect(firstIssue(args)).toMatchObject({
      field: '/interaction/source/components/0/schema/items/enum/0',
      limit: 8,
      length: 9,
    });
  });

  it('counts from the arguments root, so a bare interaction at "" has one more level of room', () => {
    const nested = { a: { b: { c: { d: { e: { f: { g: {} } } } } } } };
    expect(checkRawInput(nested)).toEqual([]);
    expect(checkRawInput({ x: nested })).toMatchObject([{ field: '/x/a/b/c/d/e/f/g', limit: 8, length: 9 }]);
    expect(checkRawInput(nested, '/interaction')).toMatchObject([{ field: '/interaction/a/b/c/d/e/f/g' }]);
  });

  it('ends a cyclic object at the nesting limit instead of overflowing the stack', () => {
    const cyclic: Record<string, unknown> = { mode: 'interactive' };
    cyclic.self = cyclic;
    expect(collectSurfaceIssues(cyclic)[0]?.message).toMatch(/nested more than 8 levels/);
  });

  it('refuses values JSON cannot carry instead of dropping them', () => {
    expect(checkRawInput({ title: () => 1 })[0]?.field).toBe('/title');
    expect(checkRawInput({ n: 10n })[0]?.message).toMatch(/not a JSON value/);
  });
});

describe('size: an interaction of at most 32 KiB of JSON', () => {
  it('accepts exactly 32768 bytes', () => {
    const interaction = surfaceOfBytes(32768);
    expect(jsonByteLength(interaction)).toBe(32768);
    expect(parseRequestArguments({ interaction }).interaction).toEqual(interaction);
  });

  it('refuses 32769 bytes at /interaction, with limit and length', () => {
    const error = (() => {
      try {
        parseRequestArguments({ interaction: surfaceOfBytes(32769) });
      } catch (caught) {
        return caught as SessError;
      }
    })();
    expect(error?.details).toEqual({ field: '/interaction', limit: 32768, length: 32769 });
    expect(error?.message).toMatch(/32769 bytes of JSON; the limit is 32768/);
  });

  it('counts UTF-8 bytes, not characters', () => {
    // Eight texts of 1100 emoji: under 9,000 code points but about 35 KB.
    const components = Array.from({ length: 8 }, () => ({ type: 'text' as const, text: '😀'.repeat(1100) }));
    expect(collectSurfaceIssues(surfaceWith(...components), '/interaction')[0]).toMatchObject({
      field: '/interaction',
      limit: 32768,
    });
  });

  it('measures the interaction wherever it sits (sess_publish passes /interaction)', () => {
    expect(collectSurfaceIssues(surfaceOfBytes(32769), '/interaction')[0]?.field).toBe('/interaction');
    expect(parseSurface(surfaceOfBytes(32768))).toBeTruthy();
  });
});

describe('counts', () => {
  it('accepts 24 fields and refuses 25 at the components pointer', () => {
    const ok = fullSurface();
    expect(parseSurface(ok, '/interaction')).toEqual(ok);
    const over = fullSurface();
    over.source.components.push(fieldOfKind(24));
    expect(collectSurfaceIssues(over, '/interaction')).toEqual([
      {
        field: '/interaction/source/components',
        message:
          '/interaction/source/components has 25 fields; the limit is 24. Ask fewer things at once, or ask the rest in a later step.',
        limit: 24,
        length: 25,
      },
    ]);
  });

  it('accepts 5 actions and refuses 6', () => {
    const ok = fullSurface();
    expect(ok.actions).toHaveLength(5);
    expect(collectSurfaceIssues(ok)).toEqual([]);
    const over = { ...ok, actions: [...(ok.actions ?? []), { id: 'six', label: 'Six', intent: 'other' as const }] };
    expect(collectSurfaceIssues(over, '/interaction')).toEqual([
      {
        field: '/interaction/actions',
        message: '/interaction/actions has 6 actions; the limit is 5. Keep one to five buttons.',
        limit: 5,
        length: 6,
      },
    ]);
  });

  it('refuses an empty actions list (leave it out for the default Submit button)', () => {
    expect(collectSurfaceIssues({ ...sampleSurface(), actions: [] })[0]?.message).toMatch(
      /^\/actions must not be empty\. Leave actions out/,
    );
  });

  it('accepts 12 sess_ask fields and refuses 13', () => {
    const fields = Array.from({ length: 13 }, (_, i) => ({ name: `f${i}`, label: `F${i}`, type: 'boolean' as const }));
    expect(parseAskArguments({ question: 'Q?', fields: fields.slice(0, 12) }).fields).toHaveLength(12);
    expect(collectAskArgumentsIssues({ question: 'Q?', fields })).toEqual([
      {
        field: '/fields',
        message: '/fields has 13 fields; the limit is 12. Ask fewer things at once, or ask the rest in a later step.',
        limit: 12,
        length: 13,
      },
    ]);
  });

  it('refuses sess_ask without fields', () => {
    expect(collectAskArgumentsIssues({ question: 'Q?', fields: [] })[0]).toMatchObject({
      field: '/fields',
      message: '/fields must not be empty.',
    });
  });
});

describe('closed schemas: unknown keys are refused, never dropped', () => {
  it.each([
    ['the arguments', { interaction: sampleSurface(), callback_url: 'https://x' }, '/callback_url'],
    ['the interaction', { interaction: { ...sampleSurface(), theme: 'dark' } }, '/interaction/theme'],
    [
      'a component',
      { interaction: surfaceWith({ type: 'heading', text: 'H', level: 2 } as never) },
      '/interaction/source/components/0/level',
    ],
    [
      'a field schema',
      {
        interaction: surfaceWith({
          type: 'field',
          name: 'n',
          label: 'N',
          schema: { type: 'number', exclusiveMinimum: 0 },
        } as never),
      },
      '/interaction/source/components/0/schema/exclusiveMinimum',
    ],
  ])('in %s', (_, args, field) => {
    expect(firstIssue(args)).toEqual({
      field,
      message: `${field} is not a known property here. Remove it: this schema is closed.`,
    });
  });

  it('in a sess_ask field: options belong to choice fields only', () => {
    const args = { ...askExample(), fields: [{ name: 'x', label: 'X', type: 'text', options: ['a'] }] };
    expect(collectAskArgumentsIssues(args)[0]?.field).toBe('/fields/0/options');
  });

  it('refuses an API origin, key, workspace or callback at the sess_ask root too', () => {
    expect(collectAskArgumentsIssues({ ...askExample(), workspace: 'ws_1' })[0]?.field).toBe('/workspace');
  });
});

describe('the order of errors is fixed', () => {
  it('raw structure before size before shape before lengths', () => {
    const huge = surfaceOfBytes(40000) as Record<string, unknown>;
    const withUnsafe = JSON.parse(
      JSON.stringify({ interaction: { ...huge, theme: 1, title: codePoints(81) } }).replace('"mode"', '"prototype":1,"mode"'),
    );
    expect(firstIssue(withUnsafe)?.field).toBe('/interaction/prototype');
    const sizeFirst = { interaction: { ...huge, theme: 1, title: codePoints(81) } };
    expect(firstIssue(sizeFirst)?.field).toBe('/interaction');
    const shapeFirst = { interaction: { ...sampleSurface(), theme: 1, title: codePoints(81) } };
    expect(firstIssue(shapeFirst)?.field).toBe('/interaction/theme');
    const lengthOnly = { interaction: { ...sampleSurface(), title: codePoints(81) } };
    expect(firstIssue(lengthOnly)?.field).toBe('/interaction/title');
  });

  it('lengths and rules in reading order: title, description, components, actions', () => {
    const surface = fullSurface();
    surface.description = codePoints(281);
    surface.actions![4]!.label = codePoints(25);
    surface.source.components[0] = { type: 'heading', text: codePoints(61) };
    const fields = collectSurfaceIssues(surface, '/interaction').map((issue) => issue.field);
    expect(fields).toEqual(['/interaction/description', '/interaction/source/components/0/text', '/interaction/actions/4/label']);
  });

  it('the field count comes before the lengths', () => {
    const surface = fullSurface();
    surface.title = codePoints(81);
    surface.source.components.push(fieldOfKind(30));
    expect(collectSurfaceIssues(surface).map((issue) => issue.field)).toEqual(['/source/components', '/title']);
  });

  it('parse throws the first of the collected issues', () => {
    const surface = { ...sampleSurface(), title: codePoints(81), description: codePoints(281) };
    expect(() => parseSurface(surface)).toThrow('The title can be at most 80 characters. Keep it to a short heading, about 40.');
  });
});
