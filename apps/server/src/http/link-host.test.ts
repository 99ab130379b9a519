import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { allowedHostsFor } from '../mcp/mount-mcp.ts';
import type { AppEnv } from './app-env.ts';
import { createLinkOrigins, linkHostOnly } from './link-host.ts';

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

describe('linkHostOnly: the cookies a handler sees on the link host', () => {
  // Over the real node adapter (its request headers are what a handler reads): PUBLIC_URL is
  // localhost, SESS_LINK_URL 127.0.0.1, one port. Each route answers with the Cookie header it got.
  let server: ReturnType<typeof serve>;
  let publicUrl: string;
  let linkUrl: string;
  beforeAll(async () => {
    let app: Hono<AppEnv> | undefined;
    server = await new Promise((resolve) => {
      const s = serve({ fetch: (request) => app!.fetch(request), port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    const port = (server.address() as AddressInfo).port;
    publicUrl = `http://localhost:${port}`;
    linkUrl = `http://127.0.0.1:${port}`;
    const config = loadConfig({ PUBLIC_URL: publicUrl, SESS_LINK_URL: linkUrl });
    app = new Hono<AppEnv>();
    app.use(linkHostOnly(config, createLinkOrigins(config)));
    const seen = (c: { req: { header(name: string): string | undefined } }) => c.req.header('cookie') ?? '(none)';
    app.get('/s/:token', (c) => c.text(seen(c)));
    app.post('/s/:token', async (c) => c.text(`${seen(c)} | ${await c.req.text()}`));
    app.get('/healthz', (c) => c.text(seen(c)));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const browserCookies = 'sess_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA; sess_csrf=c1; sess_respondent=r1';
  const seenAt = async (url: string, init: RequestInit = {}) =>
    (await fetch(url, { ...init, headers: { cookie: browserCookies, ...init.headers } })).text();

  it('only the answer pages’ own cookie reaches a handler there: a session cookie never does', async () => {
    expect(await seenAt(`${linkUrl}/s/tok`)).toBe('sess_respondent=r1');
    for (const path of ['/s/tok', '/healthz']) {
      const onlySession = await fetch(`${linkUrl}${path}`, { headers: { cookie: 'sess_session=x; other=y' } });
      expect(await onlySession.text(), path).toBe('(none)');
    }
    // A post keeps its body.
    const posted = await seenAt(`${linkUrl}/s/tok`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'answer=yes',
    });
    expect(posted).toBe('sess_respondent=r1 | answer=yes');
  });

  it('on PUBLIC_URL every cookie reaches the handler, as sent', async () => {
    expect(await seenAt(`${publicUrl}/s/tok`)).toBe(browserCookies);
  });
});
