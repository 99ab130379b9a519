/*
 * For the pages' bidi tests (not exported from the package): a spoofing string per slot, and a
 * check that every place a string shows in a page's HTML is isolated from Sess's own text.
 */
import { expect } from 'vitest';

const RLO = '\u202e';

/**
 * The spoof for one slot: `#<slot> pay ‮fdp.exe`, an override left open, so that without
 * an isolate it turns around everything after it on the line. The `#` keeps one slot's string
 * from being part of another's.
 */
export function spoof(slot: string): string {
  return `#${slot} pay ${RLO}fdp.exe`;
}

/** Text as hono/jsx escapes it in HTML text and attribute values. */
export function escaped(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Input types whose box is not free text: their value is not shown, or stays left-to-right. */
const NOT_FREE_TEXT = /\stype="(?:hidden|radio|checkbox|email|url|number|date|time|datetime-local|password)"/;

/** Where an occurrence inside a start tag is fine, or why it is not. */
function attributeProblem(tag: string, attribute: string): string | undefined {
  // Read aloud, never laid out, so there is nothing to reorder.
  if (attribute === 'aria-label') return undefined;
  if (attribute === 'value' && tag.startsWith('<option')) return undefined;
  if (attribute === 'value' && tag.startsWith('<input')) {
    return NOT_FREE_TEXT.test(tag) || tag.includes(' dir="auto"') ? undefined : `text box without dir="auto": ${tag}`;
  }
  return `attribute ${attribute} of ${tag}`;
}

/**
 * The places `text` shows in `html` without an isolate, described (empty when there are none).
 * Isolated means: the whole content of a `<bdi>` or of an element with `dir="auto"` (a textarea's
 * after its leading newline), between FSI and PDI in the `<title>`, or in a text box with
 * `dir="auto"`. `aria-label`, hidden and option values are not laid out, so they pass.
 */
export function unisolated(html: string, text: string): string[] {
  const needle = escaped(text);
  const problems: string[] = [];
  for (let at = html.indexOf(needle); at !== -1; at = html.indexOf(needle, at + 1)) {
    const before = html.slice(0, at);
    const after = html.slice(at + needle.length);
    const open = before.lastIndexOf('<');
    if (open > before.lastIndexOf('>')) {
      const tag = html.slice(open, html.indexOf('>', at) + 1);
      const attribute = /([a-z-]+)="[^"]*$/.exec(before.slice(open))?.[1] ?? '?';
      const problem = attributeProblem(tag, attribute);
      if (problem) problems.push(problem);
      continue;
    }
    if (before.lastIndexOf('<title>') > before.lastIndexOf('</title>')) {
      if (!(before.endsWith('\u2068') && after.startsWith('\u2069')))
        problems.push(`title without FSI … PDI: ${before.slice(-40)}`);
      continue;
    }
    const element = /<([a-z0-9]+)([^>]*)>\n?$/.exec(before);
    const whole = element !== null && after.startsWith(`</${element[1]}>`);
    const isolated = whole && (element[1] === 'bdi' || / dir="auto"/.test(element[2] ?? ''));
    if (!isolated) problems.push(`${before.slice(-60)}[…]${after.slice(0, 30)}`);
  }
  return problems;
}

/** Every place each of `texts` shows in `html` is isolated, and each shows at least once. */
export function expectIsolated(html: string, texts: readonly string[]): void {
  for (const text of texts) {
    expect(html, text).toContain(escaped(text));
    expect(unisolated(html, text), text).toEqual([]);
  }
}
