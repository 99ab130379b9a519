import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseReturnTo, safeReturnTo } from './safe-return-to.ts';

describe('safeReturnTo', () => {
  it.each([
    '/account',
    '/account/keys',
    '/oauth/authorize?response_type=code&client_id=https%3A%2F%2Fclaude.ai%2Foauth%2Fx&state=a%2Fb',
    '/a?next=//evil.com',
    '/%2F%2Fevil.com',
    '/%5Cevil.com',
  ])('keeps the same-origin path %j', (value) => {
    expect(safeReturnTo(value)).toBe(value);
  });

  it.each([
    ['protocol-relative', '//evil.com'],
    ['protocol-relative with path', '//evil.com/account'],
    ['backslash', '/\\evil.com'],
    ['backslash later', '/a\\b'],
    ['double backslash', '\\\\evil.com'],
    ['absolute https', 'https://evil.com'],
    ['absolute http, one slash', 'http:/evil.com'],
    ['javascript', 'javascript:alert(1)'],
    ['data', 'data:text/html,x'],
    ['relative', 'account'],
    ['tab inside', '/\t/evil.com'],
    ['newline inside', '/\n/evil.com'],
    ['leading space', ' /account'],
    ['space inside', '/a b'],
    ['empty', ''],
    ['non-ASCII', '/konto/ä'],
    ['too long', `/${'a'.repeat(4096)}`],
  ])('refuses %s', (_name, value) => {
    expect(parseReturnTo(value)).toBeNull();
    expect(safeReturnTo(value)).toBe('/account');
  });

  it('refuses what is not a string', () => {
    for (const value of [undefined, null, 42, ['/account'], { toString: () => '/account' }])
      expect(safeReturnTo(value)).toBe('/account');
  });

  it('never yields anything a browser would resolve to another origin (property)', () => {
    const base = 'https://sess.example';
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom('/', '\\', '.', ':', 'a', 'e', '%', '2', 'F', '@', '?', '#', '\t', ' ', 'h', 't', 'p', 's'),
        }),
        (value) => {
          const result = safeReturnTo(value);
          expect(new URL(result, base).origin).toBe(base);
          expect(result.startsWith('/')).toBe(true);
          expect(result.startsWith('//')).toBe(false);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
