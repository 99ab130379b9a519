import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

const SECRET = 'x'.repeat(32);

describe('accounts configuration', () => {
  it('SESS_SIGNUP defaults to open in development and invite in production', () => {
    expect(loadConfig({}).signupPolicy).toBe('open');
    expect(
      loadConfig({ NODE_ENV: 'production', SESS_SECRET: SECRET, SESS_VAPID_SUBJECT: 'mailto:ops@acme.io' }).signupPolicy,
    ).toBe('invite');
    expect(
      loadConfig({ NODE_ENV: 'production', SESS_SECRET: SECRET, SESS_SIGNUP: 'closed', SESS_VAPID_SUBJECT: 'mailto:ops@acme.io' })
        .signupPolicy,
    ).toBe('closed');
  });

  it('refuses an unknown SESS_SIGNUP', () => {
    expect(() => loadConfig({ SESS_SIGNUP: 'everyone' })).toThrow(/SESS_SIGNUP must be one of open, invite, closed/);
  });

  it('takes OIDC_* as a set of three, and names the provider after its host unless told', () => {
    expect(loadConfig({}).oidc).toBeNull();
    const config = loadConfig({
      NODE_ENV: 'production',
      SESS_VAPID_SUBJECT: 'mailto:ops@acme.io',
      SESS_SECRET: SECRET,
      OIDC_ISSUER: 'https://accounts.example.com',
      OIDC_CLIENT_ID: 'sess',
      OIDC_CLIENT_SECRET: 'shh',
    });
    expect(config.oidc).toEqual({
      issuer: 'https://accounts.example.com',
      clientId: 'sess',
      clientSecret: 'shh',
      name: 'accounts.example.com',
      allowInsecureRequests: false,
    });
    expect(
      loadConfig({ OIDC_ISSUER: 'https://a.example', OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 's', OIDC_PROVIDER_NAME: 'Acme' })
        .oidc?.name,
    ).toBe('Acme');
    expect(() => loadConfig({ OIDC_ISSUER: 'https://a.example' })).toThrow(/OIDC_CLIENT_ID is required/);
    expect(() => loadConfig({ OIDC_CLIENT_SECRET: 'hunter2' })).toThrow(/OIDC_ISSUER is required/);
  });

  it('allows an http:// issuer only outside production (tests, local development)', () => {
    const env = { OIDC_ISSUER: 'http://127.0.0.1:9999', OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 's' };
    expect(loadConfig({ ...env, NODE_ENV: 'test' }).oidc?.allowInsecureRequests).toBe(true);
    expect(() => loadConfig({ ...env, NODE_ENV: 'production', SESS_SECRET: SECRET })).toThrow(ConfigError);
    expect(() => loadConfig({ ...env, NODE_ENV: 'production', SESS_SECRET: SECRET })).toThrow(
      /OIDC_ISSUER must start with https:\/\//,
    );
  });

  it('never echoes OIDC_CLIENT_SECRET in an error', () => {
    try {
      loadConfig({ OIDC_ISSUER: 'https://a.example', OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 'y'.repeat(2000) });
      expect.unreachable();
    } catch (error) {
      expect(String(error)).not.toContain('yyyy');
    }
  });
});
