import { describe, expect, it } from 'vitest';
import { isOAuthError } from '../errors/oauth-error.ts';
import { validateClientMetadata } from './validate-client-metadata.ts';

function refusal(input: unknown, source: 'dcr' | 'cimd' = 'dcr'): string | undefined {
  try {
    validateClientMetadata(input, source);
  } catch (error) {
    if (isOAuthError(error)) return error.code;
    throw error;
  }
  return undefined;
}

describe('validateClientMetadata', () => {
  it("keeps Cursor's three redirect URIs in one registration", () => {
    const m = validateClientMetadata(
      {
        client_name: 'Cursor',
        redirect_uris: [
          'cursor://anysphere.cursor-mcp/oauth/callback',
          'https://www.cursor.com/agents/mcp/oauth/callback',
          'http://localhost:8787/callback',
        ],
        token_endpoint_auth_method: 'none',
      },
      'dcr',
    );
    expect(m.redirectUris).toHaveLength(3);
    expect(m.tokenEndpointAuthMethod).toBe('none');
    expect(m.grantTypes).toEqual(['authorization_code', 'refresh_token']);
  });

  it('drops an odd URI but keeps the registration', () => {
    const m = validateClientMetadata(
      { redirect_uris: ['http://app.example/cb', 'https://app.example/cb'], token_endpoint_auth_method: 'none' },
      'dcr',
    );
    expect(m.redirectUris).toEqual(['https://app.example/cb']);
    expect(m.droppedRedirectUris).toHaveLength(1);
  });

  it('ignores grant types meant for other servers, and unknown fields', () => {
    const m = validateClientMetadata(
      {
        redirect_uris: ['https://claude.ai/api/mcp/auth_callback'],
        grant_types: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:jwt-bearer'],
        whatever: 1,
      },
      'cimd',
    );
    expect(m.grantTypes).toEqual(['authorization_code', 'refresh_token']);
    expect(m.tokenEndpointAuthMethod).toBe('none');
  });

  it('accepts application_type web and native', () => {
    expect(
      validateClientMetadata({ redirect_uris: ['http://127.0.0.1:5/cb'], application_type: 'native' }, 'dcr').applicationType,
    ).toBe('native');
    expect(refusal({ redirect_uris: ['https://a.example/cb'], application_type: 'desktop' })).toBe('invalid_client_metadata');
  });

  it('defaults DCR to client_secret_basic (RFC 7591) and refuses secrets for CIMD', () => {
    expect(validateClientMetadata({ redirect_uris: ['https://a.example/cb'] }, 'dcr').tokenEndpointAuthMethod).toBe(
      'client_secret_basic',
    );
    expect(refusal({ redirect_uris: ['https://a.example/cb'], token_endpoint_auth_method: 'client_secret_post' }, 'cimd')).toBe(
      'invalid_client_metadata',
    );
    expect(refusal({ redirect_uris: ['https://a.example/cb'], token_endpoint_auth_method: 'private_key_jwt' })).toBe(
      'invalid_client_metadata',
    );
  });

  it('cleans and caps the client name (zero-width characters out, whitespace collapsed, 120 characters)', () => {
    const m = validateClientMetadata(
      { redirect_uris: ['https://a.example/cb'], client_name: ` Evil\u200b\u200f \n ${'x'.repeat(300)}` },
      'dcr',
    );
    expect(m.clientName!.startsWith('Evil x')).toBe(true);
    expect([...m.clientName!]).toHaveLength(120);
  });

  it.each([
    ['client_name', { client_name: 'Evil\u202e' }, 'client_name contains a bidirectional control character (U+202E)'],
    ['client_name', { client_name: 'A\u0000' }, 'client_name contains a NUL character (U+0000)'],
    ['a redirect URI', { redirect_uris: ['https://a.example/\u001b'] }, 'redirect_uris[0] contains a control character'],
    ['an unknown field', { logo: { alt: 'x\uD800' } }, 'logo.alt contains an unpaired UTF-16 surrogate'],
  ])('refuses a character Sess refuses in %s, naming where (invalid_client_metadata)', (_, extra, words) => {
    expect(() => validateClientMetadata({ redirect_uris: ['https://a.example/cb'], ...extra }, 'dcr')).toThrowError(
      expect.objectContaining({ code: 'invalid_client_metadata', description: expect.stringContaining(words) }),
    );
  });

  it.each([
    [{}, 'invalid_redirect_uri'],
    [{ redirect_uris: [] }, 'invalid_redirect_uri'],
    [{ redirect_uris: 'https://a.example/cb' }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['https://a.example/cb', 'javascript:alert(1)'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['https://a.example/cb#x'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['http://a.example/cb'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: Array.from({ length: 11 }, (_, i) => `https://a.example/${i}`) }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['https://a.example/cb'], grant_types: ['client_credentials'] }, 'invalid_client_metadata'],
    [{ redirect_uris: ['https://a.example/cb'], response_types: ['token'] }, 'invalid_client_metadata'],
    [{ redirect_uris: ['https://a.example/cb'], scope: 'a"b' }, 'invalid_client_metadata'],
    [{ redirect_uris: ['https://a.example/cb'], client_name: 5 }, 'invalid_client_metadata'],
    [[], 'invalid_client_metadata'],
    [null, 'invalid_client_metadata'],
  ])('refuses %o with %s', (input, code) => {
    expect(refusal(input)).toBe(code);
  });
});
