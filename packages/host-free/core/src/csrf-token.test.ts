import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkCsrfToken, csrfToken, hmacTag } from './csrf-token.ts';

const SECRET = 'a-server-secret-of-at-least-32-characters';

describe('csrfToken / checkCsrfToken', () => {
  it('accepts the token of the same secret, session and purpose', () => {
    const token = csrfToken(SECRET, 'bs_one', 'oauth:consent');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(checkCsrfToken(SECRET, 'bs_one', 'oauth:consent', token)).toBe(true);
  });

  it.each([
    ['another session', 'bs_two', 'oauth:consent', SECRET],
    ['another purpose', 'bs_one', 'signout', SECRET],
    ['another secret', 'bs_one', 'oauth:consent', `${SECRET}x`],
  ])('refuses it for %s', (_name, sessionId, purpose, secret) => {
    const token = csrfToken(SECRET, 'bs_one', 'oauth:consent');
    expect(checkCsrfToken(secret, sessionId, purpose, token)).toBe(false);
  });

  it.each([undefined, null, '', 'x', 'x'.repeat(43), 'x'.repeat(500)])('refuses %j', (token) => {
    expect(checkCsrfToken(SECRET, 'bs_one', 'signout', token)).toBe(false);
  });

  it('does not let a session id and purpose be shifted into each other', () => {
    expect(csrfToken(SECRET, 'bs_a', 'b:c')).not.toBe(csrfToken(SECRET, 'bs_a\u0000b', 'c'));
  });
});

describe('hmacTag', () => {
  it('is the HMAC-SHA256 of the label and parts, NUL-separated (the account tokens of before stay valid)', () => {
    const expected = createHmac('sha256', SECRET).update('sess.csrf.v1\u0000bs_one\u0000signout', 'utf8').digest('base64url');
    expect(csrfToken(SECRET, 'bs_one', 'signout')).toBe(expected);
    expect(hmacTag(SECRET, 'sess.csrf.v1', ['bs_one', 'signout'])).toBe(expected);
  });
});
