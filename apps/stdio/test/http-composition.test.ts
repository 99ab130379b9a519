/*
 * The HTTP composition as a hosting runtime uses it (the seed's "HTTP composition"): the package's
 * own `./http` export mounted in a bare Hono app on a real port, with a toy `authenticate` (a map
 * of bearer tokens) and an in-memory HandleStore written here, driven by the real MCP SDK client in
 * both protocol eras. No database and no backend: what is tested is the composition — tools/list,
 * the challenges, the Host allowlist, and a tool without a runtime answering NOT_CONFIGURED.
 * The toy store is held to the same HandleStore contract as the PostgreSQL and file stores, so the
 * test's own store is not a second, looser reading of the port.
 */
import { request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { REVIEW_HANDLE_STATES, SERVER_INSTRUCTIONS, TOOL_NAMES } from '@sess/contract';
import { newId, SessError } from '@sess/core';
import { MAX_UNFINISHED_PER_PRINCIPAL, UNFINISHED_STATES } from '@sess/interactions';
import { describeHandleStoreContract } from '@sess/testkit';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createSessMcpHttpHandler,
  type HandleBinding,
  type HandlePatch,
  type HandleRecord,
  type HandleStore,
  type ListStatus,
  type SessMcpHttpHandler,
  type SessPrincipal,
} from '../src/http.ts';

const REVIEW_STATES: ReadonlySet<string> = new Set(REVIEW_HANDLE_STATES);

/**
 * A HandleStore in memory (TEST-ONLY): records by handle, reads scoped to the binding's
 * workspace, lists scoped to the whole binding, the 100-unfinished cap per principal,
 * compare-and-set on `version`. Every call is synchronous inside, so the cap and the CAS are exact.
 */
function createMemoryHandleStore(now: () => Date = () => new Date()) {
  const records = new Map<string, HandleRecord>();
  const sameBinding = (r: HandleRecord, b: HandleBinding) =>
    r.origin === b.origin &&
    r.workspaceId === b.workspaceId &&
    r.principalId === b.principalId &&
    r.clientId === b.clientId &&
    r.grantId === b.grantId &&
    r.grantGeneration === b.grantGeneration;
  const listed = (status: ListStatus, r: HandleRecord) =>
    status === 'all' ||
    (status === 'open' ? UNFINISHED_STATES.has(r.state) : status === 'blocked' ? REVIEW_STATES.has(r.state) : r.state === status);
  const copy = (r: HandleRecord): HandleRecord => structuredClone(r);

  function bind(binding: HandleBinding): HandleStore {
    const inWorkspace = (handle: string) => {
      const r = records.get(handle);
      return r && r.workspaceId === binding.workspaceId ? r : undefined;
    };
    return {
      binding,
      async get(handle) {
        const r = inWorkspace(handle);
        return r && copy(r);
      },
      async insert(record) {
        const unfinished = [...records.values()].filter(
          (r) => r.workspaceId === record.workspaceId && r.principalId === record.principalId && UNFINISHED_STATES.has(r.state),
        ).length;
        if (UNFINISHED_STATES.has(record.state) && unfinished >= MAX_UNFINISHED_PER_PRINCIPAL) {
          throw new SessError('STATE_STORE_FULL', `At most ${MAX_UNFINISHED_PER_PRINCIPAL} unfinished interactions.`, {
            limit: MAX_UNFINISHED_PER_PRINCIPAL,
          });
        }
        records.set(record.handle, copy(record));
      },
      async update(handle, expectedVersion, patch: HandlePatch) {
        const r = inWorkspace(handle);
        if (!r || r.version !== expectedVersion) return undefined;
        const next: HandleRecord = { ...r, version: r.version + 1, updatedAt: now().toISOString() };
        const { sealed, ...plain } = patch;
        for (const [key, value] of Object.entries(plain)) {
          if (value === undefined) continue;
          if (value === null) delete (next as unknown as Record<string, unknown>)[key];
          else (next as unknown as Record<string, unknown>)[key] = value;
        }
        if (sealed !== undefined) {
          delete next.humanUrl;
          delete next.response;
          if (sealed?.humanUrl !== undefined) next.humanUrl = sealed.humanUrl;
          if (sealed?.response !== undefined) next.response = sealed.response;
        }
        records.set(handle, copy(next));
        return copy(next);
      },
      async removeIntent(handle, expectedVersion) {
        const r = inWorkspace(handle);
        if (r?.state !== 'create_intent' || r.version !== expectedVersion) return false;
        return records.delete(handle);
      },
      async list({ status, cursor, limit }) {
        const mine = [...records.values()]
          .filter((r) => sameBinding(r, binding) && listed(status, r))
          .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.handle.localeCompare(a.handle));
        let start = 0;
        if (cursor !== undefined) {
          const at = mine.findIndex((r) => r.handle === cursor);
          if (at === -1)
            throw new SessError('INVALID_ARGUMENTS', '/cursor is not a cursor from sess_list.', { field: '/cursor' });
          start = at + 1;
        }
        const page = mine.slice(start, start + limit);
        const more = start + limit < mine.length;
        return { records: page.map(copy), ...(more ? { nextCursor: page.at(-1)!.handle } : {}) };
      },
    };
  }
  return { bind };
}

