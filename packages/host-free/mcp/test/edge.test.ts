import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/server';
import { sampleSurface } from '@sess/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Deadline } from '../src/http/deadline.ts';
import { plainRequest } from '../src/http/fast-paths/plain-request.ts';
import {
  type EdgeServer,
  type Face,
  INITIALIZE,
  LEGACY_HEADERS,
  modernBody,
  modernHeaders,
  RESOURCE_METADATA,
  rawExchange,
  startEdgeServer,
} from './support/edge-server.ts';

/*
 * The edge's HTTP behaviour, on both faces, before any tool runs: preflight order, challenges,
 * bounded body, content type, the unsafe-key guard in both eras, the deadline, CORS, limits and
 * the headers every response carries. TEST-ONLY authenticate; no backend (tools answer
 * NOT_CONFIGURED), so every assertion is about the edge itself.
 */

const KIB = 1024;

function expectCommonHeaders(response: Response): void {
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
}

describe.each(['fetch', 'fetch-web'] as Face[])('the edge on the %s face', (face) => {
  let edge: EdgeServer;
  beforeAll(async () => {
    edge = await startEdgeServer(face);
  });
  afterAll(async () => edge?.close());

  const post = (body: string, headers: Record<string, string> = {}, init: RequestInit = {}) =>
    fetch(edge.url, { method: 'POST', headers: { ...LEGACY_HEADERS, ...headers }, body, ...init });
  const auth = () => ({ authorization: `Bearer ${edge.token}` });

  describe('preflight, before any body byte', () => {
    it('a Host that is not allowed gets 403 and authenticate is never called', async () => {
      const before = edge.calls.authenticate;
      const result = await rawExchange(edge.port, [
        `POST /mcp HTTP/1.1\r\nHost: evil.example\r\nContent-Type: application/json\r\nAuthorization: Bearer ${edge.token}\r\nContent-Length: ${INITIALIZE.length}\r\n\r\n${INITIALIZE}`,
      ]);
      expect(result.status).toBe(403);
      expect(result.text).toMatch(/cache-control: no-store/i);
      // It names the refused Host and the ones served (no advice was configured here).
      expect(result.text).toContain(
        "Forbidden: Host 'evil.example' is not served here; this server answers for 127.0.0.1, localhost.\"",
      );
      expect(edge.calls.authenticate).toBe(before);
    });

    it('an Origin that is not listed exactly gets 403; a listed one gets CORS headers; none is accepted', async () => {
      const bad = await post(INITIALIZE, { ...auth(), origin: 'https://evil.example' });
      expect(bad.status).toBe(403);
      expectCommonHeaders(bad);
      const near = await post(INITIALIZE, { ...auth(), origin: 'https://client.example.evil' });
      expect(near.status).toBe(403);
      const good = await post(INITIALIZE, { ...auth(), origin: 'https://client.example' });
      expect(good.status).toBe(200);
      expect(good.headers.get('access-control-allow-origin')).toBe('https://client.example');
      expect(good.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate');
      await good.body?.cancel();
      const none = await post(INITIALIZE, auth());
      expect(none.status).toBe(200);
      expect(none.headers.get('access-control-allow-origin')).toBeNull();
      await none.body?.cancel();
    });

    it('OPTIONS (a CORS preflight, no token) gets 204 before authentication, CORS only for allowed origins', async () => {
      const before = edge.calls.authenticate;
      const allowed = await fetch(edge.url, {
        method: 'OPTIONS',
        headers: { origin: 'https://client.example', 'access-control-request-method': 'POST' },
      });
      expect(allowed.status).toBe(204);
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://client.example');
      expect(allowed.headers.get('access-control-allow-headers')).toContain('Authorization');
      expect(allowed.headers.get('access-control-allow-headers')).toContain('Mcp-Protocol-Version');
      expectCommonHeaders(allowed);
      const bare = await fetch(edge.url, { method: 'OPTIONS' });
      expect(bare.status).toBe(204);
      expect(bare.headers.get('access-control-allow-origin')).toBeNull();
      const forbidden = await fetch(edge.url, { method: 'OPTIONS', headers: { origin: 'https://evil.example' } });
      expect(forbidden.status).toBe(403);
      expect(edge.calls.authenticate).toBe(before);
    });

    it('no token: 401 with a bare challenge (resource_metadata and scope, no error=), initialize included', async () => {
      const response = await post(INITIALIZE);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(
        `Bearer resource_metadata="${RESOURCE_METADATA}", scope="sess:interact"`,
      );
      expectCommonHeaders(response);
    });

    it('server/discover without a token: 401 too (a 200 would read as "needs no sign-in")', async () => {
      const response = await post(modernBody('server/discover'), modernHeaders('server/discover'));
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).not.toContain('error=');
    });

    it('a bad token: 401 error="invalid_token"', async () => {
      const response = await post(INITIALIZE, { authorization: 'Bearer nope' });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(
        /^Bearer error="invalid_token", error_description="[^"]+", resource_metadata="[^"]+", scope="sess:interact"$/,
      );
    });

    it('a token without the scope: 403 insufficient_scope naming every scope needed', async () => {
      const response = await post(INITIALIZE, { authorization: `Bearer ${edge.tokenWithoutScope}` });
      expect(response.status).toBe(403);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope".*scope="sess:interact"/);
      expect(await response.json()).toMatchObject({ error: 'insufficient_scope' });
    });

    it('authenticate runs exactly once per request', async () => {
      const before = edge.calls.authenticate;
      const response = await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), auth());
      expect(response.status).toBe(200);
      await response.text();
      expect(edge.calls.authenticate).toBe(before + 1);
    });

    it('GET once authenticated: 405 with Allow: POST; unauthenticated GET: 401', async () => {
      const get = await fetch(edge.url, { headers: { ...auth(), accept: 'text/event-stream' } });
      expect(get.status).toBe(405);
      expect(get.headers.get('allow')).toBe('POST');
      expectCommonHeaders(get);
      const anonymous = await fetch(edge.url);
      expect(anonymous.status).toBe(401);
    });

    it('a rejection is answered while the client is still sending', async () => {
      const result = await rawExchange(
        edge.port,
        [`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"jsonrpc":`],
        1500,
      );
      expect(result.status).toBe(401);
    });
  });

  describe('the body', () => {
    it('a declared body over 256 KiB gets 413 at once', async () => {
      const result = await rawExchange(
        edge.port,
        [
          `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${edge.token}\r\nContent-Type: application/json\r\nContent-Length: ${256 * KIB + 1}\r\n\r\n{`,
        ],
        1500,
      );
      expect(result.status).toBe(413);
    });

    it('256 KiB + 1 streamed without a length gets 413; exactly 256 KiB is read', async () => {
      const shell = '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":""}}';
      const big = `${shell.slice(0, -3)}${'x'.repeat(256 * KIB + 1 - shell.length)}"}}`;
      expect(big.length).toBe(256 * KIB + 1);
      const chunked = new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(big));
          controller.close();
        },
      });
      const over = await post('', auth(), { body: chunked, duplex: 'half' } as RequestInit);
      expect(over.status).toBe(413);
      expect(await over.json()).toMatchObject({ error: { code: -32000 } });
      const fits = big.slice(0, 100) + big.slice(101);
      expect(fits.length).toBe(256 * KIB);
      const ok = await post(fits, auth());
      expect(ok.status).toBe(200);
      await ok.text();
    });

    it('a Content-Type that is not JSON gets 415', async () => {
      const response = await post('{}', { ...auth(), 'content-type': 'text/plain' });
      expect(response.status).toBe(415);
      expect(await response.json()).toMatchObject({ error: { code: -32000 } });
      expectCommonHeaders(response);
    });

    it('malformed JSON gets -32700', async () => {
      const response = await post('{"jsonrpc":', auth());
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: -32700 }, id: null });
    });
  });

  describe('the unsafe-key guard, answered in the request era', () => {
    const toolsCall = (args: string, id = 7) =>
      `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"sess_ask","arguments":${args}}}`;

    it('2025 era: an unsafe key in tool arguments is an INVALID_ARGUMENTS tool error naming its pointer', async () => {
      const response = await post(toolsCall('{"question":"Hi?","fields":[{"__proto__":{"x":1}}]}'), auth());
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/event-stream');
      const text = await response.text();
      const message = JSON.parse(text.split('data: ')[1]!);
      expect(message).toMatchObject({
        id: 7,
        result: { isError: true, structuredContent: { error: { code: 'INVALID_ARGUMENTS', field: '/fields/0/__proto__' } } },
      });
    });

    it('2026-07-28: the same key is a tool error in the modern shape (resultType complete)', async () => {
      const body = modernBody('tools/call', { name: 'sess_ask', arguments: { question: 'Hi?', fields: [] } }).replace(
        '"fields":[]',
        '"fields":[],"constructor":{"prototype":1}',
      );
      const response = await post(body, { ...auth(), ...modernHeaders('tools/call', 'sess_ask') });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(await response.json()).toMatchObject({
        id: 1,
        result: {
          isError: true,
          resultType: 'complete',
          structuredContent: { error: { code: 'INVALID_ARGUMENTS', field: '/constructor' } },
        },
      });
    });

    it('an unsafe key outside tool arguments: -32602, 400 in the modern era, in-band in the 2025 era', async () => {
      const modern = modernBody('tools/list').replace('"_meta":{', '"_meta":{"__proto__":{"polluted":true},');
      const m = await post(modern, { ...auth(), ...modernHeaders('tools/list') });
      expect(m.status).toBe(400);
      expect(await m.json()).toMatchObject({ id: 1, error: { code: -32602, data: { field: '/params/_meta/__proto__' } } });
      const legacy = await post('{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"__proto__":{}}}', auth());
      expect(legacy.status).toBe(200);
      const message = JSON.parse((await legacy.text()).split('data: ')[1]!);
      expect(message).toMatchObject({ id: 3, error: { code: -32602 } });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });

  describe('through to the SDK', () => {
    /** A real SDK client of `era`, signed in with the test token (its requests through `fetch` when given). */
    const connect = async (era: 'modern' | 'legacy', through?: typeof fetch) => {
      const client = new Client(
        { name: 'edge-test', version: '1' },
        era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {},
      );
      await client.connect(
        new StreamableHTTPClientTransport(new URL(edge.url), {
          requestInit: { headers: { Authorization: `Bearer ${edge.token}` } },
          ...(through ? { fetch: through } : {}),
        }),
      );
      return client;
    };

    it.each(['modern', 'legacy'] as const)(
      '%s client: tools/list, and a tool without a backend answers NOT_CONFIGURED',
      async (era) => {
        const client = await connect(era);
        const { tools } = await client.listTools();
        expect(tools).toHaveLength(7);
        const result = await client.callTool({
          name: 'sess_ask',
          arguments: { question: 'Lunch?', fields: [{ name: 'yes', label: 'Yes?', type: 'boolean' }] },
        });
        expect(result.isError).toBe(true);
        expect(result.structuredContent).toMatchObject({ error: { code: 'NOT_CONFIGURED', retryable: false } });
        // sess_list reads the handle store only: an empty list, not an error.
        expect((await client.callTool({ name: 'sess_list', arguments: {} })).structuredContent).toEqual({ interactions: [] });
        await client.close();
      },
    );

    it.each(['modern', 'legacy'] as const)(
      '%s client: its tool calls are plain requests, so the edge runs them without the SDK building a server',
      async (era) => {
        const sent: Array<{ headers: Headers; body: unknown }> = [];
        const capture: typeof fetch = async (input, init) => {
          if (typeof init?.body === 'string') sent.push({ headers: new Headers(init.headers), body: JSON.parse(init.body) });
          return fetch(input, init);
        };
        const client = await connect(era, capture);
        const args = { handle: 'hdl_aaaaaaaaaaaaaaaaaaaaaaaaaa', revision: 1, wait_ms: 45_000 };
        await client.callTool({ name: 'sess_response', arguments: args });
        await client.close();
        const call = sent.find((s) => (s.body as { method?: string }).method === 'tools/call')!;
        expect(plainRequest(call.headers, call.body, 'tools/call', new Set(['sess_response']))).toMatchObject({
          era,
          params: { name: 'sess_response', arguments: args },
        });
      },
    );

    it('initialize answers 2025-11-25 with no session id, and every response has no-store', async () => {
      const response = await post(INITIALIZE, auth());
      expect(response.status).toBe(200);
      expect(response.headers.get('mcp-session-id')).toBeNull();
      expectCommonHeaders(response);
      expect(await response.text()).toContain('"protocolVersion":"2025-11-25"');
    });
  });
});

