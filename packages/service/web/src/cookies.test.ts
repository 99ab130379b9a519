import { describe, expect, it } from 'vitest';
import { clearCookie, readCookieValues, serializeCookie } from './cookies.ts';

describe('serializeCookie', () => {
  it('is HttpOnly, SameSite, host-only, with Max-Age; Secure only when asked', () => {
    expect(serializeCookie('c', 'v', { secure: false, maxAgeSeconds: 59.9 })).toBe(
      'c=v; Path=/; Max-Age=59; HttpOnly; SameSite=Lax',
    );
    expect(serializeCookie('c', 'v', { secure: true, maxAgeSeconds: 60, path: '/s/x', sameSite: 'Strict' })).toBe(
      'c=v; Path=/s/x; Max-Age=60; HttpOnly; SameSite=Strict; Secure',
    );
  });

  it('clears with the same name, path and attributes, Max-Age 0', () => {
    expect(clearCookie('c', { secure: true, path: '/signin/oidc' })).toBe(
      'c=; Path=/signin/oidc; Max-Age=0; HttpOnly; SameSite=Lax; Secure',
    );
  });
});

describe('readCookieValues', () => {
  it('reads every value of the name, in order, at most 5', () => {
    expect(readCookieValues('a=1; c=x; c=y', 'c')).toEqual(['x', 'y']);
    expect(readCookieValues(undefined, 'c')).toEqual([]);
    expect(readCookieValues(Array.from({ length: 50 }, () => 'k=v').join('; '), 'k')).toHaveLength(5);
  });
});