describeHandleStoreContract('the in-memory store of this test', async () => {
  const store = createMemoryHandleStore();
  return {
    bind: store.bind,
    binding: {
      origin: 'https://sess.test',
      workspaceId: newId('workspace'),
      principalId: newId('user'),
      clientId: newId('oauthClient'),
      grantId: newId('oauthGrant'),
      grantGeneration: 1,
    },
    otherWorkspaceId: newId('workspace'),
  };
});

const RESOURCE_METADATA = 'https://sess.test/.well-known/oauth-protected-resource/mcp';
const ALLOWED_HOST = '127.0.0.1';

describe('createSessMcpHttpHandler from @sess.si/mcp/http, mounted in a bare Hono app', () => {
  let server: Server;
  let handler: SessMcpHttpHandler;
  let url: string;
  let port: number;
  const principal: SessPrincipal = {
    workspaceId: newId('workspace'),
    principalId: newId('user'),
    clientId: newId('oauthClient'),
    grantId: newId('oauthGrant'),
    grantGeneration: 1,
    scopes: ['sess:interact'],
  };
  const token = `toy-${newId('request')}`;
  const narrowToken = `toy-narrow-${newId('request')}`;
  const principals = new Map<string, SessPrincipal>([
    [token, principal],
    [narrowToken, { ...principal, scopes: ['profile'] }],
  ]);
  const seen = { authenticate: 0, stores: 0 };

  beforeAll(async () => {
    const store = createMemoryHandleStore();
    handler = createSessMcpHttpHandler({
      // TEST-ONLY authority: a bearer token looked up in a map.
      authenticate: ({ headers }) => {
        seen.authenticate++;
        const match = /^Bearer (.+)$/i.exec(headers.get('authorization') ?? '');
        return match ? principals.get(match[1]!) : undefined;
      },
      handleStore: (binding) => {
        seen.stores++;
        return store.bind(binding);
      },
      allowedHosts: [ALLOWED_HOST],
      requiredScopes: ['sess:interact'],
      resourceMetadataUrl: RESOURCE_METADATA,
    });
    const app = new Hono();
    app.all('/mcp', (c) => handler.fetch(c.req.raw, { incoming: (c.env as { incoming: IncomingMessage }).incoming }));
    server = await new Promise<Server>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as Server));
    });
    port = (server.address() as AddressInfo).port;
    url = `http://${ALLOWED_HOST}:${port}/mcp`;
  });

  afterAll(async () => {
    await handler?.close();
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  async function connect(era: 'modern' | 'legacy', bearer: string | undefined): Promise<Client> {
    const client = new Client(
      { name: 'composition-test', version: '1' },
      era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {},
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: bearer ? { Authorization: `Bearer ${bearer}` } : {} },
      }),
    );
    return client;
  }

  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
  });
  const post = (headers: Record<string, string>) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: initialize,
    });

  describe.each(['modern', 'legacy'] as const)('a %s client', (era) => {
    it('lists the tools and reads the instructions', async () => {
      const client = await connect(era, token);
      try {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual([...TOOL_NAMES]);
        expect(client.getInstructions()).toBe(SERVER_INSTRUCTIONS);
      } finally {
        await client.close();
      }
    });

    it('a tool call with no backend answers NOT_CONFIGURED, as a tool error the model can read', async () => {
      const client = await connect(era, token);
      try {
        const result = await client.callTool({
          name: 'sess_ask',
          arguments: { question: 'Lunch at noon?', fields: [{ name: 'yes', label: 'Coming?', type: 'boolean' }] },
        });
        expect(result.isError).toBe(true);
        expect(result.structuredContent).toMatchObject({ error: { code: 'NOT_CONFIGURED', retryable: false } });
        // The handle store the host supplied is what the tools read (sess_list needs no backend).
        const stores = seen.stores;
        expect((await client.callTool({ name: 'sess_list', arguments: {} })).structuredContent).toEqual({ interactions: [] });
        expect(seen.stores).toBeGreaterThan(stores);
      } finally {
        await client.close();
      }
    });

    it('without a token the client cannot connect: 401', async () => {
      await expect(connect(era, undefined)).rejects.toThrow(/401|unauthorized/i);
    });

    it('with a token that lacks the scope the client cannot connect: 403', async () => {
      await expect(connect(era, narrowToken)).rejects.toThrow(/insufficient.scope/i);
    });
  });

  it('no token: 401 with the bare challenge naming the resource metadata and the scope', async () => {
    const response = await post({});
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${RESOURCE_METADATA}", scope="sess:interact"`,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('a token without the required scope: 403 insufficient_scope', async () => {
    const response = await post({ authorization: `Bearer ${narrowToken}` });
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope".*scope="sess:interact"/);
    expect(await response.json()).toMatchObject({ error: 'insufficient_scope' });
  });

  it('a Host not in allowedHosts: 403 before authenticate runs, even with a good token', async () => {
    const before = seen.authenticate;
    const { status, headers } = await new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: '/mcp',
          method: 'POST',
          headers: {
            host: `rebound.example:${port}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            authorization: `Bearer ${token}`,
            'content-length': Buffer.byteLength(initialize),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
        },
      );
      req.on('error', reject);
      req.end(initialize);
    });
    expect(status).toBe(403);
    expect(headers['cache-control']).toBe('no-store');
    expect(seen.authenticate).toBe(before);
  });
});
