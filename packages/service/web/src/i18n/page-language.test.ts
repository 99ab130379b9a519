import { describe, expect, it } from 'vitest';
import { acceptedLanguages, chooseLanguage } from './choose-language.ts';
import { textDirection } from './languages.ts';
import { messagesFor } from './messages.ts';
import { LANGUAGE_COOKIE, pageLanguage, TIME_ZONE_COOKIE } from './page-language.ts';

function request(path: string, headers: Record<string, string> = {}): Request {
  return new Request(`https://sess.example${path}`, { headers });
}

describe('chooseLanguage', () => {
  it('takes the picker, then the saved choice, the remembered one, the form’s, the browser’s, then English', () => {
    const all = { query: 'fr', saved: 'es', remembered: 'sl', content: 'de', acceptLanguage: 'de-AT' };
    expect(chooseLanguage(all)).toBe('fr');
    expect(chooseLanguage({ ...all, query: undefined })).toBe('es');
    expect(chooseLanguage({ ...all, query: undefined, saved: null })).toBe('sl');
    expect(chooseLanguage({ content: 'de', acceptLanguage: 'fr' })).toBe('de');
    expect(chooseLanguage({ acceptLanguage: 'fr' })).toBe('fr');
    expect(chooseLanguage({})).toBe('en');
  });

  it('matches regional tags to the shipped language and skips a source Sess cannot speak', () => {
    expect(chooseLanguage({ content: 'de-CH' })).toBe('de');
    expect(chooseLanguage({ content: 'sl-SI' })).toBe('sl');
    expect(chooseLanguage({ content: 'pt-BR', acceptLanguage: 'es-419,es;q=0.9' })).toBe('es');
    expect(chooseLanguage({ remembered: 'not a tag!', acceptLanguage: 'fr' })).toBe('fr');
    expect(chooseLanguage({ acceptLanguage: 'ja, ko;q=0.5' })).toBe('en');
  });

  it('reads Accept-Language by q, in order for equal q, without * or q=0', () => {
    expect(acceptedLanguages('da, en-GB;q=0.8, en;q=0.7, *;q=0.5')).toEqual(['da', 'en-GB', 'en']);
    expect(acceptedLanguages('fr;q=0, de;q=0.4, sl;q=0.9')).toEqual(['sl', 'de']);
    expect(chooseLanguage({ acceptLanguage: 'fr;q=0, ja, sl;q=0.2, de;q=0.3' })).toBe('de');
    expect(acceptedLanguages(Array.from({ length: 500 }, () => 'xx').join(','))).toHaveLength(12);
  });
});

describe('pageLanguage', () => {
  it('remembers a picked language in a cookie, and links each language to this same page with its query', () => {
    const language = pageLanguage(request('/authorize?client_id=abc&state=x%20y&lang=sl'));
    expect(language.messages.tag).toBe('sl');
    expect(language.picked).toBe('sl');
    expect(language.rememberCookie).toBe(`${LANGUAGE_COOKIE}=sl; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax; Secure`);
    expect(language.messages.languageHref?.('de')).toBe('/authorize?client_id=abc&state=x+y&lang=de');
  });

  it('ignores a picked language Sess does not have (no cookie) and falls through', () => {
    const language = pageLanguage(request('/s/t?lang=xx', { 'accept-language': 'es' }));
    expect([language.messages.tag, language.rememberCookie, language.picked]).toEqual(['es', undefined, undefined]);
  });

  it('uses the remembered cookie over the form’s locale, and the form’s over the browser’s', () => {
    const headers = { cookie: `a=1; ${LANGUAGE_COOKIE}=fr`, 'accept-language': 'de' };
    expect(pageLanguage(request('/s/t', headers), { content: 'sl' }).messages.tag).toBe('fr');
    expect(pageLanguage(request('/s/t', { 'accept-language': 'de' }), { content: 'sl' }).messages.tag).toBe('sl');
  });

  it('shows dates in the browser’s zone from the cookie, and names UTC without one (or with a bad one)', () => {
    const at = new Date('2026-12-07T10:00:00Z');
    const zoned = pageLanguage(request('/', { cookie: `${TIME_ZONE_COOKIE}=Europe%2FLjubljana`, 'accept-language': 'de' }));
    expect(zoned.messages.timeZone).toBe('Europe/Ljubljana');
    expect(zoned.messages.dateTime(at)).toBe('07.12.2026, 11:00');
    for (const cookie of ['', `${TIME_ZONE_COOKIE}=Mars%2FOlympus`, `${TIME_ZONE_COOKIE}=%E0%A4%A`]) {
      const plain = pageLanguage(request('/', { cookie, 'accept-language': 'en' }));
      expect(plain.messages.timeZone).toBeUndefined();
      expect(plain.messages.dateTime(at)).toBe('Dec 7, 2026, 10:00 AM (UTC)');
    }
  });
});

describe('Messages', () => {
  it('formats numbers and lists in the language, and knows its direction', () => {
    expect(messagesFor('de').number(1234.5)).toBe('1.234,5');
    expect(messagesFor('fr').number(1234.5)).toBe('1\u202f234,5');
    expect(messagesFor('sl').list(['a', 'b', 'c'])).toBe('a, b in c');
    expect(messagesFor('xx').tag).toBe('en');
    expect([textDirection('ar'), textDirection('he-IL'), textDirection('de'), textDirection('!!')]).toEqual([
      'rtl',
      'rtl',
      'ltr',
      'ltr',
    ]);
  });
});
