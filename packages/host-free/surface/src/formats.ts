import type { StringType } from './schema.ts';

type StringFormat = NonNullable<StringType['format']>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/u;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.\d{1,9})?)?$/;
// Offset optional: an HTML datetime-local input sends local time without one (RFC 3339 would require it).
const DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})[Tt ]([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.\d{1,9})?)?(?:[Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)?$/;

function isCalendarDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth;
}

/**
 * Whether `text` has the `format`. Pragmatic, not exhaustive: an email is `local@domain.tld`,
 * a uri is an absolute URL, date/time/date-time are what HTML date inputs send (time
 * `HH:MM[:SS[.f]]`, date-time with an optional offset).
 */
export function matchesFormat(format: StringFormat, text: string): boolean {
  switch (format) {
    case 'email':
      return EMAIL.test(text);
    case 'uri':
      return URL.canParse(text);
    case 'date':
      return isCalendarDate(text);
    case 'time':
      return TIME.test(text);
    case 'date-time': {
      const match = DATE_TIME.exec(text);
      return match !== null && isCalendarDate(match[1] ?? '');
    }
  }
}
