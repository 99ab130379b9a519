import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

/** The ConfigError `loadConfig` throws for `env`, or a failure when it accepts it. */
function refusal(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('loadConfig accepted the environment');
}

describe('SESS_LINK_URL', () => {
  it('defaults to PUBLIC_URL, and PUBLIC_URL to localhost on PORT', () => {
    expect(loadConfig({}).linkUrl).toBe('http://localhost:8787');
    expect(loadConfig({ PORT: '9000' })).toMatchObject({ publicUrl: 'http://localhost:9000', linkUrl: 'http://localhost:9000' });
    expect(loadConfig({ PUBLIC_URL: 'https://sess.example.com/' }).linkUrl).toBe('https://sess.example.com');
  });

  it('takes another origin, normalised as a browser writes it', () => {
    const config = loadConfig({ PUBLIC_URL: 'http://localhost:8787', SESS_LINK_URL: 'HTTP://192.168.1.23:8787/' });
    expect(config.publicUrl).toBe('http://localhost:8787');
    expect(config.linkUrl).toBe('http://192.168.1.23:8787');
    expect(loadConfig({ SESS_LINK_URL: 'https://answers.example.com:443' }).linkUrl).toBe('https://answers.example.com');
  });

  it("takes PUBLIC_URL's own origin (the same as unset)", () => {
    const config = loadConfig({ PUBLIC_URL: 'https://sess.example.com', SESS_LINK_URL: 'https://sess.example.com' });
    expect(config.linkUrl).toBe(config.publicUrl);
  });

  it.each([
    [
      '192.168.1.23:8787',
      /^SESS_LINK_URL must be an absolute URL such as https:\/\/sess\.example\.com \(got "192\.168\.1\.23:8787"\)\.$/,
    ],
    ['ftp://192.168.1.23', /^SESS_LINK_URL must start with https:\/\/ \(or http:\/\/ for local use\)/],
    ['http://192.168.1.23:8787/?x=1', /^SESS_LINK_URL must not carry a query, fragment or credentials/],
    ['http://user:pw@192.168.1.23:8787', /^SESS_LINK_URL must not carry a query, fragment or credentials/],
    ['http://192.168.1.23:8787/answers', /^SESS_LINK_URL must be an origin without a path/],
  ])('refuses %s with one line naming the variable', (value, message) => {
    expect(refusal({ SESS_LINK_URL: value }).message).toMatch(message);
  });

  it("refuses PUBLIC_URL's host under another scheme: the two are told apart by Host alone", () => {
    const error = refusal({ PUBLIC_URL: 'https://sess.example.com', SESS_LINK_URL: 'http://sess.example.com:443' });
    expect(error.variable).toBe('SESS_LINK_URL');
    expect(error.message).toMatch(/must name another host than PUBLIC_URL/);
    expect(refusal({ PUBLIC_URL: 'https://sess.example.com', SESS_LINK_URL: 'http://sess.example.com' }).variable).toBe(
      'SESS_LINK_URL',
    );
  });
});
