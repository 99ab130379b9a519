import type { NoticeFacts } from '@sess/notify';
import { describe, expect, it } from 'vitest';
import { noticeLanguage, noticeTexts } from './notice-texts.ts';

const EXPIRES = new Date('2026-12-08T17:30:00Z');
const facts = (over: Partial<NoticeFacts> = {}): NoticeFacts => ({
  kind: 'form',
  title: 'Deploy?',
  url: 'https://sess.test/s/x',
  ask: null,
  expiresAt: EXPIRES,
  language: {},
  ...over,
});

describe('the words of a notification', () => {
  it('one line of why per kind; the Ask kinds with their counts (English)', () => {
    const body = (over: Partial<NoticeFacts>) => noticeTexts(facts(over)).body;
    expect(body({ kind: 'form' })).toBe('Your agent is asking you something.');
    expect(body({ kind: 'follow_up' })).toBe('Your agent has an update on this.');
    expect(body({ kind: 'reminder' })).toBe('Still waiting for your answer; the link lapses soon.');
    expect(body({ kind: 'ask_answer', ask: { answered: 2, max: 5 } })).toBe('2 of 5 answered.');
    expect(body({ kind: 'ask_closed', ask: { answered: 3, max: 5 } })).toBe('Closed with 3 answers.');
    expect(body({ kind: 'ask_closed', ask: { answered: 1, max: 5 } })).toBe('Closed with 1 answer.');
    expect(body({ kind: 'ask_closed', ask: { answered: 2, max: 3, decision: 'approved' } })).toBe(
      'Decided: approved, with 2 answers.',
    );
    expect(body({ kind: 'ask_closed', ask: { answered: 1, max: 3, decision: 'rejected' } })).toBe(
      'Decided: rejected, with 1 answer.',
    );
  });

  it('a German form’s push line and e-mail are German; the link’s end in UTC, named', () => {
    const words = noticeTexts(facts({ language: { content: 'de' } }));
    expect(words.lang).toBe('de');
    expect(words.body).toBe('Ihr Agent hat eine Frage an Sie.');
    expect(words.mailText.split('\n')).toEqual([
      'Ihr Agent hat eine Frage an Sie.',
      '',
      'Deploy?',
      'https://sess.test/s/x',
      '',
      expect.stringMatching(/^Der Link gilt bis 8\. Dezember 2026 um 17:30 \(UTC\)\.$/),
      '',
      expect.stringContaining('E-Mail-Benachrichtigungen'),
      '',
    ]);
    expect(noticeTexts(facts({ kind: 'ask_closed', ask: { answered: 1, max: 2 }, language: { content: 'de-AT' } })).body).toBe(
      'Abgeschlossen mit 1 Antwort.',
    );
  });

  it('a form in a language Sess does not ship, or in none, is told in English', () => {
    for (const content of ['pt-BR', 'tlh', 'not a tag', undefined]) {
      const words = noticeTexts(facts({ language: { content } }));
      expect(words.lang, String(content)).toBe('en');
      expect(words.body).toBe('Your agent is asking you something.');
      expect(words.mailText).toContain('The link works until December 8, 2026 at 5:30 PM (UTC).');
      expect(words.mailText).toContain('e-mail notifications are on for your account');
    }
  });

  it('the recipient’s saved language comes before the form’s', () => {
    expect(noticeLanguage({ saved: 'sl', content: 'de' })).toBe('sl');
    expect(noticeLanguage({ saved: 'xx', content: 'de' })).toBe('de');
    expect(noticeLanguage({ saved: null, content: null })).toBe('en');
    expect(noticeTexts(facts({ language: { saved: 'fr', content: 'de' } })).body).toBe('Votre agent vous pose une question.');
  });

  it('the link’s end in the recipient’s time zone, named, when they saved one; Ask updates say no end', () => {
    const words = noticeTexts(facts({ timeZone: 'Europe/Ljubljana', language: { content: 'sl' } }));
    expect(words.mailText).toContain('Povezava velja do 8. december 2026 ob 18:30 (Europe/Ljubljana).');
    expect(noticeTexts(facts({ kind: 'ask_answer', ask: { answered: 1, max: 2 } })).mailText).not.toContain('until');
  });

  it('Slovenian counts take their dual and plural forms', () => {
    const closed = (answered: number) =>
      noticeTexts(facts({ kind: 'ask_closed', ask: { answered, max: 9 }, language: { content: 'sl' } })).body;
    expect([1, 2, 3, 5].map(closed)).toEqual([
      'Zaprto, prejet je 1 odgovor.',
      'Zaprto, prejeta sta 2 odgovora.',
      'Zaprto, prejeti so 3 odgovori.',
      'Zaprto, prejetih je 5 odgovorov.',
    ]);
  });
});
