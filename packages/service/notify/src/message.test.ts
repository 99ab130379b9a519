import { describe, expect, it } from 'vitest';
import { composeMessage, devicePayload, MAX_PUSH_PAYLOAD_BYTES, type NotificationMessage } from './message.ts';
import { backoffMs, checkVapidSubject } from './worker.ts';

/** A message as `composeMessage` makes it (its words are @sess/notify-pages' `noticeTexts`, tested there). */
const message = (title: string, url = 'https://sess.test/s/x'): NotificationMessage => ({
  kind: 'form',
  title,
  url,
  body: 'Your agent is asking you something.',
  lang: 'en',
  mailText: '',
});

describe('what a notification says', () => {
  it('composes the words the texts give with the form’s title and link', () => {
    const composed = composeMessage(
      (facts) => ({ lang: 'de', body: `${facts.kind} ${facts.language.content}`, mailText: 'text' }),
      {
        kind: 'reminder',
        title: 'T',
        url: 'https://sess.test/s/x',
        ask: null,
        expiresAt: new Date(0),
        language: { content: 'de' },
      },
    );
    expect(composed).toEqual({
      kind: 'reminder',
      title: 'T',
      url: 'https://sess.test/s/x',
      lang: 'de',
      body: 'reminder de',
      mailText: 'text',
    });
  });

  it('the device payload: v, id, tag, kind, title, body, url, lang', () => {
    expect(JSON.parse(devicePayload(message('Approve?'), { id: 'ntf_1', topic: 'T' }) ?? '')).toEqual({
      v: 1,
      id: 'ntf_1',
      tag: 'T',
      kind: 'form',
      title: 'Approve?',
      body: 'Your agent is asking you something.',
      url: 'https://sess.test/s/x',
      lang: 'en',
    });
  });

  it('a long title is cut by code points to fit, never inside a character, and says so with an ellipsis', () => {
    for (const unit of ['a', 'é', '😀', '"', '\u0001']) {
      const title = unit.repeat(5000);
      const json = devicePayload(message(title), { id: 'ntf_1', topic: 'T' });
      expect(Buffer.byteLength(json ?? '', 'utf8')).toBeLessThanOrEqual(MAX_PUSH_PAYLOAD_BYTES);
      const cut = (JSON.parse(json ?? '') as { title: string }).title;
      expect(cut.endsWith('…')).toBe(true);
      expect([...cut.slice(0, -1)].every((c) => c === unit)).toBe(true);
      expect(cut.length).toBeGreaterThan(100);
    }
  });

  it('a link too long to push gives null', () => {
    expect(devicePayload(message('x', `https://sess.test/s/${'a'.repeat(4000)}`), { id: 'ntf_1', topic: 'T' })).toBeNull();
  });
});

describe('worker rules', () => {
  it('backoff: 15 s doubling, capped at 30 min, within ±25 %', () => {
    expect(backoffMs(1, () => 0.5)).toBe(15_000);
    expect(backoffMs(3, () => 0.5)).toBe(60_000);
    expect(backoffMs(20, () => 0.5)).toBe(30 * 60_000);
    expect(backoffMs(1, () => 0)).toBe(11_250);
    expect(backoffMs(1, () => 0.999_999)).toBeLessThanOrEqual(18_750);
  });

  it('the VAPID subject must be a mailto: or https: contact', () => {
    expect(checkVapidSubject('mailto:ops@example.com')).toBe('mailto:ops@example.com');
    expect(checkVapidSubject('https://example.com/contact')).toBe('https://example.com/contact');
    for (const bad of ['ops@example.com', 'http://example.com', ''])
      expect(() => checkVapidSubject(bad)).toThrow(expect.objectContaining({ code: 'NOT_CONFIGURED' }));
  });
});
