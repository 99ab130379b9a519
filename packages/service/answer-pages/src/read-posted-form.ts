import { FORM_FIELDS } from '@sess/web';

/** A posted answer form, split into the page's own hidden inputs and the person's values. */
export interface PostedForm {
  control: {
    csrf: string | undefined;
    revision: string | undefined;
    action: string | undefined;
    /** The passkey assertion's JSON, posted by a `passkey` form's confirm step. */
    passkey: string | undefined;
  };
  /** Field name → the posted string, or every string when a name repeats (checkboxes). */
  values: Record<string, string | string[]>;
}

const CONTROL_NAMES: ReadonlySet<string> = new Set(Object.values(FORM_FIELDS));

/** Whether `name` is one of the page's own hidden inputs (`FORM_FIELDS`), not a field of the form: the one rule for both ways an answer comes. */
export function isControlName(name: string): boolean {
  return CONTROL_NAMES.has(name);
}

/**
 * Reads an `application/x-www-form-urlencoded` post (what an HTML form sends without files).
 * The page's own hidden inputs (`FORM_FIELDS`) are control; every other name — `__proto__`,
 * `constructor` and any `_name` included — is a value for validateAnswer to judge, so a name the
 * form does not have is refused there ("This form has no such field"), never dropped here.
 * Returns null for any other body type.
 */
export async function readPostedForm(request: Request): Promise<PostedForm | null> {
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return null;
  const params = new URLSearchParams(await request.text());
  // No prototype: a posted `__proto__` is an own key like any other name.
  const values: Record<string, string | string[]> = Object.create(null);
  for (const name of new Set(params.keys())) {
    if (isControlName(name)) continue;
    const all = params.getAll(name);
    values[name] = all.length === 1 ? all[0]! : all;
  }
  const first = (name: string) => params.get(name) ?? undefined;
  return {
    control: {
      csrf: first(FORM_FIELDS.csrf),
      revision: first(FORM_FIELDS.revision),
      action: first(FORM_FIELDS.action),
      passkey: first(FORM_FIELDS.passkey),
    },
    values,
  };
}

/** Spaces a language may group digits with (space, no-break space, narrow no-break space), between digits. */
const DIGIT_GROUP_SPACE = /(?<=\d)[ \u00a0\u202f](?=\d)/g;

/**
 * A number as the person typed it in the page's language (`tag`), as the validator reads
 * numbers: "3,5" on a German page is "3.5", "1 234,5" on a French one "1234.5". Only what cannot
 * be misread is changed: digits grouped by spaces are joined, and a decimal comma becomes a point
 * when the text holds no point (a "1.234,5" is left for the validator to refuse, never guessed at).
 */
export function numberFromLocal(text: string, tag: string): string {
  const decimal = new Intl.NumberFormat(tag).formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.';
  const joined = text.trim().replace(DIGIT_GROUP_SPACE, '');
  if (decimal === ',' && /^[+-]?\d*,\d+$/.test(joined)) return joined.replace(',', '.');
  return joined;
}

/**
 * The posted values with each number field's text read in the page's language (numberFromLocal);
 * every other value as posted. `fields` is the form's components (its number fields by name).
 */
export function readLocalNumbers(
  values: Readonly<Record<string, string | string[]>>,
  fields: readonly { type: string; name?: string; schema?: { type: string } }[],
  tag: string,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  Object.assign(out, values);
  for (const field of fields) {
    if (field.type !== 'field' || field.name === undefined) continue;
    if (field.schema?.type !== 'number' && field.schema?.type !== 'integer') continue;
    const value = Object.hasOwn(values, field.name) ? values[field.name] : undefined;
    if (typeof value === 'string') out[field.name] = numberFromLocal(value, tag);
  }
  return out;
}
