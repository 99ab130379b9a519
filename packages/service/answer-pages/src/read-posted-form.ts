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
