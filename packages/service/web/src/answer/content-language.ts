import { textDirection } from '../i18n/languages.ts';

/** `lang` and `dir` for the agent's own words, when the form says which language they are in. */
export function contentLanguage(locale: string | undefined): { lang?: string; dir?: 'ltr' | 'rtl' } {
  return locale ? { lang: locale, dir: textDirection(locale) } : {};
}
