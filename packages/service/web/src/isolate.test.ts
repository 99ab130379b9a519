import fc from 'fast-check';
import { jsx } from 'hono/jsx';
import { describe, expect, it } from 'vitest';
import { spoof, unisolated } from './bidi-fixtures.ts';
import { hasBidiEffect, Isolate, isolateText, textDir } from './isolate.tsx';

const [LRE, RLE, PDF, LRO, RLO] = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e'];
const [LRI, RLI, FSI, PDI] = ['\u2066', '\u2067', '\u2068', '\u2069'];

/** Isolate rendered as a page renders it (a component's result is escaped as it is rendered). */
const inline = (text: string) => String(jsx(Isolate, { text }));

describe('hasBidiEffect', () => {
  it.each([
    'Approve this commit?',
    'Café crème, naïve façade',
    '中文 日本語 한국어',
    'Ελληνικά Кириллица',
    '😀 🇸🇮 e\u0301',
    'src/greeting.js (1.5 × 2) → #3',
    '',
  ])('is false for left-to-right and neutral text: %s', (text) => {
    expect(hasBidiEffect(text)).toBe(false);
  });

  it.each([
    ['Hebrew', 'שלום'],
    ['Arabic', 'مرحبا'],
    ['Arabic-Indic digits', '١٢٣'],
    ['Syriac', 'ܫܠܡܐ'],
    ['Thaana', 'ދިވެހި'],
    ['NKo', 'ߒߞߏ'],
    ['Arabic presentation forms', 'ﻻ'],
    ['Adlam', '𞤀𞤣𞤤𞤢𞤥'],
    ['Phoenician', '𐤀𐤁'],
    ['LRE', LRE],
    ['RLE', RLE],
    ['PDF', PDF],
    ['LRO', LRO],
    ['RLO', RLO],
    ['LRI', LRI],
    ['RLI', RLI],
    ['FSI', FSI],
    ['PDI', PDI],
    ['RLM', '\u200f'],
    ['ALM', '\u061c'],
  ])('is true for %s', (_name, text) => {
    expect(hasBidiEffect(`x ${text} y`)).toBe(true);
  });
});

describe('Isolate (inline)', () => {
  it('writes left-to-right text bare: an isolate would lay it out the same', () => {
    expect(inline('Commit message')).toBe('Commit message');
  });

  it('puts an override in a <bdi>, which ends it', () => {
    expect(inline(`Pay invoice ${RLO}fdp.exe${PDF} now`)).toBe(`<bdi>Pay invoice ${RLO}fdp.exe${PDF} now</bdi>`);
    expect(inline(`${RLO}open`)).toBe(`<bdi>${RLO}open</bdi>`);
  });

  it('puts right-to-left text in a <bdi>, so it takes its own direction', () => {
    expect(inline('שם מלא')).toBe('<bdi>שם מלא</bdi>');
  });

  it('drops a PDI that closes nothing of the text’s own (it would end the <bdi>’s isolate early)', () => {
    expect(inline(`x${PDI}${RLO}y`)).toBe(`<bdi>x${RLO}y</bdi>`);
    expect(inline(`${RLI}a${PDI}${PDI}b`)).toBe(`<bdi>${RLI}a${PDI}b</bdi>`);
  });

  it('closes every isolate the text leaves open', () => {
    expect(inline(`${LRI}a${RLI}b`)).toBe(`<bdi>${LRI}a${RLI}b${PDI}${PDI}</bdi>`);
  });

  it('escapes its text on both paths', () => {
    expect(inline('<b>&"')).toBe('&lt;b&gt;&amp;&quot;');
    expect(inline(`<b>${RLO}`)).toBe(`<bdi>&lt;b&gt;${RLO}</bdi>`);
  });
});

describe('textDir (an element holding only the text)', () => {
  it('is auto for text with bidi effect and absent otherwise', () => {
    expect(textDir(`${RLO}fdp.exe`)).toBe('auto');
    expect(textDir('مرحبا')).toBe('auto');
    expect(textDir('Approve this commit?')).toBeUndefined();
  });
});

describe('isolateText (plain text: the document title)', () => {
  it('leaves left-to-right text as it is', () => {
    expect(isolateText('Approve this commit?')).toBe('Approve this commit?');
  });

  it('wraps text with bidi effect in FSI … PDI', () => {
    expect(isolateText(`Pay invoice ${RLO}fdp.exe${PDF} now`)).toBe(`${FSI}Pay invoice ${RLO}fdp.exe${PDF} now${PDI}`);
  });

  it('pairs the text’s own isolates so that the closing PDI is Sess’s', () => {
    expect(isolateText(`a${PDI}${LRO}b`)).toBe(`${FSI}a${LRO}b${PDI}`);
    expect(isolateText(`${FSI}a`)).toBe(`${FSI}${FSI}a${PDI}${PDI}`);
  });

  it('always ends with every isolate it opened closed, whatever the text (property)', () => {
    const piece = fc.constantFrom(LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI, 'a', 'ש', ' ');
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 16 }), (pieces) => {
        const text = pieces.join('');
        const out = isolateText(text);
        const chars = [...out];
        let depth = 0;
        for (const [index, char] of chars.entries()) {
          if (char === LRI || char === RLI || char === FSI) depth += 1;
          if (char === PDI) depth -= 1;
          // Nothing closes Sess's FSI but Sess's own PDI, the last character.
          if (hasBidiEffect(text) && index < chars.length - 1) expect(depth).toBeGreaterThan(0);
        }
        expect(depth).toBe(0);
        expect(out.replace(/[\u2066-\u2069]/g, '')).toBe(text.replace(/[\u2066-\u2069]/g, ''));
        if (hasBidiEffect(text)) expect(out.startsWith(FSI) && out.endsWith(PDI)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('unisolated (the check the page tests use)', () => {
  const text = spoof('label');
  it.each([
    ['beside Sess’s mark', `<label for="f">${text}<span class="req"> (required)</span></label>`],
    ['in a text box without dir', `<input type="text" id="f" value="${text}"/>`],
    ['in the title without FSI … PDI', `<title>Sent: ${text} · Sess</title>`],
    ['inside Sess’s sentence', `<p>This app named itself "${text}".</p>`],
    ['in a shown attribute', `<img alt="${text}"/>`],
  ])('finds the text %s', (_where, html) => {
    expect(unisolated(html, text)).toHaveLength(1);
  });

  it.each([
    ['in a <bdi>', `<label for="f"><bdi>${text}</bdi><span class="req"> (required)</span></label>`],
    ['alone in an element with dir="auto"', `<h1 dir="auto">${text}</h1>`],
    ['in a textarea with dir="auto"', `<textarea id="f" dir="auto">\n${text}</textarea>`],
    ['in a text box with dir="auto"', `<input type="text" value="${text}" dir="auto"/>`],
    ['in the title between FSI and PDI', `<title>Sent: \u2068${text}\u2069 · Sess</title>`],
    ['where it is not laid out', `<button aria-label="Retire ${text}">Retire</button><option value="${text}">x</option>`],
  ])('passes the text %s', (_where, html) => {
    expect(unisolated(html, text)).toEqual([]);
  });
});
