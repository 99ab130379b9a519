import { type AddressInfo, createServer } from 'node:net';
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createApiKey } from '@sess/accounts';
import { type Logger, newId } from '@sess/core';
import type { FormsRuntime } from '@sess/forms';
import { createInProcessBackend, createPostgresHandleStore, createPostgresTaskStore, createRuntimeKeySet } from '@sess/hosted';
import {
  createHttpBackend,
  createHttpReceipts,
  type HandleStoreFactory,
  type ReceiptVerification,
  type SessBackend,
  type SessPrincipal,
} from '@sess/interactions';
import { createSessMcpHttpHandler, type SessMcpHttpHandler, type SessMcpHttpHandlerOptions } from '@sess/mcp';
import {
  createTestClock,
  createTestDatabase,
  createTestFormsRuntime,
  createTestLogger,
  createUser,
  createWorkspace,
  recordSecret,
  TEST_SECRET,
  type TestClock,
  type TestDatabase,
} from '@sess/testkit';
import { Hono } from 'hono';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';

/*
 * A real MCP endpoint for tool tests that do not need OAuth: the edge on a real node server
 * (127.0.0.1, port 0), the real forms runtime and the real PostgreSQL/PGlite handle store, with
 * a TEST-ONLY `authenticate` that maps bearer tokens handed out by `addPrincipal`.
 *
 * Two backends behind the same tools: `in-process` (@sess/forms in the same database, the hosted
 * default) and `http` (@sess/interactions' HTTP backend over @sess/client to the real apps/server
 * app — /v1 and /.well-known/jwks.json — of the same forms runtime, on its own loopback port, with a
 * real API key of each principal's workspace). On `http`, faults are injected at the network: the
 * client's `fetch` is the harness's, which can refuse a connection (a closed port), answer as a
 * gateway would (503, nothing forwarded), lose the answer after the server handled the request,
 * or rewrite what the server answered.
 */

/** The backends every tool suite runs on. */
export const BACKENDS = ['in-process', 'http'] as const;
export type BackendKind = (typeof BACKENDS)[number];

/** One /v1 request as it left the client (never its body or credential). */
export interface SentRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  ifMatch: string | undefined;
}

/** What the network does to one request. */
export type NetworkFault =
  /** A connection refused: the request never leaves (a closed loopback port). */
  | 'refuse'
  /** A gateway answers 503 without a Sess body; the request never reaches Sess. */
  | 'gateway_503'
  /** The request reaches Sess and is handled; the answer is lost (the connection resets). */
  | 'drop_response'
  /** The request reaches Sess; its JSON answer is rewritten on the way back. */
  | { rewrite: (json: Record<string, unknown>) => Record<string, unknown> };

/** Decides a request's fault (undefined: the network behaves). */
export type NetworkFaults = (request: SentRequest) => NetworkFault | undefined;

export interface McpHarness {
  kind: BackendKind;
  url: string;
  /** `http`: every /v1 request the backend sent, in order (faulted ones included). */
  sent: SentRequest[];
  database: TestDatabase;
  runtime: FormsRuntime;
  backend: SessBackend;
  clock: TestClock;
  handler: SessMcpHttpHandler;
  /** A principal in a workspace; returns its bearer token. */
  addPrincipal(overrides?: Partial<SessPrincipal>): Promise<{ token: string; principal: SessPrincipal }>;
  /** Replaces a token's principal (a re-issued grant, a refresh). */
  setPrincipal(token: string, principal: SessPrincipal): void;
  /**
   * A connected client; `url` reaches the same endpoint under another accepted Host (e.g.
   * localhost) or another endpoint (`addEndpoint`); `capabilities` are sent on every 2026 request.
   */
  connect(
    token: string,
    era: 'modern' | 'legacy',
    options?: { url?: string; capabilities?: Record<string, unknown>; fetch?: typeof globalThis.fetch },
  ): Promise<Client>;
  /**
   * Another endpoint over the same database and runtime, with stores and backend of its own (a
   * second replica, or the server after a restart once the one before is closed); same principals.
   */
  addEndpoint(): Promise<{ url: string; close(): Promise<void> }>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** Which backend the tools use (default `in-process`). */
  backend?: BackendKind;
  /** `http` only: faults injected at the network, per request. */
  network?: NetworkFaults;
  /** Wraps the real backend (fault injection at the SessBackend boundary). */
  wrapBackend?: (backend: SessBackend) => SessBackend;
  wrapStore?: (factory: HandleStoreFactory) => HandleStoreFactory;
  handler?: Partial<SessMcpHttpHandlerOptions>;
  /** Keep MCP tasks (the Tasks extension) in the database's `mcp_tasks`. */
  tasks?: boolean;
  /** Slows or replaces authenticate (the hanging-authenticate test). */
  wrapAuthenticate?: (authenticate: SessMcpHttpHandlerOptions['authenticate']) => SessMcpHttpHandlerOptions['authenticate'];
  logger?: Logger;
}

