import { describe, expect, it } from 'vitest';
import { corsHeaders, createHostAllowlist, createOriginAllowlist, isHostAllowed, isOriginAllowed } from './preflight.ts';

describe('Host allowlist', () => {
  const allow = createHostAllowlist(['sess.example', 'localhost:8787', '[::1]']);
  it.each([
    ['sess.example', true],
    ['SESS.example:443', true],
    ['localhost:8787', true],
    ['localhost:9999', false],
    ['localhost', false],
    ['[::1]:80', true],
    ['sess.example.evil', false],
    ['evil.sess.example', false],
    ['', false],
  ])('%s → %s', (host, allowed) => {
    expect(isHostAllowed(host, allow)).toBe(allowed);
  });
  it('needs at least one host', () => {
    expect(() => createHostAllowlist([])).toThrow();
  });
});

describe('Origin allowlist', () => {
  const allow = createOriginAllowlist(['https://claude.ai', 'https://Client.Example/']);
  it.each([
    [null, true],
    ['', true],
    ['https://claude.ai', true],
    ['https://client.example', true],
    ['https://claude.ai:443', false],
    ['http://claude.ai', false],
    ['https://claude.ai.evil', false],
    ['null', false],
  ])('%s → %s', (origin, allowed) => {
    expect(isOriginAllowed(origin, allow)).toBe(allowed);
  });
  it('CORS headers only when there is an Origin; preflight adds methods and headers', () => {
    expect(corsHeaders(null, true)).toEqual({});
    expect(corsHeaders('https://claude.ai', false)).toMatchObject({
      'Access-Control-Allow-Origin': 'https://claude.ai',
      Vary: 'Origin',
    });
    expect(corsHeaders('https://claude.ai', true)['Access-Control-Allow-Headers']).toContain('Authorization');
  });
});
