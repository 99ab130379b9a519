import { describe, expect, it } from 'vitest';
import { bearerChallenge, hasBearerCredential, readBearerToken } from './bearer.ts';

const RESOURCE = 'https://sess.example/.well-known/oauth-protected-resource/mcp';

describe('bearer challenges (RFC 6750 §3)', () => {
  it('no credentials: no error parameter, the metadata URL and the scope', () => {
    expect(bearerChallenge({ resourceMetadataUrl: RESOURCE, scopes: ['sess:interact'] })).toBe(
      `Bearer resource_metadata="${RESOURCE}", scope="sess:interact"`,
    );
  });

  it('invalid_token and insufficient_scope carry error and description, quoted safely', () => {
    expect(
      bearerChallenge({
        resourceMetadataUrl: RESOURCE,
        scopes: ['sess:interact'],
        error: 'invalid_token',
        description: 'bad "token"',
      }),
    ).toBe(
      `Bearer error="invalid_token", error_description="bad \\"token\\"", resource_metadata="${RESOURCE}", scope="sess:interact"`,
    );
    expect(
      bearerChallenge({ resourceMetadataUrl: RESOURCE, scopes: ['sess:interact', 'sess:admin'], error: 'insufficient_scope' }),
    ).toBe(`Bearer error="insufficient_scope", resource_metadata="${RESOURCE}", scope="sess:interact sess:admin"`);
  });

  it('escapes quotes and backslashes and folds line breaks, so a value cannot end the header', () => {
    expect(bearerChallenge({ resourceMetadataUrl: 'https://x/"y\\', error: 'invalid_token', description: 'a\r\nb' })).toBe(
      'Bearer error="invalid_token", error_description="a  b", resource_metadata="https://x/\\"y\\\\"',
    );
  });

  it('a realm, for a route without resource metadata', () => {
    expect(bearerChallenge({ realm: 'sess' })).toBe('Bearer realm="sess"');
  });
});

describe('readBearerToken', () => {
  it.each([
    [undefined, { kind: 'missing' }],
    ['', { kind: 'missing' }],
    ['Bearer abc.def-ghi_jkl', { kind: 'token', token: 'abc.def-ghi_jkl' }],
    ['bearer abc', { kind: 'token', token: 'abc' }],
    ['Bearer  abc  ', { kind: 'token', token: 'abc' }],
    ['Basic abc', { kind: 'malformed' }],
    ['Bearer', { kind: 'malformed' }],
    ['Bearer a b', { kind: 'malformed' }],
    ['Bearer a,b', { kind: 'malformed' }],
  ])('%o → %o', (header, expected) => {
    expect(readBearerToken(header)).toEqual(expected);
  });

  it('tells whether a bearer credential was presented at all', () => {
    expect(hasBearerCredential('Bearer abc')).toBe(true);
    expect(hasBearerCredential('bearer a b')).toBe(true);
    expect(hasBearerCredential('Basic abc')).toBe(false);
    expect(hasBearerCredential('Bearer ')).toBe(false);
    expect(hasBearerCredential(null)).toBe(false);
  });
});