export const REQUIRED_SCOPE = 'mcp';

export async function startMcpHarness(options: HarnessOptions = {}): Promise<McpHarness> {
  const database = await createTestDatabase();
  const clock = createTestClock(new Date());
  const runtime = createTestFormsRuntime(database, { now: clock.now });
  const kind = options.backend ?? 'in-process';
  const sent: SentRequest[] = [];
  const remote = kind === 'http' ? await startRemote(database, runtime, clock, sent, options.network) : undefined;
  const store = createPostgresHandleStore({ db: database.db, secret: TEST_SECRET, now: clock.now });
  const real = remote?.backend ?? createInProcessBackend(runtime, { handles: store });
  const backend = options.wrapBackend ? options.wrapBackend(real) : real;
  const receipts: ReceiptVerification = remote?.receipts ?? { keys: createRuntimeKeySet(runtime), issuer: runtime.publicUrl };
  // One real API key per workspace, made on first use (the http backend's credential for it).
  const keys = new Map<string, Promise<string>>();
  const keyOf = (workspaceId: string) => {
    let key = keys.get(workspaceId);
    if (!key) {
      key = (async () => {
        const { userId } = await createUser(database.db, { workspaceId });
        const made = await createApiKey({
          ctx: { db: database.db, now: clock.now },
          input: { workspaceId, name: 'mcp harness', createdBy: userId },
        });
        recordSecret(made.key, 'api-key');
        return made.key;
      })();
      keys.set(workspaceId, key);
    }
    return key;
  };
  const principals = new Map<string, SessPrincipal>();
  const baseAuthenticate: SessMcpHttpHandlerOptions['authenticate'] = ({ headers }) => {
    const match = /^Bearer (.+)$/i.exec(headers.get('authorization') ?? '');
    return match ? principals.get(match[1]!) : undefined;
  };
  const authenticate = options.wrapAuthenticate ? options.wrapAuthenticate(baseAuthenticate) : baseAuthenticate;
  const handlerOptions = (handles: HandleStoreFactory, tools: SessBackend): SessMcpHttpHandlerOptions => ({
    authenticate,
    handleStore: options.wrapStore ? options.wrapStore(handles) : handles,
    allowedHosts: ['127.0.0.1', 'localhost'],
    allowedOrigins: ['https://client.example'],
    requiredScopes: [REQUIRED_SCOPE],
    resourceMetadataUrl: 'http://127.0.0.1/.well-known/oauth-protected-resource/mcp',
    backend: tools,
    receipts,
    logger: options.logger ?? createTestLogger({ level: process.env.MCP_TEST_LOG ?? 'silent' }),
    now: clock.now,
    rateLimit: { perIp: false, perPrincipal: false },
    ...(options.tasks ? { tasks: createPostgresTaskStore({ db: database.db }) } : {}),
    ...options.handler,
  });
  const handler = createSessMcpHttpHandler(handlerOptions(store.bind, backend));
  const { server, url } = await listen(handler);
  const clients: Client[] = [];
  const endpoints: Array<() => Promise<void>> = [];

  return {
    kind,
    url,
    sent,
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
      if (kind === 'http' && !principal.credential) {
        const key = await keyOf(workspaceId);
        principal.credential = async () => key;
      }
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
        {
          ...(era === 'modern' ? { versionNegotiation: { mode: 'auto' as const } } : {}),
          ...(connectOptions.capabilities ? { capabilities: connectOptions.capabilities } : {}),
        },
      );
      await client.connect(
        new StreamableHTTPClientTransport(new URL(connectOptions.url ?? url), {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
          ...(connectOptions.fetch ? { fetch: connectOptions.fetch } : {}),
        }),
      );
      clients.push(client);
      return client;
    },
    async addEndpoint() {
      if (kind !== 'in-process') throw new Error('addEndpoint: in-process backend only');
      const handles = createPostgresHandleStore({ db: database.db, secret: TEST_SECRET, now: clock.now });
      const own = createSessMcpHttpHandler(handlerOptions(handles.bind, createInProcessBackend(runtime, { handles })));
      const listening = await listen(own);
      let closed = false;
      const close = async () => {
        if (closed) return;
        closed = true;
        await own.close();
        await stop(listening.server);
      };
      endpoints.push(close);
      return { url: listening.url, close };
    },
    async close() {
      await Promise.all(clients.map((client) => client.close().catch(() => {})));
      await Promise.all(endpoints.map((close) => close()));
      await handler.close();
      await stop(server);
      await remote?.close();
      await runtime.close();
      await database.destroy();
    },
  };
}

