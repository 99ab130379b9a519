import { describe, expect, it } from 'vitest';
import { bearerChallenge, bearerChallenges, readBearerToken } from './bearer-challenge.ts';

describe('bearer challenges', () => {
  const challenges = bearerChallenges('https://sess.example', ['sess:interact']);

  it('no token: no error, the metadata URL and the scope', () => {
    expect(challenges.missingToken()).toEqual({
      status: 401,
      header: 'Bearer resource_metadata="https://sess.example/.well-known/oauth-protected-resource/mcp", scope="sess:interact"',
    });
  });

  it('a bad token: error="invalid_token"', () => {
    const { status, header } = challenges.invalidToken();
    expect(status).toBe(401);
    expect(header).toMatch(
      /^Bearer error="invalid_token", error_description="[^"]+", resource_metadata="https:\/\/sess\.example\/\.well-known\/oauth-protected-resource\/mcp", scope="sess:interact"$/,
    );
  });

  it('a missing scope: 403 insufficient_scope naming every needed scope', () => {
    const { status, header } = challenges.insufficientScope(['sess:interact', 'sess:admin']);
    expect(status).toBe(403);
    expect(header).toContain('error="insufficient_scope"');
    expect(header).toContain('scope="sess:interact sess:admin"');
  });

  it('escapes quotes', () => {
    expect(bearerChallenge({ resourceMetadataUrl: 'https://x/"y', error: 'invalid_token', errorDescription: 'a "b"' })).toBe(
      'Bearer error="invalid_token", error_description="a \\"b\\"", resource_metadata="https://x/\\"y"',
    );
  });
});

describe('readBearerToken', () => {
  it.each([
    [undefined, { kind: 'missing' }],
    ['', { kind: 'missing' }],
    ['Bearer abc.def-ghi_jkl', { kind: 'token', token: 'abc.def-ghi_jkl' }],
    ['bearer abc', { kind: 'token', token: 'abc' }],
    ['Basic abc', { kind: 'malformed' }],
    ['Bearer', { kind: 'malformed' }],
    ['Bearer a b', { kind: 'malformed' }],
    ['Bearer a,b', { kind: 'malformed' }],
  ])('%o → %o', (header, expected) => {
    expect(readBearerToken(header)).toEqual(expected);
  });
});