describe.each(['fetch', 'fetch-web'] as Face[])('the deadline on the %s face', (face) => {
  let edge: EdgeServer | undefined;
  afterEach(async () => {
    await edge?.close();
    edge = undefined;
  });

  it('a body that has not arrived by the deadline gets 408 and reading stops', async () => {
    edge = await startEdgeServer(face, { requestTimeoutMs: 300 });
    const result = await rawExchange(
      edge.port,
      [
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${edge.token}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"jsonrpc":"2.0",`,
        { pauseMs: 1200 },
        '"id":1}',
      ],
      2500,
    );
    expect(result.status).toBe(408);
  });

  it('an authenticate that does not answer by the deadline gets 503', async () => {
    // authenticate never settles: only the deadline can answer, with 503.
    edge = await startEdgeServer(face, { requestTimeoutMs: 250, authenticate: () => new Promise(() => {}) });
    const response = await fetch(edge.url, {
      method: 'POST',
      headers: { ...LEGACY_HEADERS, authorization: 'Bearer x' },
      body: INITIALIZE,
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBeTruthy();
    expectCommonHeaders(response);
  });

  it('a tool call that does not wait never builds the deadline its AbortSignal', async () => {
    edge = await startEdgeServer(face);
    const built = vi.spyOn(Deadline.prototype, 'signal', 'get');
    try {
      const call = modernBody('tools/call', { name: 'sess_request', arguments: { interaction: sampleSurface() } });
      const response = await fetch(edge.url, {
        method: 'POST',
        headers: { ...modernHeaders('tools/call', 'sess_request'), authorization: `Bearer ${edge.token}` },
        body: call,
      });
      expect(response.status).toBe(200);
      // The tool ran (no backend here: NOT_CONFIGURED) without reading the request's deadline signal.
      expect(await response.text()).toContain('NOT_CONFIGURED');
      expect(built).not.toHaveBeenCalled();
    } finally {
      built.mockRestore();
    }
  });

  it('an authenticate that throws (its store is down) gets 503, not 401', async () => {
    edge = await startEdgeServer(face, {
      authenticate: () => {
        throw new Error('database down');
      },
    });
    const response = await fetch(edge.url, {
      method: 'POST',
      headers: { ...LEGACY_HEADERS, authorization: 'Bearer x' },
      body: INITIALIZE,
    });
    expect(response.status).toBe(503);
  });
});

describe('rate limits', () => {
  let edge: EdgeServer | undefined;
  afterEach(async () => {
    await edge?.close();
    edge = undefined;
  });

  it('per IP: 429 with Retry-After, before authenticate', async () => {
    edge = await startEdgeServer('fetch', { rateLimit: { perIp: { limit: 2, windowMs: 60_000 }, perPrincipal: false } });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await fetch(edge.url, { method: 'POST', headers: LEGACY_HEADERS, body: INITIALIZE });
      statuses.push(r.status);
      if (r.status === 429) {
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
        expectCommonHeaders(r);
      }
    }
    expect(statuses).toEqual([401, 401, 429]);
    expect(edge.calls.authenticate).toBe(2);
  });

  it('per principal: 429 with Retry-After once the principal is over its limit', async () => {
    edge = await startEdgeServer('fetch', { rateLimit: { perIp: false, perPrincipal: { limit: 2, windowMs: 60_000 } } });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await fetch(edge.url, {
        method: 'POST',
        headers: { ...LEGACY_HEADERS, authorization: `Bearer ${edge.token}` },
        body: INITIALIZE,
      });
      statuses.push(r.status);
      await r.text();
    }
    expect(statuses).toEqual([200, 200, 429]);
  });
});

describe('the cached tools/list', () => {
  let cached: EdgeServer;
  let uncached: EdgeServer;
  beforeAll(async () => {
    cached = await startEdgeServer('fetch');
    uncached = await startEdgeServer('fetch', { cacheToolsList: false, database: cached.database });
  });
  afterAll(async () => {
    await uncached?.close();
    await cached?.close();
  });

  const list = async (edge: EdgeServer, era: 'modern' | 'legacy', id: string | number) => {
    const body =
      era === 'modern' ? modernBody('tools/list', {}, id) : JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' });
    const headers = era === 'modern' ? modernHeaders('tools/list') : LEGACY_HEADERS;
    const response = await fetch(edge.url, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${edge.token}` },
      body,
    });
    return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
  };

  it.each(['modern', 'legacy'] as const)('%s: byte for byte what the SDK answers, with the request id', async (era) => {
    for (const id of [1, 'a"b\\c', 9_007_199_254_740_991]) {
      const fromCache = await list(cached, era, id);
      const fromSdk = await list(uncached, era, id);
      expect(fromCache).toEqual(fromSdk);
      expect(fromCache.text).toContain(`"id":${JSON.stringify(id)}`);
    }
  });

  it('anything but a plain tools/list goes to the SDK (a cursor, a mismatched header)', async () => {
    const withCursor = modernBody('tools/list', { cursor: 'x' });
    const r = await fetch(cached.url, {
      method: 'POST',
      headers: { ...modernHeaders('tools/list'), authorization: `Bearer ${cached.token}` },
      body: withCursor,
    });
    const sdk = await fetch(uncached.url, {
      method: 'POST',
      headers: { ...modernHeaders('tools/list'), authorization: `Bearer ${uncached.token}` },
      body: withCursor,
    });
    expect(r.status).toBe(sdk.status);
    expect(await r.text()).toBe(await sdk.text());
    const mismatch = await fetch(cached.url, {
      method: 'POST',
      headers: { ...modernHeaders('tools/call'), authorization: `Bearer ${cached.token}` },
      body: modernBody('tools/list'),
    });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.json()).toMatchObject({ error: { code: -32020 } });
  });
});

