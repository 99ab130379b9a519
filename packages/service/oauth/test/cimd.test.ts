import { createEgress, type Egress } from '@sess/core/egress';
import {
  CookieJar,
  createPkcePair,
  createTestUser,
  recordConnectionAttempts,
  signInTestUser,
  type TestUser,
} from '@sess/testkit';
import { startDnsServer, type TestDnsServer } from '@sess/testkit/dns-server';
import {
  authorizeUrl,
  type DocumentServer,
  type OAuthTestServer,
  startDocumentServer,
  startOAuthTestServer,
} from '@sess/testkit/oauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchClientMetadataDocument } from '../src/cimd/fetch-client-metadata-document.ts';

let docs: DocumentServer;
let dns: TestDnsServer;
/** The test policy (loopback only, no DNS but localhost), and production's, asking the test's DNS server. */
let testEgress: Egress;
let publicEgress: Egress;
beforeAll(async () => {
  docs = await startDocumentServer();
  dns = await startDnsServer();
  testEgress = createEgress({ policy: 'loopback-only' });
  publicEgress = createEgress({ policy: 'public', dnsServers: [dns.server] });
});
afterAll(async () => {
  testEgress.close();
  publicEgress.close();
  await dns.close();
  await docs.close();
});

function document(clientId: string, extra: Record<string, unknown> = {}) {
  return {
    client_id: clientId,
    client_name: 'Doc app',
    redirect_uris: ['https://app.example/cb'],
    token_endpoint_auth_method: 'none',
    ...extra,
  };
}

