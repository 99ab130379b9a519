import { IntlMessageFormat, type PrimitiveType } from 'intl-messageformat';
import type { MessageKey } from './catalog-types.ts';
import { DEFAULT_LANGUAGE, findLanguage, type Language, textDirection } from './languages.ts';

/** The values a message's placeholders take. */
export type MessageValues = Record<string, PrimitiveType>;

/** Compiled messages, per language and key: parsing ICU syntax once, not on every render. */
const compiled = new Map<string, Map<string, IntlMessageFormat>>();

function compile(language: Language, key: MessageKey): IntlMessageFormat {
  let byKey = compiled.get(language.tag);
  if (!byKey) {
    byKey = new Map();
    compiled.set(language.tag, byKey);
  }
  let format = byKey.get(key);
  if (!format) {
    format = new IntlMessageFormat(language.catalog[key], language.tag);
    byKey.set(key, format);
  }
  return format;
}

/** A message without values, formatted once: most of a page's words are plain sentences. */
const plainTexts = new WeakMap<Language, Map<MessageKey, string>>();

function plain(language: Language, key: MessageKey): string {
  let texts = plainTexts.get(language);
  if (!texts) {
    texts = new Map();
    plainTexts.set(language, texts);
  }
  let text = texts.get(key);
  if (text === undefined) {
    const result = compile(language, key).format();
    text = typeof result === 'string' ? result : String(result);
    texts.set(key, text);
  }
  return text;
}

/**
 * `Intl` formatters are costly to build (tens of microseconds): one per language and options, kept.
 * Bounded: the zone in a key is a canonical IANA name (`validTimeZone`), the options are code.
 */
const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.ListFormat>();

function formatter<T extends Intl.DateTimeFormat | Intl.NumberFormat | Intl.ListFormat>(key: string, make: () => T): T {
  let found = formatters.get(key) as T | undefined;
  if (!found) {
    found = make();
    formatters.set(key, found);
  }
  return found;
}

/** What a page needs to speak a person's language: where they chose it, and their time zone. */
export interface MessagesOptions {
  /** The IANA time zone the person's browser reported; dates are shown in it, else in UTC (said so). */
  timeZone?: string | undefined;
  /** Builds the link that shows the same page in another language (the picker's links). */
  languageHref?: ((tag: string) => string) | undefined;
}

/**
 * One language's messages for one page: `t` formats a catalog message (ICU plurals, selects),
 * and `date` / `number` format with `Intl` in the same language.
 */
export class Messages {
  readonly language: Language;
  readonly dir: 'ltr' | 'rtl';
  /** The zone dates are shown in; `undefined` means UTC, named beside each time. */
  readonly timeZone: string | undefined;
  readonly languageHref: ((tag: string) => string) | undefined;

  constructor(language: Language, options: MessagesOptions = {}) {
    this.language = language;
    this.dir = textDirection(language.tag);
    this.timeZone = validTimeZone(options.timeZone);
    this.languageHref = options.languageHref;
  }

  get tag(): string {
    return this.language.tag;
  }

  /** The message for `key` in this language, its placeholders filled. */
  t(key: MessageKey, values?: MessageValues): string {
    if (values === undefined) return plain(this.language, key);
    const result = compile(this.language, key).format(values);
    return typeof result === 'string' ? result : String(result);
  }

  /** A date and time, as this language writes it, in the person's zone (or in UTC, said so). */
  dateTime(at: Date, style: 'short' | 'medium' | 'long' = 'medium'): string {
    const timeZone = this.timeZone ?? 'UTC';
    const text = formatter(
      `date|${this.tag}|${timeZone}|${style}`,
      () => new Intl.DateTimeFormat(this.tag, { dateStyle: style, timeStyle: 'short', timeZone }),
    ).format(at);
    return this.timeZone ? text : this.t('common.timeZone.utc', { time: text });
  }

  /** A number, with this language's separators. */
  number(value: number, options?: Intl.NumberFormatOptions): string {
    return formatter(
      options === undefined ? `number|${this.tag}` : `number|${this.tag}|${JSON.stringify(options)}`,
      () => new Intl.NumberFormat(this.tag, options),
    ).format(value);
  }

  /** A list (`a, b and c`), as this language joins one. */
  list(items: readonly string[], type: 'conjunction' | 'disjunction' = 'conjunction'): string {
    return formatter(`list|${this.tag}|${type}`, () => new Intl.ListFormat(this.tag, { type })).format(items);
  }
}

/** Zones already checked (a cookie's value: at most ZONES_KEPT kept, so odd values cannot grow it). */
const checkedZones = new Map<string, string | undefined>();
const ZONES_KEPT = 1_000;

/** The canonical IANA name of `zone`, or undefined when the platform does not know it. */
function validTimeZone(zone: string | undefined): string | undefined {
  if (!zone || zone.length > 64) return undefined;
  if (checkedZones.has(zone)) return checkedZones.get(zone);
  let canonical: string | undefined;
  try {
    canonical = new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    canonical = undefined;
  }
  if (checkedZones.size >= ZONES_KEPT) checkedZones.clear();
  checkedZones.set(zone, canonical);
  return canonical;
}

/** The messages of a language by tag (English when Sess has no such language). */
export function messagesFor(tag: string = DEFAULT_LANGUAGE, options?: MessagesOptions): Messages {
  const language = findLanguage(tag) ?? findLanguage(DEFAULT_LANGUAGE);
  if (!language) throw new Error('The default language has no catalog.');
  return new Messages(language, options);
}
