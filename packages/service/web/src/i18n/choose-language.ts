import { match as matchLocale } from '@formatjs/intl-localematcher';
import { shippedLanguages } from './languages.ts';

/** Where a page's language can come from, strongest first (see `chooseLanguage`). */
export interface LanguageSources {
  /** `?lang=` on this request: the person just chose it in the picker. */
  readonly query?: string | null | undefined;
  /** The signed-in person's saved choice (account pages). */
  readonly saved?: string | null | undefined;
  /** The picker choice this browser remembers (the language cookie). */
  readonly remembered?: string | null | undefined;
  /** The language the page's content is written in (a form's `locale`, set by the agent). */
  readonly content?: string | null | undefined;
  /** The browser's `Accept-Language` header. */
  readonly acceptLanguage?: string | null | undefined;
}

const NONE = 'und';
/** More than this many languages in a header are not read (a huge header costs nothing). */
const MAX_ACCEPTED = 12;

/**
 * Answers already worked out, by the tags asked for: matching is the costly part of choosing
 * (tens of microseconds), and browsers send few distinct headers. At most MATCHES_KEPT kept.
 */
const matches = new Map<string, string | undefined>();
const MATCHES_KEPT = 1_000;

/** The shipped language closest to any of `tags` (`de-AT` → `de`), or undefined. */
function closest(tags: readonly string[]): string | undefined {
  // The count of languages in the key: a language added at run time (a test's) asks again.
  const key = `${shippedLanguages().length}|${tags.join(',')}`;
  if (matches.has(key)) return matches.get(key);
  const found = match(tags);
  if (matches.size >= MATCHES_KEPT) matches.clear();
  matches.set(key, found);
  return found;
}

function match(tags: readonly string[]): string | undefined {
  const valid = tags.flatMap((tag) => {
    try {
      return Intl.getCanonicalLocales(tag);
    } catch {
      return [];
    }
  });
  if (valid.length === 0) return undefined;
  const available = shippedLanguages().map((language) => language.tag);
  const found = matchLocale(valid, available, NONE);
  return found === NONE ? undefined : found;
}

/** The tags of an `Accept-Language` header, most wanted first, without `*` and `q=0`. */
export function acceptedLanguages(header: string): string[] {
  return header
    .split(',')
    .slice(0, MAX_ACCEPTED)
    .map((part, order) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((value) => value !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), order };
    })
    .filter(({ tag, q }) => tag && tag !== '*' && q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order)
    .map(({ tag }) => tag);
}

/**
 * The language a page is shown in: the one the person just picked, else their saved choice,
 * else the one this browser remembers, else the language the form is written in, else the
 * browser's preference, else English. Each source counts only if Sess ships a language close to
 * it (a form in Portuguese falls through to `Accept-Language`).
 */
export function chooseLanguage(sources: LanguageSources): string {
  for (const tag of [sources.query, sources.saved, sources.remembered, sources.content]) {
    const found = tag ? closest([tag]) : undefined;
    if (found) return found;
  }
  const fromHeader = sources.acceptLanguage ? closest(acceptedLanguages(sources.acceptLanguage)) : undefined;
  return fromHeader ?? 'en';
}

/** Just the tag of a shipped language close to `tag` (for storing a choice), or undefined. */
export function shippedLanguageFor(tag: string | null | undefined): string | undefined {
  return tag ? closest([tag]) : undefined;
}
