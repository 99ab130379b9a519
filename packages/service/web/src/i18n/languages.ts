import type { Catalog } from './catalog-types.ts';
import { de } from './catalogs/de/index.ts';
import { en } from './catalogs/en/index.ts';
import { es } from './catalogs/es/index.ts';
import { fr } from './catalogs/fr/index.ts';
import { sl } from './catalogs/sl/index.ts';

/** A language Sess can show its pages in: its catalog and its own name for itself. */
export interface Language {
  /** The BCP 47 tag (`de`, `sl`). */
  readonly tag: string;
  /** Its name in itself, as the picker shows it (`Deutsch`). */
  readonly name: string;
  readonly catalog: Catalog;
}

/** The language every catalog is written from, and the one a page falls back to. */
export const DEFAULT_LANGUAGE = 'en';

const languages = new Map<string, Language>(
  [
    { tag: 'en', name: 'English', catalog: en },
    { tag: 'de', name: 'Deutsch', catalog: de },
    { tag: 'sl', name: 'Slovenščina', catalog: sl },
    { tag: 'es', name: 'Español', catalog: es },
    { tag: 'fr', name: 'Français', catalog: fr },
  ].map((language) => [language.tag, language]),
);

/** The languages pages can be shown in, in the picker's order. */
export function shippedLanguages(): readonly Language[] {
  return [...languages.values()];
}

export function findLanguage(tag: string): Language | undefined {
  return languages.get(tag);
}

/**
 * Adds a language at run time. Sess's own languages are the five above; this is how a test shows
 * that a right-to-left language's layout holds (a pseudo-RTL catalog) before one is translated.
 */
export function addLanguage(language: Language): void {
  languages.set(language.tag, language);
}

/**
 * `rtl` for a language written right to left (Arabic, Hebrew, Persian, Urdu…), from the
 * platform's CLDR data, so no list of scripts is kept here.
 */
export function textDirection(tag: string): 'ltr' | 'rtl' {
  const known = directions.get(tag);
  if (known) return known;
  const direction = directionOf(tag);
  // Kept for Sess's own languages only (a form's locale is any tag an agent sends).
  if (languages.has(tag)) directions.set(tag, direction);
  return direction;
}

const directions = new Map<string, 'ltr' | 'rtl'>();

function directionOf(tag: string): 'ltr' | 'rtl' {
  try {
    const locale = new Intl.Locale(tag) as Intl.Locale & {
      textInfo?: { direction?: string };
      getTextInfo?: () => { direction?: string };
    };
    const info = locale.getTextInfo?.() ?? locale.textInfo;
    return info?.direction === 'rtl' ? 'rtl' : 'ltr';
  } catch {
    return 'ltr';
  }
}
