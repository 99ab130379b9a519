import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type Logger, newId } from '@sess/core';
import type { FormsRuntime } from '@sess/forms';
import type { HandleStoreFactory, SessBackend, SessPrincipal } from '@sess/interactions';
import {
  createPostgresHandleStore,
  createSessMcpHttpHandler,
  type SessMcpHttpHandler,
  type SessMcpHttpHandlerOptions,
  transactionOfUnit,
} from '@sess/mcp';
import {
  createTestClock,
  createTestDatabase,
  createTestFormsRuntime,
  createTestLogger,
  createWorkspace,
  TEST_SECRET,
  type TestClock,
  type TestDatabase,
} from '@sess/testkit';
import { Hono } from 'hono';
import { createInProcessBackend, createRuntimeKeySet } from '../../src/mcp/in-process-backend.ts';

/*
 * A real MCP endpoint for tool tests that do not need OAuth: the edge on a real node server
 * (127.0.0.1, port 0), the real forms runtime and the real PostgreSQL/PGlite handle store, with
 * a TEST-ONLY `authenticate` that maps bearer tokens handed out by `addPrincipal`.
 */

export interface McpHarness {
  url: string;
  database: TestDatabase;
  runtime: FormsRuntime;
  backend: SessBackend;
  clock: TestClock;
  handler: SessMcpHttpHandler;
  /** A principal in a workspace; returns its bearer token. */
  addPrincipal(overrides?: Partial<SessPrincipal>): Promise<{ token: string; principal: SessPrincipal }>;
  /** Replaces a token's principal (a re-issued grant, a refresh). */
  setPrincipal(token: string, principal: SessPrincipal): void;
  /** A connected client; `url` reaches the same endpoint under another accepted Host (e.g. localhost). */
  connect(token: string, era: 'modern' | 'legacy', options?: { url?: string }): Promise<Client>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** Wraps the real backend (fault injection at the SessBackend boundary). */
  wrapBackend?: (backend: SessBackend) => SessBackend;
  wrapStore?: (factory: HandleStoreFactory) => HandleStoreFactory;
  handler?: Partial<SessMcpHttpHandlerOptions>;
  /** Slows or replaces authenticate (the hanging-authenticate test). */
  wrapAuthenticate?: (authenticate: SessMcpHttpHandlerOptions['authenticate']) => SessMcpHttpHandlerOptions['authenticate'];
  logger?: Logger;
}

export const REQUIRED_SCOPE = 'mcp';

export async function startMcpHarness(options: HarnessOptions = {}): Promise<McpHarness> {
  const database = await createTestDatabase();
  const clock = createTestClock(new Date());
  const runtime = createTestFormsRuntime(database, { now: clock.now });
  const real = createInProcessBackend(runtime, { transactionOf: transactionOfUnit });
  const backend = options.wrapBackend ? options.wrapBackend(real) : real;
  const store = createPostgresHandleStore({ db: database.db, secret: TEST_SECRET, now: clock.now });
  const principals = new Map<string, SessPrincipal>();
  const baseAuthenticate: SessMcpHttpHandlerOptions['authenticate'] = ({ headers }) => {
    const match = /^Bearer (.+)$/i.exec(headers.get('authorization') ?? '');
    return match ? principals.get(match[1]!) : undefined;
  };
  const authenticate = options.wrapAuthenticate ? options.wrapAuthenticate(baseAuthenticate) : baseAuthenticate;
  const handler = createSessMcpHttpHandler({
    authenticate,
    handleStore: options.wrapStore ? options.wrapStore(store.bind) : store.bind,
    allowedHosts: ['127.0.0.1', 'localhost'],
    allowedOrigins: ['https://client.example'],
    requiredScopes: [REQUIRED_SCOPE],
    resourceMetadataUrl: 'http://127.0.0.1/.well-known/oauth-protected-resource/mcp',
    backend,
    receipts: { keys: createRuntimeKeySet(runtime), issuer: runtime.publicUrl },
    logger: options.logger ?? createTestLogger({ level: process.env.MCP_TEST_LOG ?? 'silent' }),
    now: clock.now,
    rateLimit: { perIp: false, perPrincipal: false },
    ...options.handler,
  });
  const app = new Hono();
  app.all('/mcp', (c) => handler.fetch(c.req.raw, { clientAddress: getConnInfo(c).remote.address ?? 'unknown' }));
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  // Long enough that a keep-alive socket is never closed under a client that is about to reuse it.
  (server as unknown as { keepAliveTimeout: number }).keepAliveTimeout = 120_000;
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  const clients: Client[] = [];

  return {
    url,
    database,
    runtime,
    backend,
    clock,
    handler,
    async addPrincipal(overrides = {}) {
      const workspaceId = overrides.workspaceId ?? (await createWorkspace(database.db)).workspaceId;
      const principal: SessPrincipal = {
        workspaceId,
        principalId: newId('user'),
        clientId: newId('oauthClient'),
        grantId: newId('oauthGrant'),
        grantGeneration: 1,
        scopes: [REQUIRED_SCOPE],
        ...overrides,
      };
      const token = `test-${newId('request')}`;
      principals.set(token, principal);
      return { token, principal };
    },
    setPrincipal(token, principal) {
      principals.set(token, principal);
    },
    async connect(token, era, connectOptions = {}) {
      const client = new Client(
        { name: 'sess-test', version: '1.0.0' },
        era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {},
      );
      await client.connect(
        new StreamableHTTPClientTransport(new URL(connectOptions.url ?? url), {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
        }),
      );
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((client) => client.close().catch(() => {})));
      await handler.close();
      if ('closeAllConnections' in server) (server as unknown as { closeAllConnections(): void }).closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await runtime.close();
      await database.destroy();
    },
  };
}

/** Structured content of a tool result (or its error). */
export function structured<T = Record<string, unknown>>(result: unknown): T {
  return (result as { structuredContent: T }).structuredContent;
}