describe('plain tool calls, run by the edge in the SDK’s framing', () => {
  let plain: EdgeServer;
  let sdk: EdgeServer;
  beforeAll(async () => {
    plain = await startEdgeServer('fetch');
    sdk = await startEdgeServer('fetch', { answerPlainCalls: false, database: plain.database });
  });
  afterAll(async () => {
    await sdk?.close();
    await plain?.close();
  });

  const callTool = async (
    edge: EdgeServer,
    era: 'modern' | 'legacy',
    id: string | number,
    name: string,
    args: Record<string, unknown>,
  ) => {
    const params = { name, arguments: args };
    const body =
      era === 'modern'
        ? modernBody('tools/call', params, id)
        : JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params });
    const headers = era === 'modern' ? modernHeaders('tools/call', name) : LEGACY_HEADERS;
    const response = await fetch(edge.url, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${edge.token}` },
      body,
    });
    return {
      status: response.status,
      headers: [...response.headers].filter(([key]) => key !== 'date' && key !== 'content-length' && key !== 'keep-alive'),
      text: await response.text(),
    };
  };

  // No backend here: sess_ask is a tool error (NOT_CONFIGURED), sess_list a result, sess_response's bad arguments an error.
  const CALLS: Array<[string, Record<string, unknown>]> = [
    ['sess_ask', { question: 'Lunch?', fields: [{ name: 'yes', label: 'Yes?', type: 'boolean' }] }],
    ['sess_list', {}],
    ['sess_response', { handle: 'not-a-handle', revision: 0 }],
  ];

  it.each(['modern', 'legacy'] as const)('%s: byte for byte what the SDK answers, headers and framing too', async (era) => {
    for (const id of [1, 'a"b\\c\u2028', 9_007_199_254_740_991]) {
      for (const [name, args] of CALLS) {
        const fromEdge = await callTool(plain, era, id, name, args);
        const fromSdk = await callTool(sdk, era, id, name, args);
        expect(fromEdge).toEqual(fromSdk);
        expect(fromEdge.status).toBe(200);
        expect(fromEdge.text).toContain(`"id":${JSON.stringify(id)}`);
      }
    }
  });

  it.each(['modern', 'legacy'] as const)(
    '%s: an unsafe key in the arguments is a tool error framed as the SDK frames one; with plain calls off, -32602',
    async (era) => {
      const messageOf = (text: string) =>
        JSON.parse(text.startsWith('{') ? text : text.split('data: ')[1]!) as {
          result?: { content?: unknown; structuredContent?: { error?: { code: string; field: string } } };
          error?: { code: number; data: { field: string } };
        };
      const withoutContent = (message: ReturnType<typeof messageOf>) => ({
        ...message,
        result: { ...message.result, content: null, structuredContent: null },
      });
      // A computed key: an own "__proto__" property, which JSON.stringify writes out.
      const unsafe = { handle: 'not-a-handle', revision: 0, ['__proto__']: { polluted: true } };
      const refused = await callTool(plain, era, 3, 'sess_response', unsafe);
      // The same era's tool error for bad arguments, answered by the SDK itself.
      const fromSdk = await callTool(sdk, era, 3, 'sess_response', { handle: 'not-a-handle', revision: 0 });
      expect({ status: refused.status, headers: refused.headers }).toEqual({ status: fromSdk.status, headers: fromSdk.headers });
      const message = messageOf(refused.text);
      expect(message.result?.structuredContent?.error).toMatchObject({
        code: 'INVALID_ARGUMENTS',
        field: '/__proto__',
      });
      expect(withoutContent(message)).toEqual(withoutContent(messageOf(fromSdk.text)));

      const withoutFrames = await callTool(sdk, era, 3, 'sess_response', unsafe);
      expect(withoutFrames.status).toBe(era === 'modern' ? 400 : 200);
      expect(messageOf(withoutFrames.text).error).toMatchObject({
        code: -32602,
        data: { field: '/params/arguments/__proto__' },
      });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
  );

  it('the SDK builds no server for a plain call, and does for anything else (which still ends alike)', async () => {
    const built = vi.spyOn(Server.prototype, 'setRequestHandler');
    try {
      await callTool(plain, 'modern', 1, 'sess_list', {});
      await callTool(plain, 'legacy', 1, 'sess_list', {});
      expect(built).not.toHaveBeenCalled();
      // A progress token makes the call not plain: the SDK runs it.
      const withProgress = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'sess_list', arguments: {}, _meta: { progressToken: 'p' } },
      });
      const response = await fetch(plain.url, {
        method: 'POST',
        headers: { ...LEGACY_HEADERS, authorization: `Bearer ${plain.token}` },
        body: withProgress,
      });
      expect(await response.text()).toContain('"structuredContent":{"interactions":[]}');
      expect(built).toHaveBeenCalledWith('tools/call', expect.any(Function));
    } finally {
      built.mockRestore();
    }
  });
});
