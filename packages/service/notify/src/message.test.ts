import { describe, expect, it } from 'vitest';
import { bodyFor, composeMessage, devicePayload, MAX_PUSH_PAYLOAD_BYTES } from './message.ts';
import { backoffMs, checkVapidSubject } from './worker.ts';

describe('what a notification says', () => {
  it('one line of why per kind; the Ask kinds with their counts', () => {
    expect(bodyFor('form', null)).toBe('Your agent is asking you something.');
    expect(bodyFor('follow_up', null)).toBe('Your agent has an update on this.');
    expect(bodyFor('reminder', null)).toBe('Still waiting for your answer; the link lapses soon.');
    expect(bodyFor('ask_answer', { answered: 2, max: 5 })).toBe('2 of 5 answered.');
    expect(bodyFor('ask_closed', { answered: 3, max: 5 })).toBe('Closed with 3 answers.');
    expect(bodyFor('ask_closed', { answered: 1, max: 5 })).toBe('Closed with 1 answer.');
    expect(bodyFor('ask_closed', { answered: 2, max: 3, decision: 'approved' })).toBe('Decided: approved, with 2 answers.');
  });

  it('the device payload: v, id, tag, kind, title, body, url', () => {
    const message = composeMessage('form', { title: 'Approve?', url: 'https://sess.test/s/x' }, null);
    expect(JSON.parse(devicePayload(message, { id: 'ntf_1', topic: 'T' }) ?? '')).toEqual({
      v: 1,
      id: 'ntf_1',
      tag: 'T',
      kind: 'form',
      title: 'Approve?',
      body: 'Your agent is asking you something.',
      url: 'https://sess.test/s/x',
    });
  });

  it('a long title is cut by code points to fit, never inside a character, and says so with an ellipsis', () => {
    for (const unit of ['a', 'é', '😀', '"', '\u0001']) {
      const title = unit.repeat(5000);
      const json = devicePayload(composeMessage('form', { title, url: 'https://sess.test/s/x' }, null), {
        id: 'ntf_1',
        topic: 'T',
      });
      expect(Buffer.byteLength(json ?? '', 'utf8')).toBeLessThanOrEqual(MAX_PUSH_PAYLOAD_BYTES);
      const cut = (JSON.parse(json ?? '') as { title: string }).title;
      expect(cut.endsWith('…')).toBe(true);
      expect([...cut.slice(0, -1)].every((c) => c === unit)).toBe(true);
      expect(cut.length).toBeGreaterThan(100);
    }
  });

  it('a link too long to push gives null', () => {
    const message = composeMessage('form', { title: 'x', url: `https://sess.test/s/${'a'.repeat(4000)}` }, null);
    expect(devicePayload(message, { id: 'ntf_1', topic: 'T' })).toBeNull();
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