/** The edge on a real node server (127.0.0.1, port 0). */
async function listen(handler: SessMcpHttpHandler): Promise<{ server: ReturnType<typeof serve>; url: string }> {
  const app = new Hono();
  app.all('/mcp', (c) => handler.fetch(c.req.raw, { clientAddress: getConnInfo(c).remote.address ?? 'unknown' }));
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  // Long enough that a keep-alive socket is never closed under a client that is about to reuse it.
  (server as unknown as { keepAliveTimeout: number }).keepAliveTimeout = 120_000;
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` };
}

async function stop(server: ReturnType<typeof serve>): Promise<void> {
  if ('closeAllConnections' in server) (server as unknown as { closeAllConnections(): void }).closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Structured content of a tool result (or its error). */
export function structured<T = Record<string, unknown>>(result: unknown): T {
  return (result as { structuredContent: T }).structuredContent;
}

/** A loopback port that was free a moment ago and is closed now: connecting to it is refused. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * The real apps/server app (its /v1 API and JWKS, API-key authentication, error mapping) over the
 * harness's forms runtime and database, on its own loopback port; and the HTTP backend to it, whose
 * `fetch` goes through `network`.
 */
async function startRemote(
  database: TestDatabase,
  runtime: FormsRuntime,
  clock: TestClock,
  sent: SentRequest[],
  network: NetworkFaults | undefined,
): Promise<{ backend: SessBackend; receipts: ReceiptVerification; close(): Promise<void> }> {
  let handle: (request: Request, env: unknown) => Response | Promise<Response> = () => new Response(null, { status: 503 });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: (request, env) => handle(request, env), port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    PUBLIC_URL: origin,
    ...(database.url ? { DATABASE_URL: database.url } : {}),
  });
  const closers: Array<() => Promise<void>> = [];
  const app = buildApp({
    config,
    database,
    logger: createTestLogger(),
    secret: TEST_SECRET,
    now: clock.now,
    forms: runtime,
    onClose: (close) => closers.push(close),
  });
  handle = (request, env) => app.fetch(request, env);
  const refused = `http://127.0.0.1:${await closedPort()}`;

  const faultyFetch: typeof globalThis.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(init?.headers);
    const request: SentRequest = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      idempotencyKey: headers.get('idempotency-key') ?? undefined,
      ifMatch: headers.get('if-match') ?? undefined,
    };
    sent.push(request);
    const fault = network?.(request);
    if (fault === 'refuse') return fetch(`${refused}${url.pathname}${url.search}`, init);
    if (fault === 'gateway_503') return new Response('<html>502 Bad Gateway</html>', { status: 503 });
    const response = await fetch(url, init);
    if (fault === 'drop_response') {
      // The server has handled the request (its answer is here); the answer never reaches the client.
      await response.body?.cancel();
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
    }
    if (fault && typeof fault === 'object') {
      const json = fault.rewrite((await response.json()) as Record<string, unknown>);
      const rewritten = new Headers(response.headers);
      rewritten.delete('content-length');
      return new Response(JSON.stringify(json), { status: response.status, headers: rewritten });
    }
    return response;
  };

  return {
    backend: createHttpBackend({ origin, fetch: faultyFetch }),
    // The receipts name the runtime's public URL as their issuer (a split deployment: SESS_RECEIPT_ISSUER).
    receipts: createHttpReceipts({ origin, issuer: runtime.publicUrl }),
    async close() {
      if ('closeAllConnections' in server) (server as unknown as { closeAllConnections(): void }).closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.allSettled(closers.map((close) => close()));
    },
  };
}
