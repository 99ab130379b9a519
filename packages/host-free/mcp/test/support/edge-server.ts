import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { newId } from '@sess/core';
import { createPostgresHandleStore } from '@sess/hosted';
import type { SessPrincipal } from '@sess/interactions';
import { createTestDatabase, createTestLogger, createWorkspace, TEST_SECRET, type TestDatabase } from '@sess/testkit';
import { Hono } from 'hono';
import { createSessMcpHttpHandler, type SessMcpHttpHandler, type SessMcpHttpHandlerOptions } from '../../src/index.ts';

/** `fetch`: behind Hono, body from the node message; `fetch-web`: the same through the web stream; `node`: node:http. */
export type Face = 'fetch' | 'fetch-web';

export interface EdgeServer {
  url: string;
  port: number;
  database: TestDatabase;
  handler: SessMcpHttpHandler;
  /** How many times `authenticate` ran. */
  calls: { authenticate: number };
  /** A valid token of a principal with the required scope, and one without it. */
  token: string;
  tokenWithoutScope: string;
  principal: SessPrincipal;
  close(): Promise<void>;
}

export const RESOURCE_METADATA = 'https://sess.test/.well-known/oauth-protected-resource/mcp';

/**
 * The edge alone on a real socket, on either face: `fetch` behind Hono on @hono/node-server (as
 * apps/server mounts it), or `node` on a bare node:http server. TEST-ONLY `authenticate`: a
 * map of bearer tokens (plus whatever the test wraps around it).
 */
export async function startEdgeServer(
  face: Face,
  options: Partial<SessMcpHttpHandlerOptions> & {
    database?: TestDatabase;
    /** Origins to allow once the port is known (a localhost server allows its own origin). */
    originsFor?: (port: number) => string[];
  } = {},
): Promise<EdgeServer> {
  const database = options.database ?? (await createTestDatabase());
  const { workspaceId } = await createWorkspace(database.db);
  const principal: SessPrincipal = {
    workspaceId,
    principalId: newId('user'),
    clientId: newId('oauthClient'),
    grantId: newId('oauthGrant'),
    grantGeneration: 1,
    scopes: ['sess:interact'],
  };
  const token = `good-${newId('request')}`;
  const tokenWithoutScope = `narrow-${newId('request')}`;
  const principals = new Map<string, SessPrincipal>([
    [token, principal],
    [tokenWithoutScope, { ...principal, scopes: ['profile'] }],
  ]);
  const calls = { authenticate: 0 };
  const store = createPostgresHandleStore({ db: database.db, secret: TEST_SECRET });
  const { authenticate: wrap, database: _db, originsFor, ...rest } = options;
  const base: SessMcpHttpHandlerOptions['authenticate'] = ({ headers }) => {
    const match = /^Bearer (.+)$/i.exec(headers.get('authorization') ?? '');
    return match ? principals.get(match[1]!) : undefined;
  };
  // The listener comes first, so the handler can be built knowing its own port.
  let handler!: SessMcpHttpHandler;
  const app = new Hono();
  app.all('/mcp', (c) =>
    handler.fetch(c.req.raw, {
      clientAddress: getConnInfo(c).remote.address ?? 'unknown',
      ...(face === 'fetch-web' ? {} : { incoming: (c.env as { incoming: IncomingMessage }).incoming }),
    }),
  );
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as Server));
  });
  const port = (server.address() as AddressInfo).port;
  handler = createSessMcpHttpHandler({
    authenticate: (request) => {
      calls.authenticate++;
      return wrap ? wrap(request) : base(request);
    },
    handleStore: store.bind,
    allowedHosts: ['127.0.0.1', 'localhost'],
    allowedOrigins: ['https://client.example', ...(originsFor ? originsFor(port) : [])],
    requiredScopes: ['sess:interact'],
    resourceMetadataUrl: RESOURCE_METADATA,
    logger: createTestLogger({ level: process.env.MCP_TEST_LOG ?? 'silent' }),
    rateLimit: { perIp: false, perPrincipal: false },
    ...rest,
  });

  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    database,
    handler,
    calls,
    token,
    tokenWithoutScope,
    principal,
    async close() {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (!options.database) await database.destroy();
    },
  };
}

/**
 * Writes raw bytes to the server and collects what comes back until the server closes the
 * connection or `waitMs` passes. `closed` tells whether the server ended the connection.
 */
export function rawExchange(
  port: number,
  chunks: Array<string | { pauseMs: number }>,
  waitMs = 2000,
): Promise<{ text: string; status: number; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let closed = false;
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ text, status, closed });
    };
    const timer = setTimeout(done, waitMs);
    socket.on('data', (data) => {
      text += data.toString('utf8');
    });
    socket.on('end', () => {
      closed = true;
      done();
    });
    socket.on('error', () => {
      closed = true;
      done();
    });
    socket.on('connect', async () => {
      for (const chunk of chunks) {
        if (typeof chunk === 'string') {
          if (!socket.destroyed) socket.write(chunk);
        } else await new Promise((r) => setTimeout(r, chunk.pauseMs));
      }
    });
  });
}

/** An initialize body (2025 era). */
export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
});

/** The 2026-07-28 envelope of a request. */
export function modernBody(method: string, params: Record<string, unknown> = {}, id: number | string = 1): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'probe', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  });
}

export function modernHeaders(method: string, name?: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    ...(name ? { 'mcp-name': name } : {}),
  };
}

export const LEGACY_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
