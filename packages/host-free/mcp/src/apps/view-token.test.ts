import { describe, expect, it } from 'vitest';
import { checkViewToken, issueViewToken, VIEW_TOKEN_TTL_MS, type ViewTokenBinding } from './view-token.ts';

const secret = 'a-server-secret-of-enough-length-0123456789';
const binding: ViewTokenBinding = { handle: 'hdl_a', revision: 2, principalId: 'usr_1', clientId: 'cli_1' };
const at = new Date('2026-12-07T10:00:00Z');

describe('the view token', () => {
  it('verifies for exactly its binding until it expires', () => {
    const token = issueViewToken(secret, binding, at);
    expect(checkViewToken(secret, binding, token, at)).toBe(true);
    expect(checkViewToken(secret, binding, token, new Date(at.getTime() + VIEW_TOKEN_TTL_MS - 1000))).toBe(true);
    expect(checkViewToken(secret, binding, token, new Date(at.getTime() + VIEW_TOKEN_TTL_MS))).toBe(false);
  });

  it.each([
    ['another handle', { handle: 'hdl_b' }],
    ['another revision', { revision: 3 }],
    ['another principal', { principalId: 'usr_2' }],
    ['another connector', { clientId: 'cli_2' }],
  ])('does not verify for %s', (_name, change) => {
    const token = issueViewToken(secret, binding, at);
    expect(checkViewToken(secret, { ...binding, ...change }, token, at)).toBe(false);
  });

  it('refuses another secret, a moved expiry, and anything that is not a token', () => {
    const token = issueViewToken(secret, binding, at);
    expect(checkViewToken(`${secret}x`, binding, token, at)).toBe(false);
    const [, expiry, mac] = token.split('.');
    expect(checkViewToken(secret, binding, `v1.${Number(expiry) + 3600}.${mac}`, at)).toBe(false);
    for (const bad of [undefined, null, 42, '', 'v1', `v2.${expiry}.${mac}`, `${token}x`, 'x'.repeat(4000)]) {
      expect(checkViewToken(secret, binding, bad, at)).toBe(false);
    }
  });
});
