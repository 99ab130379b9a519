import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { allowedHostsFor } from '../mcp/mount-mcp.ts';
import { createLinkOrigins } from './link-host.ts';

describe('createLinkOrigins', () => {
  it('tells the link Host from every other Host, as a browser writes it', () => {
    const origins = createLinkOrigins(loadConfig({ PUBLIC_URL: 'http://localhost:8787', SESS_LINK_URL: 'http://192.168.1.23' }));
    for (const host of ['192.168.1.23', '192.168.1.23:80']) expect(origins.isLinkHost(host), host).toBe(true);
    for (const host of [
      undefined,
      '',
      'localhost:8787',
      '192.168.1.23:8787',
      '192.168.1.230',
      '192.168.1.23/x',
      'a@192.168.1.23',
    ]) {
      expect(origins.isLinkHost(host), String(host)).toBe(false);
    }
  });

  it('without SESS_LINK_URL there is no link Host', () => {
    const origins = createLinkOrigins(loadConfig({ PUBLIC_URL: 'https://sess.example.com' }));
    expect(origins.isLinkHost('sess.example.com')).toBe(false);
    expect(origins.secureCookieFor('sess.example.com')).toBe(true);
  });

  it('cookies are Secure only on an https origin', () => {
    const origins = createLinkOrigins(
      loadConfig({ PUBLIC_URL: 'https://sess.example.com', SESS_LINK_URL: 'http://192.168.1.23:8787' }),
    );
    expect(origins.secureCookieFor('sess.example.com')).toBe(true);
    expect(origins.secureCookieFor('192.168.1.23:8787')).toBe(false);
    const reversed = createLinkOrigins(
      loadConfig({ PUBLIC_URL: 'http://localhost:8787', SESS_LINK_URL: 'https://answers.example.com' }),
    );
    expect(reversed.secureCookieFor('answers.example.com')).toBe(true);
    expect(reversed.secureCookieFor('localhost:8787')).toBe(false);
  });
});

describe('allowedHostsFor (/mcp)', () => {
  it('PUBLIC_URL and, outside production, the loopback names', () => {
    expect(allowedHostsFor(loadConfig({ PUBLIC_URL: 'http://localhost:8787' }))).toEqual([
      'localhost:8787',
      'localhost',
      '127.0.0.1',
      '[::1]',
    ]);
    const production = loadConfig({
      NODE_ENV: 'production',
      SESS_SECRET: 'x'.repeat(32),
      PUBLIC_URL: 'https://sess.example.com',
    });
    expect(allowedHostsFor(production)).toEqual(['sess.example.com']);
  });

  it('never the link Host, even when it is a loopback name', () => {
    const lan = loadConfig({ PUBLIC_URL: 'http://localhost:8787', SESS_LINK_URL: 'http://192.168.1.23:8787' });
    expect(allowedHostsFor(lan)).not.toContain('192.168.1.23:8787');
    const loopback = loadConfig({ PUBLIC_URL: 'http://localhost:8787', SESS_LINK_URL: 'http://127.0.0.1:8787' });
    expect(allowedHostsFor(loopback)).toEqual(['localhost:8787', 'localhost', '[::1]']);
  });
});
