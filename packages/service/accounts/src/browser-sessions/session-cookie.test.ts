import { describe, expect, it } from 'vitest';
import { clearSessionCookie, readSessionTokens, sessionCookie } from './session-cookie.ts';

const TOKEN = 'A'.repeat(43);

describe('the session cookie', () => {
  it('is HttpOnly, SameSite=Lax, Path=/, host-only, Secure only on https', () => {
    const now = new Date('2026-06-01T10:00:00Z');
    const expires = new Date(now.getTime() + 3600_000);
    expect(sessionCookie(TOKEN, expires, now, false)).toBe(`sess_session=${TOKEN}; Path=/; Max-Age=3600; HttpOnly; SameSite=Lax`);
    expect(sessionCookie(TOKEN, expires, now, true)).toBe(
      `sess_session=${TOKEN}; Path=/; Max-Age=3600; HttpOnly; SameSite=Lax; Secure`,
    );
    expect(clearSessionCookie(true)).toBe('sess_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure');
  });

  it('reads every well-formed token from a Cookie header, in order', () => {
    const other = 'B'.repeat(43);
    expect(readSessionTokens(`a=1; sess_session=${TOKEN}; sess_session=${other}`)).toEqual([TOKEN, other]);
    expect(readSessionTokens('sess_session=short; x=y')).toEqual([]);
    expect(readSessionTokens(undefined)).toEqual([]);
  });
});
