import { describe, expect, it } from 'vitest';
import { checkRedirectUriForRegistration, displayRedirectHost, formActionSource, matchRedirectUri } from './redirect-uri.ts';

describe('checkRedirectUriForRegistration', () => {
  it.each([
    ['https://claude.ai/api/mcp/auth_callback', 'https'],
    ['https://claude.com/api/mcp/auth_callback', 'https'],
    ['https://chatgpt.com/connector/oauth/abc123', 'https'],
    ['https://chatgpt.com/connector_platform_oauth_redirect', 'https'],
    ['https://grok.com/connectors-oauth-exchange-code/', 'https'],
    ['https://www.cursor.com/agents/mcp/oauth/callback', 'https'],
    ['cursor://anysphere.cursor-mcp/oauth/callback', 'private-use'],
    ['vscode://saoudrizwan.claude-dev/mcp-auth/callback/5f2b1c', 'private-use'],
    ['http://localhost:8787/callback', 'loopback'],
    ['http://localhost/callback', 'loopback'],
    ['http://127.0.0.1/callback', 'loopback'],
    ['http://127.0.0.1:43117/mcp-auth/callback/5f2b1c', 'loopback'],
    ['http://[::1]:5000/cb', 'loopback'],
  ])('accepts %s as %s', (uri, kind) => {
    expect(checkRedirectUriForRegistration(uri)).toEqual({ ok: true, kind });
  });

  it.each([
    ['javascript:alert(1)', 'javascript'],
    ['JavaScript://x/%0aalert(1)', 'javascript'],
    ['data:text/html,hi', 'data'],
    ['file:///etc/passwd', 'file'],
    ['https://app.example/cb#frag', 'fragment'],
    ['https://user:pw@app.example/cb', 'user-info'],
    ['https://user@app.example/cb', 'user-info'],
    ['https://app.example/x/../cb', 'dot segments'],
    ['https://app.example/%2e%2e/cb', 'dot segments'],
    ['not a uri', 'spaces'],
    ['/relative/cb', 'absolute'],
    ['', 'empty'],
  ])('refuses %s as unsafe (%s)', (uri, reason) => {
    const check = checkRedirectUriForRegistration(uri);
    expect(check.ok).toBe(false);
    expect(check).toMatchObject({ unsafe: true });
    if (!check.ok) expect(check.reason).toContain(reason === 'javascript' ? 'javascript' : reason);
  });

  it('drops plain http to a remote host without refusing the registration', () => {
    expect(checkRedirectUriForRegistration('http://app.example/cb')).toMatchObject({ ok: false, unsafe: false });
    expect(checkRedirectUriForRegistration('http://LOCALHOST/cb')).toMatchObject({ ok: false, unsafe: false });
    expect(checkRedirectUriForRegistration('http://127.000.000.001/cb')).toMatchObject({ ok: false, unsafe: false });
  });
});

describe('matchRedirectUri', () => {
  const registered = [
    'https://app.example/cb',
    'http://localhost/callback',
    'http://127.0.0.1/callback',
    'cursor://anysphere.cursor-mcp/oauth/callback',
  ];

  it('matches exactly', () => {
    expect(matchRedirectUri(registered, 'https://app.example/cb')).toBe('https://app.example/cb');
    expect(matchRedirectUri(registered, 'cursor://anysphere.cursor-mcp/oauth/callback')).toBe(
      'cursor://anysphere.cursor-mcp/oauth/callback',
    );
  });

  it('matches loopback on any port, port-less registrations included (RFC 8252 §7.3)', () => {
    expect(matchRedirectUri(registered, 'http://localhost:53211/callback')).toBe('http://localhost/callback');
    expect(matchRedirectUri(registered, 'http://127.0.0.1:1/callback')).toBe('http://127.0.0.1/callback');
    expect(matchRedirectUri(['http://localhost:8787/callback'], 'http://localhost:9999/callback')).toBe(
      'http://localhost:8787/callback',
    );
  });

  it.each([
    'https://app.example/cb/',
    'https://app.example/cb?x=1',
    'https://app.example:443/cb',
    'https://APP.example/cb',
    'HTTPS://app.example/cb',
    'https://app.example/x/../cb',
    'https://evil@app.example/cb',
    'https://app.example.evil/cb',
    'http://app.example/cb',
    'https://app.example/CB',
    'http://LOCALHOST:5000/callback',
    'http://127.000.000.001:5000/callback',
    'http://127.0.0.2:5000/callback',
    'http://localhost:5000/callback/',
    'http://localhost:5000/x/../callback',
    'http://user@localhost:5000/callback',
    'http://localhost:0/callback',
    'http://localhost:99999/callback',
    'https://localhost:5000/callback',
    'http://127.0.0.1:5000/callback#x',
    'cursor://anysphere.cursor-mcp/oauth/callback2',
  ])('does not match %s', (requested) => {
    expect(matchRedirectUri(registered, requested)).toBeNull();
  });

  it('does not cross loopback host spellings', () => {
    expect(matchRedirectUri(['http://localhost/callback'], 'http://127.0.0.1:5000/callback')).toBeNull();
  });
});

describe('display and CSP helpers', () => {
  it('name the host a person is sent to', () => {
    expect(displayRedirectHost('https://claude.ai/api/mcp/auth_callback')).toBe('claude.ai');
    expect(displayRedirectHost('http://localhost:5000/cb')).toBe('localhost');
    expect(displayRedirectHost('cursor://anysphere.cursor-mcp/oauth/callback')).toBe('cursor:');
  });

  it('give the form-action source for the redirect after the consent post', () => {
    expect(formActionSource('https://claude.ai/api/mcp/auth_callback')).toBe('https://claude.ai');
    expect(formActionSource('http://127.0.0.1:5000/cb')).toBe('http://127.0.0.1:5000');
    expect(formActionSource('http://[::1]:5000/cb')).toBe('http:');
    expect(formActionSource('vscode://saoudrizwan.claude-dev/x')).toBe('vscode:');
  });
});
