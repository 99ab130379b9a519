import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { type AppServer, startAppServer } from './support/app-server.ts';

/*
 * Every per-IP limit (/mcp, sign-in, client registration) keys on one client address. Behind a
 * trusted proxy that is the address the proxy forwards; otherwise X-Forwarded-For is the
 * client's own claim and is ignored. The test client connects from 127.0.0.1, so `loopback`
 * plays the proxy.
 */

const MCP_PER_IP = 3;

function mcp(server: AppServer, forwardedFor?: string) {
  return fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
}

function signIn(server: AppServer, forwardedFor: string) {
  return fetch(`${server.url}/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': forwardedFor },
    body: 'email=a%40example.com&password=x',
    redirect: 'manual',
  });
}

function register(server: AppServer, forwardedFor: string) {
  return fetch(`${server.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
    body: '{}',
  });
}

async function statuses(count: number, send: () => Promise<Response>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const response = await send();
    await response.arrayBuffer();
    out.push(response.status);
  }
  return out;
}

describe('behind a trusted proxy (SESS_TRUSTED_PROXIES=loopback)', () => {
  let server: AppServer;
  beforeAll(async () => {
    server = await startAppServer({ SESS_TRUSTED_PROXIES: 'loopback', SESS_MCP_RATE_PER_IP: String(MCP_PER_IP) });
  });
  afterAll(() => server?.close());

  it('/mcp limits each forwarded client on its own, not the proxy as one client', async () => {
    expect(await statuses(MCP_PER_IP, () => mcp(server, '203.0.113.5'))).toEqual([401, 401, 401]);
    expect((await mcp(server, '203.0.113.5')).status).toBe(429);
    // Another client behind the same proxy still gets through.
    expect((await mcp(server, '203.0.113.6')).status).toBe(401);
  });

  it('a client cannot escape its limit by prepending addresses of its own to X-Forwarded-For', async () => {
    expect(await statuses(MCP_PER_IP, () => mcp(server, '198.51.100.7'))).toEqual([401, 401, 401]);
    // The proxy appends the real peer; only the entries after the last untrusted one are the proxies'.
    expect((await mcp(server, '192.0.2.99, 198.51.100.7')).status).toBe(429);
    expect((await mcp(server, '192.0.2.100, 198.51.100.7')).status).toBe(429);
  });

  it('sign-in attempts are limited per forwarded client (30 a window)', async () => {
    const first = await statuses(30, () => signIn(server, '203.0.113.20'));
    expect(first.every((status) => status !== 429)).toBe(true);
    expect((await signIn(server, '203.0.113.20')).status).toBe(429);
    expect((await signIn(server, '203.0.113.21')).status).not.toBe(429);
  });

  it('client registrations are limited per forwarded client (60 an hour)', async () => {
    const first = await statuses(60, () => register(server, '203.0.113.30'));
    expect(first.every((status) => status === 400)).toBe(true);
    const limited = await register(server, '203.0.113.30');
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as { error: string }).error).toBe('slow_down');
    const other = await register(server, '203.0.113.31');
    expect(((await other.json()) as { error: string }).error).toBe('invalid_redirect_uri');
  });
});

describe('without trusted proxies (the default)', () => {
  let server: AppServer;
  beforeAll(async () => {
    server = await startAppServer({ SESS_MCP_RATE_PER_IP: String(MCP_PER_IP) });
  });
  afterAll(() => server?.close());

  it('ignores X-Forwarded-For: every request from one socket address shares one limit', async () => {
    const forwarded = ['203.0.113.1', '203.0.113.2', '203.0.113.3'];
    expect(await statuses(MCP_PER_IP, () => mcp(server, forwarded.pop()))).toEqual([401, 401, 401]);
    expect((await mcp(server, '203.0.113.4')).status).toBe(429);
    expect((await mcp(server)).status).toBe(429);
  });
});

describe('SESS_TRUSTED_PROXIES', () => {
  it('takes addresses, CIDR ranges and the names loopback, linklocal, uniquelocal', () => {
    const config = loadConfig({ SESS_TRUSTED_PROXIES: ' loopback, 10.0.0.0/8 ,fd00::/8,, 192.0.2.1' });
    expect(config.trustedProxies).toEqual(['loopback', '10.0.0.0/8', 'fd00::/8', '192.0.2.1']);
    expect(loadConfig({}).trustedProxies).toEqual([]);
  });

  it('refuses an entry that is not an address or range, naming it', () => {
    expect(() => loadConfig({ SESS_TRUSTED_PROXIES: 'proxy.internal' })).toThrow(
      /^SESS_TRUSTED_PROXIES must be addresses or CIDR ranges separated by commas.*invalid IP address: proxy\.internal/,
    );
  });
});
