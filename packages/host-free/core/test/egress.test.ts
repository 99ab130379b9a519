import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEgress, type Egress, egressFetch } from '@sess/core/egress';
import { recordConnectionAttempts } from '@sess/testkit';
import { startDnsServer, type TestDnsServer } from '@sess/testkit/dns-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * The egress's own rules over real HTTP on loopback (under the test policy, which reaches
 * loopback only) and real DNS (a server of the test's own, given to production's policy).
 * The table of refused addresses is pinned in src/egress/refused-ranges.test.ts, and what the
 * push sender reaches in a namespace where they are all live in packages/notify.
 */

type Handler = (request: IncomingMessage, response: ServerResponse) => void;
let server: Server;
let origin: string;
const routes = new Map<string, Handler>();
const hits = new Map<string, number>();
let dns: TestDnsServer;
let test: Egress;
let production: Egress;

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes.get(path);
    if (route) route(request, response);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dns = await startDnsServer();
  test = createEgress({ policy: 'loopback-only' });
  production = createEgress({ policy: 'public', dnsServers: [dns.server] });
});
afterAll(async () => {
  test.close();
  production.close();
  await dns.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const get = (egress: Egress, url: string, extra: { timeoutMs?: number; maxBytes?: number; signal?: AbortSignal } = {}) =>
  egress.request({
    url,
    timeoutMs: extra.timeoutMs ?? 5_000,
    maxBytes: extra.maxBytes ?? 1024,
    ...(extra.signal ? { signal: extra.signal } : {}),
  });

describe('egress.request', () => {
  it('returns the status, headers and body; a POST carries its body', async () => {
    routes.set('/echo', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => response.writeHead(201, { 'x-method': request.method ?? '' }).end(Buffer.concat(chunks)));
    });
    const result = await test.request({ url: `${origin}/echo`, method: 'POST', body: 'hello', timeoutMs: 5_000, maxBytes: 64 });
    expect(result).toMatchObject({ ok: true, status: 201, headers: { 'x-method': 'POST' } });
    expect(result.ok && result.body.toString()).toBe('hello');
  });

  it('returns a redirect and never follows it', async () => {
    routes.set('/moved', (_request, response) => response.writeHead(302, { location: `${origin}/target` }).end());
    routes.set('/target', (_request, response) => response.end('followed'));
    expect(await get(test, `${origin}/moved`)).toMatchObject({ ok: true, status: 302 });
    expect(hits.get('/target') ?? 0).toBe(0);
  });

  it('refuses a body over the limit, declared or streamed, without reading it all', async () => {
    routes.set('/declared', (_request, response) => response.writeHead(200, { 'content-length': '5000' }).end('x'.repeat(5000)));
    let written = 0;
    routes.set('/endless', (_request, response) => {
      response.writeHead(200);
      const more = () => {
        while (written < 10_000_000 && response.write('x'.repeat(16_384))) written += 16_384;
        if (written < 10_000_000) response.once('drain', more);
      };
      more();
    });
    expect(await get(test, `${origin}/declared`)).toMatchObject({ ok: false, reason: 'too_large' });
    expect(await get(test, `${origin}/endless`)).toMatchObject({ ok: false, reason: 'too_large' });
    expect(written).toBeLessThan(10_000_000);
  });

  it('ends at its deadline, or when its signal aborts, with a response that never comes', async () => {
    routes.set('/silent', () => {});
    expect(await get(test, `${origin}/silent`, { timeoutMs: 50 })).toMatchObject({ ok: false, reason: 'timeout' });
    const controller = new AbortController();
    const pending = get(test, `${origin}/silent`, { signal: controller.signal });
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, reason: 'timeout' });
  });

  it('refuses by the URL before any connection: scheme, credentials, a refused address or name', async () => {
    const recorder = recordConnectionAttempts();
    try {
      for (const [url, reason] of [
        ['ftp://127.0.0.1/x', 'url_not_allowed'],
        [`${origin.replace('http://', 'http://user:pw@')}/x`, 'url_not_allowed'],
        ['not a url', 'url_not_allowed'],
        ['http://10.0.0.1/x', 'address_not_allowed'],
        ['http://push.example/x', 'address_not_allowed'],
      ] as const) {
        expect(await get(test, url), url).toMatchObject({ ok: false, reason });
      }
      expect(await get(production, `${origin}/echo`)).toMatchObject({ ok: false, reason: 'url_not_allowed' });
      expect(await get(production, 'https://127.0.0.1/x')).toMatchObject({ ok: false, reason: 'address_not_allowed' });
      expect(await get(production, 'https://localhost/x')).toMatchObject({ ok: false, reason: 'address_not_allowed' });
      expect(recorder.attempts).toEqual([]);
    } finally {
      recorder.stop();
    }
  });

  it('resolves a name with its own DNS and refuses it when any address is not public, asking again for every connection (TTL 0)', async () => {
    dns.set('one-private.example', ['93.184.216.34', '10.0.0.1']);
    dns.set('nat64.example', ['64:ff9b::a9fe:a9fe']);
    dns.set('missing-v4.example', ['::ffff:169.254.169.254']);
    const recorder = recordConnectionAttempts();
    try {
      for (const host of ['one-private.example', 'nat64.example', 'missing-v4.example']) {
        const result = await get(production, `https://${host}/x`);
        expect(result, host).toMatchObject({ ok: false, reason: 'address_not_allowed' });
        expect(!result.ok && result.message, host).toContain('is not a public address');
      }
      expect(await get(production, 'https://nowhere.example/x')).toMatchObject({ ok: false, reason: 'dns_failed' });
      // Rebinding: a name public at one look and private at the next is refused at the next.
      dns.set('rebind.example', ['127.0.0.1']);
      const before = dns.asked('rebind.example');
      expect(await get(production, 'https://rebind.example/x')).toMatchObject({ ok: false, reason: 'address_not_allowed' });
      expect(await get(production, 'https://rebind.example/y')).toMatchObject({ ok: false, reason: 'address_not_allowed' });
      expect(dns.asked('rebind.example') - before).toBeGreaterThanOrEqual(2);
      expect(recorder.attempts).toEqual([]);
    } finally {
      recorder.stop();
    }
  });

  it('configured (a destination the operator named) reaches loopback, by address and by the system resolver', async () => {
    const configured = createEgress({ policy: 'configured' });
    try {
      routes.set('/jwks', (_request, response) =>
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"keys":[]}'),
      );
      expect(await get(configured, `${origin}/jwks`)).toMatchObject({ ok: true, status: 200 });
      expect(await get(configured, `${origin.replace('127.0.0.1', 'localhost')}/jwks`)).toMatchObject({ ok: true, status: 200 });
    } finally {
      configured.close();
    }
  });
});

describe('egressFetch', () => {
  it('answers as fetch does, with the body bounded and redirects returned, never followed', async () => {
    routes.set('/doc', (_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"a":1}'));
    routes.set('/big', (_request, response) => response.writeHead(200).end('x'.repeat(100)));
    const fetch = egressFetch(test, { timeoutMs: 5_000, maxBytes: 64 });
    const response = await fetch(`${origin}/doc`, { headers: { accept: 'application/json' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ a: 1 });
    expect((await fetch(`${origin}/moved`)).status).toBe(302);
    await expect(fetch(`${origin}/big`)).rejects.toMatchObject({ cause: { code: 'too_large' } });
    await expect(fetch('http://10.0.0.1/x')).rejects.toMatchObject({ cause: { code: 'address_not_allowed' } });
  });
});
