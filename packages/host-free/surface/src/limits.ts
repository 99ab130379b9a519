/**
 * Every number a form is held to, in one place. Lengths are Unicode code points (the seed's
 * "Keep it short" table), never UTF-16 units, so an emoji counts as one character.
 */
export const LIMITS = {
  /** `title` and the `sess_ask` `question`. */
  title: 80,
  /** Action `label` and `sess_ask` `submit_label`. */
  button: 24,
  /** Field label, option label, `sess_ask` option, and an enum ID shown without a label. */
  label: 60,
  /** Field `description` (help) and `sess_ask` `help`. */
  help: 160,
  /** `description` under the title. */
  description: 280,
  /** `heading` text. */
  heading: 60,
  /** `record` `label` (caption). */
  recordLabel: 200,
  /** `record` key. */
  recordKey: 40,
  /** `record` string value. */
  recordValue: 200,
  /** `text` component and `sess_ask` `details`; also the longest answer a text field takes. */
  text: 4000,
  /** Field `name` and action `id`: machine names, not read by the person. */
  name: 64,
  /** A field's `pattern`, kept short so that it stays readable and cheap to run. */
  pattern: 200,
} as const;

/** Counts and sizes that are not string lengths. */
export const STRUCTURE_LIMITS = {
  /** UTF-8 bytes of `JSON.stringify(interaction)`. */
  interactionBytes: 32 * 1024,
  /** Containers from the tool's arguments down: `{args}` is level 1, an enum array in a multi-choice field is level 8. */
  nesting: 8,
  /** `field` components in one interaction. */
  fields: 24,
  /** Buttons in one interaction. */
  actions: 5,
  /** `sess_ask` fields. */
  askFields: 12,
  /** Entries of one `enum` and options of one `sess_ask` choice: a phone screen, scrolled. */
  options: 30,
  /** Smallest `expires_in` in seconds; the ceiling is the plan's, checked by the runtime. */
  minExpiresIn: 30,
  /**
   * Instructions of a `pattern`'s compiled RE2 program (a counted repeat copies its atom:
   * `\d{4}` is 4). An answer built to keep RE2's DFA making new states costs about this much per
   * character, and past about 65 the DFA runs out of memory and the slower NFA takes over, so this
   * bounds the time of checking a hostile answer (bench/surface/patterns.ts). Enough for a UUID
   * (39), a phone number with {7,20} (39) or an IBAN (37); lengths belong in minLength/maxLength.
   */
  patternProgram: 60,
} as const;

/**
 * Number of Unicode code points in `text`. A lone surrogate counts as one, like any other
 * unpaired UTF-16 unit.
 */
export function countCodePoints(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

/**
 * The code-point length of `text` when it is over `limit`, otherwise `undefined`. A string is
 * never longer in code points than in UTF-16 units, so most strings are cleared without a count.
 */
export function lengthOverLimit(text: string, limit: number): number | undefined {
  if (text.length <= limit) return undefined;
  const length = countCodePoints(text);
  return length > limit ? length : undefined;
}
