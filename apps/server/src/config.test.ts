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

describe('notifications', () => {
  const production = { NODE_ENV: 'production', SESS_SECRET: 'x'.repeat(32) };

  it('are on by default, with a local VAPID subject outside production and no e-mail', () => {
    expect(loadConfig({}).notifications).toEqual({ vapidSubject: 'mailto:sess@localhost', mail: null });
  });

  it('SESS_NOTIFICATIONS=off turns them off (no subject needed, even in production)', () => {
    expect(loadConfig({ SESS_NOTIFICATIONS: 'off' }).notifications).toBeNull();
    expect(loadConfig({ ...production, SESS_NOTIFICATIONS: 'off' }).notifications).toBeNull();
    expect(refusal({ SESS_NOTIFICATIONS: 'maybe' }).message).toBe('SESS_NOTIFICATIONS must be on or off (got "maybe").');
  });

  it('in production the subject defaults to an https PUBLIC_URL, and is required otherwise', () => {
    expect(loadConfig({ ...production, PUBLIC_URL: 'https://sess.acme.io' }).notifications?.vapidSubject).toBe(
      'https://sess.acme.io',
    );
    const error = refusal(production);
    expect(error.variable).toBe('SESS_VAPID_SUBJECT');
    expect(error.message).toMatch(/^SESS_VAPID_SUBJECT is required when NODE_ENV=production and PUBLIC_URL is not https:\/\//);
  });

  it('takes a mailto: or https: subject', () => {
    for (const subject of ['mailto:ops@acme.io', 'https://acme.io/contact']) {
      expect(loadConfig({ ...production, SESS_VAPID_SUBJECT: subject }).notifications?.vapidSubject).toBe(subject);
    }
    expect(loadConfig({ SESS_VAPID_SUBJECT: 'mailto:me@localhost' }).notifications?.vapidSubject).toBe('mailto:me@localhost');
  });

  it.each(['ops@acme.io', 'http://acme.io', 'mailto:not-an-address', 'https://user:pw@acme.io', 'ftp://acme.io'])(
    'refuses the subject %s',
    (subject) => {
      expect(refusal({ SESS_VAPID_SUBJECT: subject }).message).toMatch(
        /^SESS_VAPID_SUBJECT must be a mailto: or https: address, such as mailto:ops@your-domain\.com/,
      );
    },
  );

  it.each([
    'mailto:sess@localhost',
    'mailto:ops@example.com',
    'https://sess.example.org',
    'https://example.net',
    'mailto:ops@sess.invalid',
    'https://sess.test',
    'mailto:me@printer.local',
    'https://127.0.0.1',
    'mailto:root@intranet',
  ])('refuses the placeholder subject %s in production', (subject) => {
    const error = refusal({ ...production, SESS_VAPID_SUBJECT: subject });
    expect(error.variable).toBe('SESS_VAPID_SUBJECT');
    expect(error.message).toMatch(/must name a real address when NODE_ENV=production/);
  });

  it('sends e-mail through SMTP_URL from SMTP_FROM; the two come as a pair', () => {
    const mail = { SMTP_URL: 'smtps://sess:hunter2-smtp@mail.acme.io:465', SMTP_FROM: 'sess@acme.io' };
    expect(loadConfig(mail).notifications?.mail).toEqual({ smtpUrl: mail.SMTP_URL, from: 'sess@acme.io' });
    expect(loadConfig({ ...mail, SMTP_URL: 'smtp://127.0.0.1:2525' }).notifications?.mail?.smtpUrl).toBe('smtp://127.0.0.1:2525');
    expect(refusal({ SMTP_URL: mail.SMTP_URL }).message).toMatch(/^SMTP_FROM is required when SMTP_URL is set/);
    expect(refusal({ SMTP_FROM: 'sess@acme.io' }).message).toMatch(/^SMTP_URL is required when SMTP_FROM is set/);
    expect(refusal({ ...mail, SMTP_FROM: 'Sess' }).message).toBe(
      'SMTP_FROM must be an e-mail address, such as sess@your-domain.com (got "Sess").',
    );
  });

  it('never echoes SMTP_URL (it may hold a password)', () => {
    for (const value of ['https://sess:hunter2-smtp@mail.acme.io', 'smtp://sess:hunter2-smtp@']) {
      const error = refusal({ SMTP_URL: value, SMTP_FROM: 'sess@acme.io' });
      expect(error.variable).toBe('SMTP_URL');
      expect(error.message).not.toContain('hunter2');
    }
  });
});

describe('egress (SESS_TEST_LOOPBACK_EGRESS, SESS_EGRESS_DNS_SERVERS)', () => {
  const production = { NODE_ENV: 'production', SESS_SECRET: 'x'.repeat(40), SESS_VAPID_SUBJECT: 'mailto:ops@acme.io' };

  it('is the public policy with the system resolver by default, and loopback-only under the test flag', () => {
    expect(loadConfig({}).egress).toEqual({ policy: 'public' });
    expect(loadConfig({ SESS_TEST_LOOPBACK_EGRESS: '1' }).egress).toEqual({ policy: 'loopback-only' });
    expect(loadConfig({ ...production, SESS_TEST_LOOPBACK_EGRESS: '0' }).egress).toEqual({ policy: 'public' });
  });

  it('refuses the test flag in production, and any value but 0 or 1', () => {
    expect(refusal({ ...production, SESS_TEST_LOOPBACK_EGRESS: '1' })).toMatchObject({
      variable: 'SESS_TEST_LOOPBACK_EGRESS',
      message: expect.stringContaining('test flag'),
    });
    expect(refusal({ SESS_TEST_LOOPBACK_EGRESS: 'yes' }).message).toMatch(/must be 0 or 1/);
  });

  it('takes DNS servers with optional ports, and refuses anything else naming the variable', () => {
    expect(loadConfig({ SESS_EGRESS_DNS_SERVERS: '1.1.1.1, 127.0.0.1:5353,2606:4700:4700::1111,[::1]:53' }).egress).toEqual({
      policy: 'public',
      dnsServers: ['1.1.1.1', '127.0.0.1:5353', '2606:4700:4700::1111', '[::1]:53'],
    });
    for (const value of ['dns.example', '1.1.1.1:99999', '300.1.1.1', '[::1', ',']) {
      expect(refusal({ SESS_EGRESS_DNS_SERVERS: value }).variable, value).toBe('SESS_EGRESS_DNS_SERVERS');
    }
  });
});

describe('SHUTDOWN_DRAIN_MS', () => {
  const production = { NODE_ENV: 'production', SESS_SECRET: 'x'.repeat(32), SESS_NOTIFICATIONS: 'off' };

  it('drains 3 s by default in production, where a proxy checks /readyz, and not at all elsewhere', () => {
    expect(loadConfig(production).shutdownDrainMs).toBe(3000);
    expect(loadConfig({}).shutdownDrainMs).toBe(0);
    expect(loadConfig({ NODE_ENV: 'test' }).shutdownDrainMs).toBe(0);
  });

  it('takes a whole number of milliseconds up to 600000, 0 included, and refuses anything else', () => {
    expect(loadConfig({ ...production, SHUTDOWN_DRAIN_MS: '0' }).shutdownDrainMs).toBe(0);
    expect(loadConfig({ SHUTDOWN_DRAIN_MS: '5000' }).shutdownDrainMs).toBe(5000);
    expect(refusal({ SHUTDOWN_DRAIN_MS: '3s' }).message).toBe(
      'SHUTDOWN_DRAIN_MS must be a whole number from 0 to 600000 (got "3s").',
    );
    expect(refusal({ SHUTDOWN_DRAIN_MS: '600001' }).variable).toBe('SHUTDOWN_DRAIN_MS');
  });
});

describe('METRICS_PORT, METRICS_HOST, METRICS_TOKEN', () => {
  const token = 'a'.repeat(24) + 'B-._~+/9'.repeat(2);

  it('are off unless a port or a token is set', () => {
    expect(loadConfig({}).metrics).toBeNull();
    expect(loadConfig({ METRICS_HOST: '0.0.0.0' }).metrics).toBeNull();
  });

  it('take a listener of its own on loopback by default, a token, or both', () => {
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ port: 9464, host: '127.0.0.1', token: undefined });
    expect(loadConfig({ METRICS_TOKEN: token }).metrics).toEqual({ port: undefined, host: '127.0.0.1', token });
    expect(loadConfig({ METRICS_PORT: '0', METRICS_HOST: '::', METRICS_TOKEN: token }).metrics).toEqual({
      port: 0,
      host: '::',
      token,
    });
  });

  it('refuse the main port, and a short or malformed token without echoing it', () => {
    expect(refusal({ PORT: '9000', METRICS_PORT: '9000' }).message).toBe('METRICS_PORT must differ from PORT (both are 9000).');
    for (const bad of ['short', `${token} x`, `${token}é`]) {
      const error = refusal({ METRICS_TOKEN: bad });
      expect(error.variable).toBe('METRICS_TOKEN');
      expect(error.message).not.toContain(bad);
    }
  });
});

describe('tracing (OTEL_*)', () => {
  const endpoint = 'http://127.0.0.1:4318';

  it('is off without an OTLP endpoint, and on with either the general or the traces one', () => {
    expect(loadConfig({}).tracing).toBe(false);
    expect(loadConfig({ OTEL_SERVICE_NAME: 'sess-eu' }).tracing).toBe(false);
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint }).tracing).toBe(true);
    expect(loadConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${endpoint}/v1/traces` }).tracing).toBe(true);
  });

  it('stays off when the SDK is disabled or its traces exporter is none, as the SDK itself would', () => {
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SDK_DISABLED: 'TRUE' }).tracing).toBe(false);
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SDK_DISABLED: 'false' }).tracing).toBe(true);
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_TRACES_EXPORTER: 'none' }).tracing).toBe(false);
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_TRACES_EXPORTER: 'otlp' }).tracing).toBe(true);
  });

  it('refuses an endpoint that is not an http(s) URL, without echoing it (it may carry credentials)', () => {
    const error = refusal({ OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://user:pw@collector:4317' });
    expect(error.message).toBe('OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL, such as http://127.0.0.1:4318.');
    expect(refusal({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'collector:4318' }).variable).toBe('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  });
});
