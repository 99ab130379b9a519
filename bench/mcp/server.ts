/**
 * The server half of bench/mcp (started by run.ts, pinned to one core). It serves, side by side:
 *
 * - the whole edge: the real app (buildApp: request ids, logging, OAuth verifier, handle store on
 *   PostgreSQL, forms in-process) at `EDGE/mcp`;
 * - a bare `createMcpHandler` serving the same seven tools (the same server factory, no
 *   preflight, no token verification, the SDK reading the body itself) at `BARE/mcp`;
 * - a bare Hono JSON route (parse the body, answer a JSON-RPC-shaped object) at `BARE/json`;
 * - `BARE/trivial`: a `createMcpHandler` whose server has ONE trivial tool (`ping`, a fixed text),
 *   fed an already-parsed body as the edge does (`fetch(request, { authInfo, parsedBody })`): the
 *   anchor for sess_ask (what any tools/call costs before the tool does anything);
 * - `STATS/stats`: RSS, heap, CPU time and how many /mcp requests are in flight; `STATS/gc`;
 *   `STATS/collections`: the server's garbage collections (epoch ms start, ms) since it started;
 *   `STATS/allocations/start` and `/stop`: V8's sampling heap profiler over what the server
 *   allocates in between, collected or not (stop answers the .heapprofile JSON);
 *   `STATS/connect` (POST `{ count }`): connects `count` more apps, one new workspace each, and
 *   answers their tokens (each principal may hold at most 100 unfinished interactions, so every
 *   section of run.ts takes fresh ones).
 *
 * The edge listens with a backlog of 4096 (apps/server's LISTEN_BACKLOG, the product's setting;
 * the kernel caps it at net.core.somaxconn, printed too).
 *
 * One person signs in through the real OAuth flow (DCR, sign-in page, consent, token) and connects
 * GRANTS apps, one per workspace; it prints one JSON line with the URLs, the tokens and one waiting
 * handle.
 */
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer, serve } from '@hono/node-server';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { createLogger, newSecret } from '@sess/core';
import { openDatabase, workspaces } from '@sess/db';
import { type EventWorker, startEventWorker } from '@sess/events';
import { createFormsRuntime } from '@sess/forms';
import { createInProcessBackend, createPostgresHandleStore, createRuntimeKeySet } from '@sess/hosted';
import type { RequestScope } from '@sess/interactions';
import { createServerFactory } from '@sess/mcp';
import { createAccessTokenVerifier } from '@sess/oauth';
import { buildApp, loadConfig, startTracing } from '@sess/server';
import { type CookieJar, createTestUser, createTestWorkspace, sampleSurface, signInAndAuthorize } from '@sess/testkit';
import { eq, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { recordCollections } from '../support/collections.ts';

const DATABASE_URL = process.env.DATABASE_URL!;
const GRANTS = Number(process.env.BENCH_GRANTS ?? 55);
const SECRET = process.env.BENCH_SECRET!;

/** The pool this bench opens, and tells the app it has (its admission bounds follow the pool). */
const POOL_MAX = 20;
const database = await openDatabase({ url: DATABASE_URL, poolMax: POOL_MAX });
const { migrate } = await import('@sess/db');
await migrate(database.db);

// The whole edge: the real app, PUBLIC_URL = its own address.
let inflight = 0;
let appFetch: (request: Request, env: unknown) => Response | Promise<Response> = () => new Response('starting', { status: 503 });
/** The product's listen backlog (apps/server/src/server.ts, LISTEN_BACKLOG). */
const BACKLOG = 4096;
// The count goes down in a reaction of module-level functions rather than in an async frame: the
// bench's own bookkeeping is in every parked wait's heap figure, and a suspended frame is ~0.3 KiB.
const countedOut = (response: Response) => {
  inflight--;
  return response;
};
const countedOutFailed = (error: unknown) => {
  inflight--;
  throw error;
};
const edgeServer = createAdaptorServer({
  fetch: (request, env) => {
    if (!request.url.endsWith('/mcp')) return appFetch(request, env);
    inflight++;
    let answered: Response | Promise<Response>;
    try {
      answered = appFetch(request, env);
    } catch (error) {
      return countedOutFailed(error);
    }
    return Promise.resolve(answered).then(countedOut, countedOutFailed);
  },
});
await new Promise<void>((resolve) => edgeServer.listen({ port: 0, host: '127.0.0.1', backlog: BACKLOG }, resolve));
(edgeServer as unknown as { keepAliveTimeout: number }).keepAliveTimeout = 120_000;
const edgeUrl = `http://127.0.0.1:${(edgeServer.address() as AddressInfo).port}`;
const config = loadConfig({
  NODE_ENV: 'production',
  PORT: '0',
  PUBLIC_URL: edgeUrl,
  LOG_LEVEL: 'warn',
  SESS_SECRET: SECRET,
  SESS_SIGNUP: 'open',
  // Required in production over http; notifications stay on (their outbox rows are part of the cost;
  // no worker runs here, so nothing is sent to that address).
  SESS_VAPID_SUBJECT: process.env.SESS_VAPID_SUBJECT ?? 'mailto:bench@sess.dev',
  DATABASE_URL,
  // The pool opened above: the admission bound on MCP calls is 4 per connection (80), above the
  // 50 clients of run.ts, which measure a call's cost (bench/overload measures refusals).
  DB_POOL_MAX: String(POOL_MAX),
  SESS_MCP_RATE_PER_IP: process.env.SESS_MCP_RATE_PER_IP ?? '6000',
  SESS_MCP_RATE_PER_PRINCIPAL: process.env.SESS_MCP_RATE_PER_PRINCIPAL ?? '600',
  // BENCH_METRICS=1: metrics on, as METRICS_TOKEN turns them on (/metrics on the edge's listener).
  ...(process.env.BENCH_METRICS === '1' ? { METRICS_TOKEN: newSecret(32) } : {}),
  // Tracing on when run.ts is given BENCH_TRACING=1 (it passes its loopback OTLP sink's address).
  ...(process.env.OTEL_EXPORTER_OTLP_ENDPOINT ? { OTEL_EXPORTER_OTLP_ENDPOINT: process.env.OTEL_EXPORTER_OTLP_ENDPOINT } : {}),
});
// Before the logger and the app, as startServer does: the logger then puts trace ids on its lines.
await startTracing(config);
const logger = createLogger({ level: 'warn' });
const app = buildApp({ config, database, logger, secret: SECRET, now: () => new Date() });
// With metrics on, a scrape every 5 s (three times Prometheus's usual 15 s), so its cost is in the figures too.
if (app.metrics) {
  const metrics = app.metrics;
  setInterval(() => void metrics.render(), 5_000).unref();
}
appFetch = (request, env) => app.fetch(request, env);

// Real tokens: one person signs in once and connects GRANTS apps, each to a workspace of its own
// (a principal per workspace, so the 100-unfinished cap applies to each), on a plan without an
// open-session limit. The first app registers through DCR; the others reuse its client id (one
// grant per person, workspace and client, so still one principal each): one sign-in and one
// registration whatever GRANTS is, within the per-IP limits of the sign-in page (30) and of
// registration (60 an hour, which no setting raises).
const tokens: string[] = [];
const person = await createTestUser(database.db);
let browser: CookieJar | undefined;
let client: { kind: 'existing'; clientId: string; redirectUri: string } | undefined;

/** A new workspace of the person's, on enterprise, connected to the app: its access token. */
async function connectWorkspace(workspaceId?: string): Promise<string> {
  const id = workspaceId ?? (await createTestWorkspace(database.db, { userId: person.userId, role: 'owner' })).workspaceId;
  await database.db.update(workspaces).set({ plan: 'enterprise' }).where(eq(workspaces.id, id));
  const connected = await signInAndAuthorize({
    baseUrl: edgeUrl,
    user: person,
    workspaceId: id,
    ...(browser ? { browser } : {}),
    ...(client ? { client } : {}),
  });
  browser = connected.browser;
  client ??= { kind: 'existing', clientId: connected.clientId, redirectUri: connected.redirectUri };
  return connected.tokens.accessToken;
}

tokens.push(await connectWorkspace(person.workspaceId));
for (let i = 1; i < GRANTS; i++) tokens.push(await connectWorkspace());

// One waiting interaction of person 0, for the sess_response cases.
const created = await fetch(`${edgeUrl}/mcp`, {
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${tokens[0]}`,
  },
  body: JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'sess_request', arguments: { interaction: sampleSurface() } },
  }),
});
const createdText = await created.text();
const handle = /"handle":"(hdl_[a-z2-7]+)"/.exec(createdText)?.[1];
if (!handle) throw new Error(`could not create the bench interaction: ${createdText.slice(0, 300)}`);

// The bare createMcpHandler: the same factory and tools, a fixed authority, no edge in front.
const verifier = createAccessTokenVerifier({ database, publicUrl: edgeUrl });
const verified = await verifier.verify(tokens[0]!);
if (!verified.ok) throw new Error('token 0 did not verify');
const principal = verified.principal;
const forms = createFormsRuntime({ database, publicUrl: edgeUrl, secret: SECRET, logger });
const store = createPostgresHandleStore({ db: database.db, secret: SECRET });
const backend = createInProcessBackend(forms, { handles: store });
const binding = {
  origin: backend.origin,
  workspaceId: principal.workspaceId,
  principalId: principal.principalId,
  clientId: principal.clientId,
  grantId: principal.grantId,
  grantGeneration: principal.grantGeneration,
};
const scope: RequestScope = { principal, binding, store: store.bind(binding), deadline: new AbortController().signal };
const bareMcp = createMcpHandler(
  createServerFactory(
    {
      backend,
      receipts: { keys: createRuntimeKeySet(forms), issuer: forms.publicUrl },
      now: () => new Date(),
      maxWaitMs: 45_000,
    },
    () => scope,
  ),
);
const authInfo = { token: 'bench', clientId: principal.clientId, scopes: principal.scopes, expiresAt: principal.expiresAt };
const bare = new Hono();
bare.post('/json', async (c) => {
  const body = (await c.req.json()) as { id?: unknown };
  return c.json({ jsonrpc: '2.0', id: body.id ?? null, result: { ok: true } });
});
bare.all('/mcp', (c) => bareMcp.fetch(c.req.raw, { authInfo }));

// The trivial-tool anchor: one tool that does nothing, the body parsed before the SDK sees it
// (as the edge's body step does), so the difference to sess_ask is the tool's own work.
const trivialMcp = createMcpHandler(() => {
  const server = new McpServer({ name: 'trivial', version: '1' });
  server.registerTool('ping', { description: 'Answers pong.' }, () => ({ content: [{ type: 'text', text: 'pong' }] }));
  return server;
});
bare.post('/trivial', async (c) => {
  const parsedBody: unknown = JSON.parse(await c.req.text());
  return trivialMcp.fetch(c.req.raw, { authInfo, parsedBody });
});
const bareServer = await new Promise<ReturnType<typeof serve>>((resolve) => {
  const s = serve({ fetch: bare.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
});
(bareServer as unknown as { keepAliveTimeout: number }).keepAliveTimeout = 120_000;

/** The server's collections, for run.ts to set beside slow wakes. */
const collections = recordCollections();

const stats = new Hono();
stats.get('/collections', (c) => c.json(collections));
const inspector = new Session();
inspector.connect();
stats.post('/allocations/start', async (c) => {
  await inspector.post('HeapProfiler.enable');
  await inspector.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return c.json({ ok: true });
});
stats.post('/allocations/stop', async (c) => c.json((await inspector.post('HeapProfiler.stopSampling')).profile));
stats.get('/stats', (c) => {
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  return c.json({ rss: memory.rss, heapUsed: memory.heapUsed, inflight, cpuMicros: cpu.user + cpu.system });
});
stats.post('/gc', (c) => {
  (globalThis as { gc?: () => void }).gc?.();
  return c.json({ ok: true });
});
// The interaction events on (as startServer runs: the triggers write them, a worker seals the
// chain) or off (the triggers disabled, no worker): `--only events` compares the two in one run.
const EVENT_TRIGGERS = {
  form_sessions: ['form_sessions_clock', 'form_sessions_created', 'form_sessions_changed'],
  form_revisions: ['form_revisions_published'],
  ask_respondents: ['ask_respondents_started'],
  form_answers: ['form_answers_answered'],
};
// BENCH_EVENTS_SEALER=0: the triggers only, no sealer (where the cost of events on goes).
const SEALER = process.env.BENCH_EVENTS_SEALER !== '0';
let events: EventWorker | undefined = SEALER ? startEventWorker({ database, logger }) : undefined;
stats.post('/events', async (c) => {
  const { on } = (await c.req.json()) as { on: boolean };
  for (const [table, triggers] of Object.entries(EVENT_TRIGGERS)) {
    for (const trigger of triggers) {
      await database.db.execute(sql.raw(`alter table ${table} ${on ? 'enable' : 'disable'} trigger ${trigger}`));
    }
  }
  if (on && SEALER) events ??= startEventWorker({ database, logger });
  else {
    await events?.close();
    events = undefined;
  }
  return c.json({ on });
});
stats.post('/connect', async (c) => {
  const { count } = (await c.req.json()) as { count: number };
  const fresh: string[] = [];
  for (let i = 0; i < count; i++) fresh.push(await connectWorkspace());
  return c.json({ tokens: fresh });
});
const statsServer = await new Promise<ReturnType<typeof serve>>((resolve) => {
  const s = serve({ fetch: stats.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
});

await database.db.execute(sql`select 1`);
console.log(
  JSON.stringify({
    ready: true,
    edge: edgeUrl,
    bare: `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}`,
    stats: `http://127.0.0.1:${(statsServer.address() as AddressInfo).port}`,
    tokens,
    handle,
    backlog: BACKLOG,
    somaxconn: somaxconn(),
  }),
);

/** The kernel's cap on any listen backlog (undefined off Linux). */
function somaxconn(): number | undefined {
  try {
    return Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8').trim());
  } catch {
    return undefined;
  }
}

process.on('SIGTERM', async () => {
  edgeServer.close();
  bareServer.close();
  statsServer.close();
  await forms.close();
  await verifier.close();
  await database.close();
  process.exit(0);
});
