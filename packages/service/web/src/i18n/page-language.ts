import { readCookieValues, serializeCookie } from '../cookies.ts';
import { chooseLanguage, type LanguageSources, shippedLanguageFor } from './choose-language.ts';
import { type Messages, messagesFor } from './messages.ts';

/** The query parameter the picker's links set, and the cookie that remembers the choice. */
export const LANGUAGE_QUERY = 'lang';
export const LANGUAGE_COOKIE = 'sess_lang';
/**
 * The cookie the pages' script sets to the browser's IANA time zone, so dates are shown in it.
 * Not HttpOnly (the page writes it); it holds nothing secret.
 */
export const TIME_ZONE_COOKIE = 'sess_tz';
/** A year: the picker's choice outlives any one link. */
const REMEMBER_SECONDS = 365 * 24 * 3600;

/** What a page learned about its language from the request. */
export interface PageLanguage {
  readonly messages: Messages;
  /** Set when the person just picked a language: the cookie that remembers it (a `Set-Cookie` value). */
  readonly rememberCookie?: string | undefined;
  /** The tag the person just picked, for an account page to save. */
  readonly picked?: string | undefined;
}

/** What a face knows beside the request: the form's language, the account's saved choice. */
export type PageLanguageHints = Pick<LanguageSources, 'content' | 'saved'>;

/**
 * The language of the page answering `request`: `?lang=` (the picker), the hints, the remembered
 * choice, `Accept-Language`; with the person's time zone from the page's cookie and the picker's
 * links back to this same page.
 */
export function pageLanguage(request: Request, hints: PageLanguageHints = {}): PageLanguage {
  const url = new URL(request.url);
  const cookies = request.headers.get('cookie') ?? undefined;
  const picked = shippedLanguageFor(url.searchParams.get(LANGUAGE_QUERY));
  const tag = chooseLanguage({
    query: picked,
    saved: hints.saved,
    remembered: readCookieValues(cookies, LANGUAGE_COOKIE)[0],
    content: hints.content,
    acceptLanguage: request.headers.get('accept-language'),
  });
  const messages = messagesFor(tag, {
    timeZone: decodeZone(readCookieValues(cookies, TIME_ZONE_COOKIE)[0]),
    languageHref: (other) => {
      const target = new URL(url);
      target.searchParams.set(LANGUAGE_QUERY, other);
      return `${target.pathname}${target.search}`;
    },
  });
  const rememberCookie = picked
    ? serializeCookie(LANGUAGE_COOKIE, picked, { secure: url.protocol === 'https:', maxAgeSeconds: REMEMBER_SECONDS })
    : undefined;
  return { messages, rememberCookie, picked };
}

function decodeZone(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/**
 * The same language with no picker links: for a page whose own address must not be linked to
 * again (a failure page, a refused OAuth request, a post's answer).
 */
export function withoutPicker(language: PageLanguage): PageLanguage {
  return { ...language, messages: messagesFor(language.messages.tag, { timeZone: language.messages.timeZone }) };
}
