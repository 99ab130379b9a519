/** Helpers for raw SQL rows, which come back the same way on postgres.js and PGlite through drizzle. */

/** A timestamptz as returned by a raw query (text such as `2025-06-30 14:30:00.123+00`) or a Date. */
export function toDate(value: unknown): Date {
  if (value instanceof Date) return value;
  const date = new Date(String(value));
  if (Number.isNaN(date.getTime())) throw new TypeError(`not a timestamp: ${String(value)}`);
  return date;
}

/** A Date as a parameter that both drivers pass through unchanged (use with `::timestamptz`). */
export function isoParam(date: Date): string {
  return date.toISOString();
}
