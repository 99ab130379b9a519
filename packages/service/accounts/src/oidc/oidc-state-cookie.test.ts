import { describe, expect, it } from 'vitest';
import { openOidcState, sealOidcState } from './oidc-state-cookie.ts';

const SECRET = 'a-server-secret-of-at-least-32-characters';
const now = new Date('2026-06-01T10:00:00Z');
const state = { state: 's', nonce: 'n', codeVerifier: 'v', returnTo: '/account', expiresAt: now.getTime() + 600_000 };

describe('the signed OpenID state cookie', () => {
  it('opens what it sealed, until it expires', () => {
    const sealed = sealOidcState(SECRET, state);
    expect(openOidcState(SECRET, sealed, now)).toEqual(state);
    expect(openOidcState(SECRET, sealed, new Date(state.expiresAt))).toBeNull();
  });

  it('refuses another secret, an edited payload, a cut signature and junk', () => {
    const sealed = sealOidcState(SECRET, state);
    expect(openOidcState(`${SECRET}x`, sealed, now)).toBeNull();
    const [payload, signature] = sealed.split('.');
    const edited = Buffer.from(JSON.stringify({ ...state, returnTo: '//evil.com' })).toString('base64url');
    expect(openOidcState(SECRET, `${edited}.${signature}`, now)).toBeNull();
    expect(openOidcState(SECRET, `${payload}.${signature!.slice(1)}`, now)).toBeNull();
    for (const junk of [undefined, '', '.', 'abc', `${'a'.repeat(9000)}.x`]) expect(openOidcState(SECRET, junk, now)).toBeNull();
  });
});