describe('fetching a Client ID Metadata Document (SSRF defences)', () => {
  it('loads a document from loopback under the test policy, with its cache lifetime', async () => {
    const url = `${docs.url}/ok.json`;
    docs.json('/ok.json', document(url), { 'cache-control': 'public, max-age=120' });
    expect(await fetchClientMetadataDocument(url, { egress: testEgress })).toEqual({
      ok: true,
      document: document(url),
      maxAgeSeconds: 120,
    });
  });

  it.each([
    'https://127.0.0.1/client.json',
    'https://10.0.0.1/client.json',
    'https://169.254.169.254/latest/meta-data/client.json',
    'https://192.168.0.10:8443/client.json',
    'https://100.64.0.1/client.json',
    'https://[::1]/client.json',
    'https://[fd00::1]/client.json',
    'https://[fe80::1]/client.json',
    'https://[::ffff:127.0.0.1]/client.json',
    'https://[::ffff:a9fe:a9fe]/client.json',
    'https://2130706433/client.json',
    'https://0x7f.0.0.1/client.json',
    'https://0177.0.0.1/client.json',
    'https://127.1/client.json',
    'https://0.0.0.0/client.json',
    'https://localhost/client.json',
  ])('refuses %s by its address, before any connection', async (url) => {
    const recorder = recordConnectionAttempts();
    try {
      const result = await fetchClientMetadataDocument(url, { egress: publicEgress });
      expect(result).toMatchObject({ ok: false, reason: 'address_not_allowed' });
      expect(recorder.attempts).toEqual([]);
    } finally {
      recorder.stop();
    }
  });

  it('resolves a host name and refuses it when ANY of its addresses is private, or when it rebinds to one', async () => {
    dns.set('mixed.example', ['93.184.216.34', '10.0.0.1']);
    dns.set('rebind.example', ['169.254.169.254']);
    dns.set('nat64.example', ['64:ff9b::a9fe:a9fe']);
    const recorder = recordConnectionAttempts();
    try {
      for (const host of ['mixed.example', 'rebind.example', 'nat64.example']) {
        expect(await fetchClientMetadataDocument(`https://${host}/client.json`, { egress: publicEgress }), host).toMatchObject({
          ok: false,
          reason: 'address_not_allowed',
        });
        expect(dns.asked(host), host).toBeGreaterThan(0);
      }
      expect(recorder.attempts).toEqual([]);
    } finally {
      recorder.stop();
    }
  });

  it('a name that does not resolve fails as dns_failed, with no connection', async () => {
    const recorder = recordConnectionAttempts();
    try {
      expect(await fetchClientMetadataDocument('https://nowhere.example/client.json', { egress: publicEgress })).toMatchObject({
        ok: false,
        reason: 'dns_failed',
      });
      expect(recorder.attempts).toEqual([]);
    } finally {
      recorder.stop();
    }
  });

  it('the test policy never resolves other names (so tests send nothing off the machine)', async () => {
    dns.set('claude.ai', ['127.0.0.1']);
    expect(
      await fetchClientMetadataDocument('https://claude.ai/oauth/claude-code-client-metadata', { egress: testEgress }),
    ).toMatchObject({ ok: false, reason: 'address_not_allowed' });
    expect(dns.asked('claude.ai')).toBe(0);
  });

  it.each([
    ['plain http', 'http://app.example/client.json'],
    ['a fragment', 'https://app.example/client.json#x'],
    ['user-info', 'https://user@app.example/client.json'],
    ['no path', 'https://app.example/'],
    ['dot segments', 'https://app.example/a/../client.json'],
  ] as const)('refuses a URL with %s', async (_name, url) => {
    expect(await fetchClientMetadataDocument(url, { egress: publicEgress })).toMatchObject({
      ok: false,
      reason: 'url_not_allowed',
    });
  });

  it('refuses a redirect (and does not follow it)', async () => {
    docs.route('/redirect.json', (_request, response) => response.writeHead(302, { location: `${docs.url}/ok.json` }).end());
    const before = docs.hits.get('/ok.json') ?? 0;
    expect(await fetchClientMetadataDocument(`${docs.url}/redirect.json`, { egress: testEgress })).toMatchObject({
      ok: false,
      reason: 'redirect',
    });
    expect(docs.hits.get('/ok.json') ?? 0).toBe(before);
  });

  it('refuses an oversized document, declared or streamed (cap 32 KiB; 8 KB is fine)', async () => {
    const url = `${docs.url}/big.json`;
    docs.json('/big.json', document(url, { padding: 'x'.repeat(33 * 1024) }));
    expect(await fetchClientMetadataDocument(url, { egress: testEgress })).toMatchObject({ ok: false, reason: 'too_large' });
    docs.route('/streamed.json', (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      for (let i = 0; i < 40; i++) response.write('x'.repeat(1024));
      response.end();
    });
    expect(await fetchClientMetadataDocument(`${docs.url}/streamed.json`, { egress: testEgress })).toMatchObject({
      ok: false,
      reason: 'too_large',
    });
    const normal = `${docs.url}/eight-kb.json`;
    docs.json('/eight-kb.json', document(normal, { padding: 'x'.repeat(8 * 1024) }));
    expect(await fetchClientMetadataDocument(normal, { egress: testEgress })).toMatchObject({ ok: true });
  });

  it('gives up on a slow document at the deadline', async () => {
    docs.route('/slow.json', (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"client_id":'); // and never finishes
    });
    // The body never ends: only the deadline can end the fetch, as a timeout.
    expect(await fetchClientMetadataDocument(`${docs.url}/slow.json`, { egress: testEgress, timeoutMs: 300 })).toMatchObject({
      ok: false,
      reason: 'timeout',
    });
  });

  it('refuses other statuses and bodies that are not JSON', async () => {
    docs.route('/forbidden.json', (_request, response) =>
      response.writeHead(403, { 'content-type': 'text/html' }).end('<html>challenge</html>'),
    );
    expect(await fetchClientMetadataDocument(`${docs.url}/forbidden.json`, { egress: testEgress })).toMatchObject({
      ok: false,
      reason: 'bad_status',
    });
    docs.route('/html.json', (_request, response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html>challenge</html>'),
    );
    expect(await fetchClientMetadataDocument(`${docs.url}/html.json`, { egress: testEgress })).toMatchObject({
      ok: false,
      reason: 'not_json',
    });
  });
});

describe('CIMD clients at the authorization endpoint', () => {
  let server: OAuthTestServer;
  let strict: OAuthTestServer;
  let user: TestUser;
  let jar: CookieJar;

  beforeAll(async () => {
    server = await startOAuthTestServer();
    strict = await startOAuthTestServer({ loopbackEgress: false, database: server.database });
    user = await createTestUser(server.database.db);
    jar = new CookieJar();
    const { cookie } = await signInTestUser(server.database.db, user.userId, server.clock.now());
    jar.cookies.set(cookie.split('=')[0]!, cookie.split('=')[1]!);
  });
  afterAll(async () => {
    await strict.close();
    await server.close();
  });

  const visit = async (target: OAuthTestServer, clientId: string, redirectUri = 'https://app.example/cb') => {
    const response = await fetch(authorizeUrl(target, { clientId, redirectUri, challenge: createPkcePair().challenge }), {
      redirect: 'manual',
      headers: { cookie: jar.header() },
    });
    return { status: response.status, location: response.headers.get('location'), html: await response.text() };
  };

  it('shows the consent page with the document host as the verified identity', async () => {
    const url = `${docs.url}/consent/client.json`;
    docs.json('/consent/client.json', document(url, { client_name: 'Verified Doc App' }));
    const { status, html } = await visit(server, url);
    expect(status).toBe(200);
    expect(html).toContain('Verified Doc App');
    expect(html).toContain(`(${new URL(docs.url).host})`);
    expect(html).not.toContain('unverified name');
  });

  it('without the test flag, a document on 127.0.0.1 (or 10.0.0.1, 169.254.169.254) is refused on a page, with no connection made', async () => {
    const recorder = recordConnectionAttempts();
    try {
      const hitsBefore = docs.hits.get('/strict/client.json') ?? 0;
      docs.json('/strict/client.json', document(`${docs.url}/strict/client.json`));
      for (const clientId of [
        `${docs.url}/strict/client.json`,
        `${docs.url.replace('http:', 'https:')}/strict/client.json`,
        'https://10.0.0.1/client.json',
        'https://169.254.169.254/latest/meta-data/client.json',
      ]) {
        const { status, location, html } = await visit(strict, clientId);
        expect(status).toBe(400);
        expect(location).toBeNull();
        expect(html).toContain('This app cannot connect');
        expect(html).toMatch(/is not https|metadata document \(address_not_allowed/);
      }
      expect(docs.hits.get('/strict/client.json') ?? 0).toBe(hitsBefore);
      expect(recorder.attempts.filter((a) => a.address !== '127.0.0.1' || a.port !== Number(new URL(strict.url).port))).toEqual(
        [],
      );
    } finally {
      recorder.stop();
    }
  });

  it('refuses a document whose client_id is not exactly its URL, and redirect URIs the document does not list', async () => {
    const url = `${docs.url}/mismatch/client.json`;
    docs.json('/mismatch/client.json', document(`${url}/`));
    const mismatch = await visit(server, url);
    expect(mismatch.status).toBe(400);
    expect(mismatch.html).toContain('client_id');
    const good = `${docs.url}/listed/client.json`;
    docs.json('/listed/client.json', document(good));
    const unlisted = await visit(server, good, 'https://evil.example/cb');
    expect(unlisted.status).toBe(400);
    expect(unlisted.location).toBeNull();
  });

  it('reuses a fetched document for its max-age, then fetches it again', async () => {
    const url = `${docs.url}/cached/client.json`;
    docs.json('/cached/client.json', document(url), { 'cache-control': 'max-age=300' });
    expect((await visit(server, url)).status).toBe(200);
    expect((await visit(server, url)).status).toBe(200);
    expect(docs.hits.get('/cached/client.json')).toBe(1);
    server.clock.advance(301_000);
    expect((await visit(server, url)).status).toBe(200);
    expect(docs.hits.get('/cached/client.json')).toBe(2);
  });

  it('fetches a no-store document on every authorization request', async () => {
    const url = `${docs.url}/nostore/client.json`;
    docs.json('/nostore/client.json', document(url), { 'cache-control': 'no-store' });
    await visit(server, url);
    await visit(server, url);
    expect(docs.hits.get('/nostore/client.json')).toBe(2);
  });

  it('a document that turns bad is not used from the stale cache', async () => {
    const url = `${docs.url}/turns-bad/client.json`;
    docs.json('/turns-bad/client.json', document(url), { 'cache-control': 'max-age=60' });
    expect((await visit(server, url)).status).toBe(200);
    server.clock.advance(61_000);
    docs.route('/turns-bad/client.json', (_request, response) => response.writeHead(500).end());
    expect((await visit(server, url)).status).toBe(400);
    expect(server.logs).toContainEqual(expect.objectContaining({ event: 'oauth.cimd.fetch_failed', clientId: url }));
  });
});

describe('CIMD fetches are not amplified (single flight, failure cache, per-address limit)', () => {
  let server: OAuthTestServer;
  let jar: CookieJar;
  let lastAddress = 0;
  // Each test speaks from addresses of its own (X-Forwarded-For, trusted from loopback here), so
  // one test's count under the per-address limit never reaches another's.
  const newAddress = () => `203.0.113.${++lastAddress}`;

  beforeAll(async () => {
    server = await startOAuthTestServer({ trustedProxies: 'loopback' });
    const user = await createTestUser(server.database.db);
    jar = new CookieJar();
    const { cookie } = await signInTestUser(server.database.db, user.userId, server.clock.now());
    jar.cookies.set(cookie.split('=')[0]!, cookie.split('=')[1]!);
  });
  afterAll(async () => server.close());

  /** A GET of the authorization endpoint from `address`, signed in unless told otherwise. */
  const authorize = async (clientId: string, address: string, { signedIn = true } = {}) => {
    const response = await fetch(authorizeUrl(server, { clientId, redirectUri: 'https://app.example/cb' }), {
      redirect: 'manual',
      headers: { 'x-forwarded-for': address, ...(signedIn ? { cookie: jar.header() } : {}) },
    });
    const html = await response.text();
    return {
      status: response.status,
      location: response.headers.get('location'),
      retryAfter: response.headers.get('retry-after'),
      contentType: response.headers.get('content-type'),
      html,
      // The OAuth error's own description, shown for the app's makers below Sess's words.
      message: /<span lang="en"[^>]*>([^<]*)</.exec(html)?.[1],
    };
  };

  /** Serves a valid document at `path` (of `docs`) and returns its URL, the client_id. */
  const serve = (path: string) => {
    const url = `${docs.url}${path}`;
    docs.json(path, document(url));
    return url;
  };

  const hits = (paths: string[]) => paths.reduce((sum, path) => sum + (docs.hits.get(path) ?? 0), 0);

  it('20 parallel authorizations for one uncached client_id URL make exactly one fetch, and all 20 get the consent page', async () => {
    const path = '/single-flight/client.json';
    const url = `${docs.url}${path}`;
    // Slow enough that every request arrives while the one fetch is still in flight.
    docs.route(path, (_request, response) => {
      setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document(url))), 300);
    });
    const address = newAddress();
    const answers = await Promise.all(Array.from({ length: 20 }, () => authorize(url, address)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    for (const answer of answers) expect(answer.html).toContain('Doc app');
    expect(docs.hits.get(path)).toBe(1);
  });

  it('a URL whose fetch failed is not fetched again for 60 s (the same error page), then it is', async () => {
    const path = '/failure-cache/client.json';
    const url = `${docs.url}${path}`;
    docs.route(path, (_request, response) => response.writeHead(500).end());
    const address = newAddress();
    const first = await authorize(url, address);
    expect(first.status).toBe(400);
    expect(first.message).toContain('answered 500');
    server.clock.advance(59_000);
    const again = await authorize(url, address);
    expect(again.status).toBe(400);
    expect(again.location).toBeNull();
    expect(again.message).toBe(first.message);
    expect(docs.hits.get(path)).toBe(1);
    server.clock.advance(2_000);
    expect((await authorize(url, address)).status).toBe(400);
    expect(docs.hits.get(path)).toBe(2);
  });

  it('60 new client_id URLs from one address: 10 are fetched, the other 50 get a 429 page with Retry-After, never a redirect', async () => {
    const paths = Array.from({ length: 60 }, (_, i) => `/burst/${i}/client.json`);
    const urls = paths.map(serve);
    const address = newAddress();
    // Not signed in, as an attacker would be: a fetched document leads to the sign-in page.
    const answers = await Promise.all(urls.map((url) => authorize(url, address, { signedIn: false })));
    expect(hits(paths)).toBe(10);
    const fetched = answers.filter((a) => a.status === 303);
    const limited = answers.filter((a) => a.status === 429);
    expect(fetched).toHaveLength(10);
    for (const answer of fetched) expect(answer.location).toMatch(/^\/signin\?return_to=/);
    expect(limited).toHaveLength(50);
    for (const answer of limited) {
      expect(answer.location).toBeNull();
      expect(answer.contentType).toMatch(/^text\/html/);
      expect(answer.html).toContain('Too many new apps at once');
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(answer.retryAfter)).toBeLessThanOrEqual(60);
    }
    // Once Retry-After has passed, the address may fetch again.
    server.clock.advance(Number(limited[0]!.retryAfter) * 1000);
    const later = '/burst/later/client.json';
    expect((await authorize(serve(later), address)).status).toBe(200);
    expect(docs.hits.get(later)).toBe(1);
  });

  it('another address is not affected by one that is over its limit', async () => {
    const paths = Array.from({ length: 11 }, (_, i) => `/other-address/${i}/client.json`);
    const urls = paths.map(serve);
    const busy = newAddress();
    for (const url of urls.slice(0, 10)) expect((await authorize(url, busy)).status).toBe(200);
    expect((await authorize(urls[10]!, busy)).status).toBe(429);
    expect((await authorize(urls[10]!, newAddress())).status).toBe(200);
    expect(hits(paths)).toBe(11);
  });

  it('a cached client does not count against the limit', async () => {
    const cachedPath = '/counted/cached/client.json';
    const cached = serve(cachedPath);
    const address = newAddress();
    expect((await authorize(cached, address)).status).toBe(200);
    for (let i = 0; i < 15; i++) expect((await authorize(cached, address)).status).toBe(200);
    expect(docs.hits.get(cachedPath)).toBe(1);
    // The one fetch above counted; nine new documents still fit under the limit of ten.
    for (let i = 0; i < 9; i++) expect((await authorize(serve(`/counted/${i}/client.json`), address)).status).toBe(200);
    expect((await authorize(serve('/counted/over/client.json'), address)).status).toBe(429);
  });
});
