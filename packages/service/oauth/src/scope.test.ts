import { describe, expect, it } from 'vitest';
import { isOAuthError } from './errors/oauth-error.ts';
import { formatScope, grantableScopes, parseScopeParameter } from './scope.ts';
import { SCOPE_INTERACT } from './settings.ts';

describe('scopes', () => {
  it.each([
    [undefined, [SCOPE_INTERACT]],
    ['', [SCOPE_INTERACT]],
    [SCOPE_INTERACT, [SCOPE_INTERACT]],
    ['claudeai', [SCOPE_INTERACT]],
    ['openid profile', [SCOPE_INTERACT]],
    [`offline_access ${SCOPE_INTERACT} claudeai`, [SCOPE_INTERACT]],
  ])('grants the supported subset of %o, never invalid_scope for an extra', (requested, granted) => {
    expect(grantableScopes(parseScopeParameter(requested))).toEqual(granted);
  });

  it.each(['a"b', 'a\\b', 'a\u0000b', 'é', 'x'.repeat(1001)])('refuses malformed scope %o', (value) => {
    let thrown: unknown;
    try {
      parseScopeParameter(value);
    } catch (error) {
      thrown = error;
    }
    expect(isOAuthError(thrown) && thrown.code).toBe('invalid_scope');
  });

  it('formats without duplicates', () => {
    expect(formatScope(['a', 'b', 'a'])).toBe('a b');
  });
});
