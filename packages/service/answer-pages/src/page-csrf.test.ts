import { describe, expect, it } from 'vitest';
import { createPageCsrf } from './page-csrf.ts';

const csrf = createPageCsrf('a-server-secret-of-at-least-32-characters');
const LINK = 'A'.repeat(43);

describe('page CSRF tokens', () => {
  it('verify for the purpose, link and revision they were issued for', () => {
    expect(csrf.verify('answer', LINK, 3, csrf.issue('answer', LINK, 3))).toBe(true);
  });

  it.each([
    ['another purpose', () => csrf.verify('extend', LINK, 3, csrf.issue('answer', LINK, 3))],
    ['another link', () => csrf.verify('answer', 'B'.repeat(43), 3, csrf.issue('answer', LINK, 3))],
    ['another revision', () => csrf.verify('answer', LINK, 4, csrf.issue('answer', LINK, 3))],
    ['another secret', () => csrf.verify('answer', LINK, 3, createPageCsrf('x'.repeat(32)).issue('answer', LINK, 3))],
    ['a missing token', () => csrf.verify('answer', LINK, 3, undefined)],
    ['an empty token', () => csrf.verify('answer', LINK, 3, '')],
    ['a token that is not a string', () => csrf.verify('answer', LINK, 3, ['x'])],
  ])('refuse %s', (_name, check) => {
    expect(check()).toBe(false);
  });

  it('are URL-safe and never contain the link', () => {
    const token = csrf.issue('start', LINK, 1);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(token).not.toContain(LINK);
  });
});
