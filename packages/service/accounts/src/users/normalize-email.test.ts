import { describe, expect, it } from 'vitest';
import { normalizeEmail } from './normalize-email.ts';

describe('normalizeEmail', () => {
  it.each([
    ['ann@example.com', 'ann@example.com'],
    ['  Ann.Lee+sess@Example.COM  ', 'ann.lee+sess@example.com'],
    ['x@sub.example.co.uk', 'x@sub.example.co.uk'],
  ])('%j → %j', (raw, email) => {
    expect(normalizeEmail(raw)).toBe(email);
  });

  it.each([
    '',
    'ann',
    'ann@',
    '@example.com',
    'ann@example',
    'a b@example.com',
    'ann@@example.com',
    'ann@example.com.',
    `${'a'.repeat(65)}@example.com`,
    `a@${'b'.repeat(250)}.com`,
    'ann@exa\u0000mple.com',
    'ann\uFFFF@example.com',
    'ann@example\u202E.com',
    'ann\uD800@example.com',
    42,
    undefined,
  ])('refuses %j', (raw) => {
    expect(normalizeEmail(raw)).toBeNull();
  });
});
