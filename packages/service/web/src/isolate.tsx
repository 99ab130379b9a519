import { useMessages } from './i18n/render-scope.ts';

/*
 * Text that Sess did not write (the agent's form, the person's answers, an app's, workspace's or
 * key's name) is isolated wherever a page shows it, so that bidi controls or right-to-left
 * letters in it cannot reorder Sess's own words around it: an override in a label must not turn
 * the " (required)" beside it around, nor an app name the "to use Sess?" after it. Three forms,
 * one rule (`hasBidiEffect`):
 *
 * - `<Isolate text>`: inline, among Sess's words or beside a control (a label before " (required)",
 *   an option's label next to its radio) — a `<bdi>`, its direction from its first letter.
 * - `dir={textDir(text)}`: on an element holding nothing but that text that is a block or an
 *   atomic inline (h1, h2, p, dt, dd, button, option). Its edges already end the text's bidi
 *   paragraph; `dir="auto"` gives right-to-left text its direction (and alignment).
 * - `isolateText(text)`: plain text that cannot hold markup (the document title): FSI … PDI.
 *
 * Text with no right-to-left letter and no bidi control lays out the same with or without an
 * isolate in these left-to-right pages, so it is written as it is: the markup only grows where
 * it has work to do.
 *
 * Free-text boxes (text inputs, textareas) get `dir="auto"` always: what the person will type is
 * not known yet. E-mail, URL, number and date boxes stay left-to-right.
 * @see https://www.unicode.org/reports/tr9/#Explicit_Directional_Isolates
 */

const FSI = '\u2068';
const PDI = '\u2069';

/**
 * Characters that make text bidirectional: the default R, AL and AN ranges of UAX #9 (Hebrew,
 * Arabic, Syriac, Thaana, NKo … and their historic neighbours, Arabic digits) and every bidi
 * control (embeddings, overrides, isolates, marks).
 */
const BIDI_ACTIVE = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]|\p{Bidi_Control}/u;

const ISOLATE_MARK = /[\u2066-\u2069]/g;

/** Whether `text` could show in another order than it is written, or move what stands next to it. */
export function hasBidiEffect(text: string): boolean {
  return BIDI_ACTIVE.test(text);
}

/**
 * `text` with its isolates paired: a PDI that closes nothing of the text's own is dropped (it
 * would close the isolate around the text, and what follows it would escape, overrides and all),
 * and each isolate the text leaves open is closed at its end. Embeddings and overrides need
 * nothing: the isolate's end closes them (UAX #9 X6a).
 */
function balanceIsolates(text: string): string {
  let open = 0;
  const paired = text.replace(ISOLATE_MARK, (mark) => {
    if (mark !== PDI) {
      open += 1;
      return mark;
    }
    if (open === 0) return '';
    open -= 1;
    return mark;
  });
  return paired + PDI.repeat(open);
}

/**
 * Whether someone else's `text` needs its own direction: it could reorder the words around it,
 * or the page is right to left (a left-to-right question must not take the page's direction).
 */
function needsOwnDirection(text: string): boolean {
  return hasBidiEffect(text) || useMessages().dir === 'rtl';
}

/** Someone else's text inline among Sess's own words: a `<bdi>` when it could reorder them. */
export function Isolate({ text }: { text: string }) {
  return needsOwnDirection(text) ? <bdi>{balanceIsolates(text)}</bdi> : text;
}

/** The `dir` of a block (or atomic inline) element whose whole content is someone else's `text`. */
export function textDir(text: string): 'auto' | undefined {
  return needsOwnDirection(text) ? 'auto' : undefined;
}

/** Someone else's text inside plain text (the document title), between FSI and PDI when it could reorder it. */
export function isolateText(text: string): string {
  return hasBidiEffect(text) ? `${FSI}${balanceIsolates(text)}${PDI}` : text;
}
