import { ConfigError, loadConfig } from '@sess/server';
import { describe, expect, it } from 'vitest';

describe('SESS_TEST_ALLOW_LOOPBACK_CIMD', () => {
  const secret = 'x'.repeat(40);
  it('is off by default and on with 1', () => {
    expect(loadConfig({}).testAllowLoopbackCimd).toBe(false);
    expect(loadConfig({ SESS_TEST_ALLOW_LOOPBACK_CIMD: '1' }).testAllowLoopbackCimd).toBe(true);
  });

  it('is refused in production, and any value but 0 or 1 is refused', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', SESS_SECRET: secret, SESS_TEST_ALLOW_LOOPBACK_CIMD: '1' })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ NODE_ENV: 'production', SESS_SECRET: secret, SESS_TEST_ALLOW_LOOPBACK_CIMD: '1' })).toThrow(
      /test flag/,
    );
    expect(
      loadConfig({
        NODE_ENV: 'production',
        SESS_SECRET: secret,
        SESS_TEST_ALLOW_LOOPBACK_CIMD: '0',
        SESS_VAPID_SUBJECT: 'mailto:ops@acme.io',
      }).testAllowLoopbackCimd,
    ).toBe(false);
    expect(() => loadConfig({ SESS_TEST_ALLOW_LOOPBACK_CIMD: 'yes' })).toThrow(/must be 0 or 1/);
  });
});
