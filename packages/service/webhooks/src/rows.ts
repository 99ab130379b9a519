/** Drivers differ: postgres.js (as drizzle sets it up) gives timestamps as text, PGlite as Date. */
export const toDate = (value: string | Date): Date => (value instanceof Date ? value : new Date(value));

/** A text[] column: parsed by either driver, or a `{a,b}` literal. */
export const arrayOf = (value: string[] | string): string[] =>
  Array.isArray(value)
    ? value
    : value
        .replace(/^\{|\}$/g, '')
        .split(',')
        .filter(Boolean);
