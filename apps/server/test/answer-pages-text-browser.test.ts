/*
 * What a person reads, in a real browser (the system Chromium through playwright-core): text an
 * agent or a person wrote is isolated, so bidi controls in it cannot turn Sess's own words
 * around, and no page scrolls sideways, even with every slot filled to its limit with one
 * unbroken word. Forms are created through the real runtime; screenshots go to
 * test-results/screenshots/.
 */
import { formRevisions } from '@sess/db';
import { STRUCTURE_LIMITS as COUNTS, type Component, jsonByteLength, LIMITS, type Surface } from '@sess/surface';
import { fullSurface } from '@sess/surface/test-fixtures';
import { launchTestBrowser, openWatchedContext, SCREEN_SIZES, screenshot, sidewaysOverflow } from '@sess/testkit/browser';
import { completeLink, createAskLink, createLink, type PagesHarness, startPagesHarness } from '@sess/testkit/pages';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SIZES = [
  ['phone', SCREEN_SIZES.phone],
  ['desktop', { viewport: { width: 1280, height: 800 } }],
] as const satisfies readonly (readonly [string, BrowserContextOptions])[];

/** Browser tests wait on a real browser on a shared 2-core machine: give them room. */
const SLOW = { timeout: 120_000 };

let h: PagesHarness;
let browser: Browser;
beforeAll(async () => {
  [h, browser] = await Promise.all([startPagesHarness(), launchTestBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });

/** One unbroken word of exactly `length` characters, starting with `tag` so that each slot's is its own. */
function word(tag: string, length: number): string {
  return tag + 'W'.repeat(length - tag.length);
}

/** `count` option IDs and labels of the longest length, the last ID without a label (so it is shown itself). */
function longOptions(tag: string, count: number) {
  const ids = Array.from({ length: count }, (_, k) => word(`${tag}i${k}`, LIMITS.label));
  const labels = ids.slice(0, -1).map((_, k) => word(`${tag}o${k}`, LIMITS.label));
  return { enum: ids, option_labels: labels };
}

/**
 * One component with every string a person reads at its limit, one unbroken word each. `seen`
 * counts the choices so far: the first single choice (a select) and the first multi-choice
 * (checkboxes) get the most options a field may have, the others a few.
 */
function longest(component: Component, i: number, seen: { choice: number; multi: number }): Component {
  if (component.type === 'heading') return { ...component, text: word(`H${i}`, LIMITS.heading) };
  if (component.type === 'text') return { ...component, text: word(`X${i}`, LIMITS.text) };
  if (component.type === 'record') {
    const keys = Object.keys(component.fields);
    return {
      ...component,
      label: word(`R${i}`, LIMITS.recordLabel),
      fields: Object.fromEntries(keys.map((_, k) => [word(`K${k}`, LIMITS.recordKey), word(`V${k}`, LIMITS.recordValue)])),
    };
  }
  const field = { ...component, label: word(`L${i}`, LIMITS.label), description: word(`P${i}`, LIMITS.help) };
  const schema = field.schema;
  if (schema.type === 'string' && schema.enum) {
    const options = longOptions(`c${i}`, seen.choice++ === 0 ? COUNTS.options : 5);
    return { ...field, schema: { ...schema, ...options }, value: options.enum[0] };
  }
  if (schema.type === 'array') {
    const options = longOptions(`m${i}`, seen.multi++ === 0 ? COUNTS.options : 4);
    return { ...field, schema: { ...schema, items: { ...schema.items, ...options } }, value: [options.enum[0]!] };
  }
  if (schema.type === 'string' && schema.pattern === undefined && typeof field.value === 'string') {
    return { ...field, value: word(`A${i}`, schema.maxLength ?? LIMITS.text) };
  }
  return field;
}

/**
 * The seed's largest form (`fullSurface`: 24 fields of every kind, 5 actions, headings, a text
 * and a 20-row record), every slot at its limit.
 */
function longestSurface(): Surface {
  const surface = fullSurface();
  const seen = { choice: 0, multi: 0 };
  return {
    ...surface,
    title: word('T', LIMITS.title),
    description: word('D', LIMITS.description),
    source: { ...surface.source, components: surface.source.components.map((component, i) => longest(component, i, seen)) },
    actions: (surface.actions ?? []).map((action, k) => ({ ...action, label: word(`B${k}`, LIMITS.button) })),
  };
}

/** Nothing scrolls sideways: the page is no wider than the viewport, and no element reaches past it. */
async function expectNoSidewaysScroll(page: Page, width: number) {
  const overflow = await sidewaysOverflow(page);
  expect(overflow.width).toBe(width);
  expect(overflow.scrollWidth).toBeLessThanOrEqual(width);
  expect(overflow.elements).toEqual([]);
}

describe.each(SIZES)('no sideways scrolling, every slot at its limit (%s)', (size, options) => {
  const width = options.viewport.width;

  it('the form, a refused post with its errors, "Sent" and Done', SLOW, async () => {
    const surface = longestSurface();
    expect(jsonByteLength(surface)).toBeLessThanOrEqual(COUNTS.interactionBytes);
    const link = await createLink(h, surface);
    const { context, problems } = await openWatchedContext(browser, options);
    const page = await context.newPage();
    await page.goto(link.pageUrl);
    await heading(page, surface.title).waitFor();
    await expectNoSidewaysScroll(page, width);
    await screenshot(page, `text-${size}-form`);

    // The browser's own checks are off, so the server refuses the empty answers and shows why.
    await page.evaluate(() => {
      const form = document.querySelector('form');
      if (!form) throw new Error('no form');
      form.noValidate = true;
      for (const box of form.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input[type=text], textarea'))
        box.value = '';
    });
    await page.getByRole('button', { name: surface.actions![0]!.label }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').getByRole('link').count()).toBeGreaterThan(3);
    await expectNoSidewaysScroll(page, width);
    await screenshot(page, `text-${size}-errors`);

    // Reject may leave required fields empty: the answer is taken.
    await page.getByRole('button', { name: surface.actions!.at(-1)!.label }).click();
    await heading(page, 'Sent — waiting for the next step').waitFor();
    expect(await page.getByText(surface.title).isVisible()).toBe(true);
    await expectNoSidewaysScroll(page, width);
    await screenshot(page, `text-${size}-sent`);

    await completeLink(h, link.sessionId);
    await heading(page, 'Done').waitFor({ timeout: 15_000 });
    await expectNoSidewaysScroll(page, width);
    await screenshot(page, `text-${size}-done`);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('an Ask’s start page', SLOW, async () => {
    const question = word('Q', LIMITS.title);
    const ask = await createAskLink(h, {
      question,
      details: word('Z', LIMITS.text),
      fields: [
        {
          name: 'place',
          label: word('L', LIMITS.label),
          help: word('P', LIMITS.help),
          type: 'choice',
          options: Array.from({ length: COUNTS.options }, (_, k) => word(`o${k}`, LIMITS.label)),
        },
      ],
      submit_label: word('S', LIMITS.button),
      respondents: { max: 10 },
    });
    const { context, problems } = await openWatchedContext(browser, options);
    const page = await context.newPage();
    await page.goto(ask.pageUrl);
    await heading(page, question).waitFor();
    expect(await page.getByRole('button', { name: 'Start' }).isVisible()).toBe(true);
    await expectNoSidewaysScroll(page, width);
    await screenshot(page, `text-${size}-ask-start`);
    expect(problems).toEqual([]);
    await context.close();
  });
});

const RLO = '\u202e';
const PDF = '\u202c';
const PDI = '\u2069';

/**
 * Rewrites the stored Surface of a link's current step as a row written before create refused
 * bidi controls would hold it: each `"MARKER"` string value becomes the given text.
 */
async function storeOldSurface(sessionId: string, texts: Record<string, string>) {
  const where = eq(formRevisions.sessionId, sessionId);
  const [row] = await h.database.db.select({ surface: formRevisions.surface }).from(formRevisions).where(where);
  let json = JSON.stringify(row?.surface);
  for (const [marker, text] of Object.entries(texts)) json = json.replaceAll(JSON.stringify(marker), JSON.stringify(text));
  await h.database.db
    .update(formRevisions)
    .set({ surface: JSON.parse(json) })
    .where(where);
}

/**
 * Where Sess's mark (" (required)", or ": message" after a label) sits against the text before
 * it in the same element: that text's box, and the box of each visible character of the mark.
 */
function markBeside(page: Page, selector: string, markSelector: string | null) {
  return page.evaluate(
    ({ selector, markSelector }) => {
      const holder = document.querySelector(selector);
      if (!holder) throw new Error(`no ${selector}`);
      const text = holder.querySelector('bdi') ?? holder.firstChild;
      const mark = markSelector ? holder.querySelector(markSelector)?.firstChild : text?.nextSibling;
      if (!text || !mark?.textContent) throw new Error(`no text and mark in ${selector}`);
      const range = document.createRange();
      range.selectNodeContents(text);
      const { left, right, top } = range.getBoundingClientRect();
      const chars = [...mark.textContent].flatMap((char, at) => {
        if (char.trim() === '') return [];
        range.setStart(mark, at);
        range.setEnd(mark, at + 1);
        const box = range.getBoundingClientRect();
        return [{ left: box.left, top: box.top }];
      });
      return { text: { left, right, top }, chars };
    },
    { selector, markSelector },
  );
}

/** Sess's mark starts right after the text, on its line, and reads left to right. */
function expectAfter({ text, chars }: Awaited<ReturnType<typeof markBeside>>) {
  const [first] = chars;
  expect(Math.abs(first!.top - text.top)).toBeLessThan(4);
  expect(first!.left).toBeGreaterThanOrEqual(text.right - 1);
  for (const [at, char] of chars.entries()) {
    const next = chars[at + 1];
    if (next && Math.abs(next.top - char.top) < 4) expect(next.left).toBeGreaterThan(char.left);
  }
}

describe('bidi isolation (phone)', () => {
  it(
    'an override in a stored title or label turns nothing of Sess’s around: "(required)" stays after the label',
    SLOW,
    async () => {
      const field = (name: string, schema: object) => ({ type: 'field', name, label: name.toUpperCase(), schema });
      const link = await createLink(h, {
        mode: 'interactive',
        title: 'TITLE',
        source: {
          kind: 'sess_surface',
          components: [
            field('text', { type: 'string' }),
            field('radio', { type: 'string', enum: ['a', 'b'], option_labels: ['Beach', 'Mountains'] }),
            field('check', { type: 'array', items: { type: 'string', enum: ['x', 'y'] } }),
            field('stray', { type: 'string' }),
            field('hebrew', { type: 'string' }),
          ],
        },
      });
      await storeOldSurface(link.sessionId, {
        TITLE: `Pay invoice ${RLO}fdp.exe${PDF} now`,
        TEXT: `Your ${RLO}name`,
        RADIO: `Pick ${RLO}one`,
        CHECK: `Pick ${RLO}some`,
        // A PDI of its own would close the label's isolate early and let the override after it out.
        STRAY: `Stray${PDI}${RLO} isolate end`,
        HEBREW: 'שם מלא',
      });
      const { context, problems } = await openWatchedContext(browser, SCREEN_SIZES.phone);
      const page = await context.newPage();
      await page.goto(link.pageUrl);
      await heading(page, /^Pay invoice/).waitFor();
      await screenshot(page, 'bidi-form');

      expect(await page.locator('h1').getAttribute('dir')).toBe('auto');
      for (const selector of ['label[for="f-text"]', 'label[for="f-stray"]', 'label[for="f-hebrew"]']) {
        expectAfter(await markBeside(page, selector, '.req'));
      }
      for (const name of ['radio', 'check']) {
        expectAfter(await markBeside(page, `fieldset:has(#f-${name}) > legend`, '.req'));
      }

      // An answer typed in Hebrew runs right to left in its box.
      await page.locator('#f-hebrew').fill('שלום עולם');
      expect(await page.locator('#f-hebrew').evaluate((box) => getComputedStyle(box).direction)).toBe('rtl');
      expect(await page.locator('#f-text').evaluate((box) => getComputedStyle(box).direction)).toBe('ltr');

      // The error summary: ": Answer this to continue." follows the label it names.
      await page.evaluate(() => {
        document.querySelector('form')!.noValidate = true;
      });
      await page.getByRole('button', { name: 'Submit' }).click();
      await page.getByRole('alert').waitFor();
      expectAfter(await markBeside(page, '#error-summary a[href="#f-text"]', null));
      expectAfter(await markBeside(page, 'label[for="f-text"]', '.req'));
      await screenshot(page, 'bidi-errors');
      expect(problems).toEqual([]);
      await context.close();
    },
  );
});
