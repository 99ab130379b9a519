/**
 * Heap held per parked `sess_response` wait on the whole edge (issue 17: target <= 20 KiB).
 *
 * Starts the real app (buildApp on a scratch PostgreSQL database, created and dropped here), signs
 * one person in through the real OAuth flow, creates one waiting interaction, then parks N
 * sess_response waits (wait_ms 45 000) over raw HTTP connections opened from a process of their
 * own, so the heap (after a full gc) and the RSS measured here are the server's alone.
 * Prints heap bytes per parked wait and RSS, then closes the sockets (which releases the waits) and
 * checks the heap comes back.
 *
 * Run it as production runs the server, bundled (under tsx every closure of ours carries a
 * property store of its own, from esbuild's keepNames: about 3.5 KiB more per wait):
 *   node scripts/build.mjs --entry bench/mcp/parked-memory.ts --outfile dist/bench/parked-memory.mjs
 *   node --expose-gc dist/bench/parked-memory.mjs [--waits 2000] [--snapshot]
 * (`node --expose-gc --import tsx bench/mcp/parked-memory.ts` runs the source as it is.)
 * PostgreSQL at 127.0.0.1:5432 (or BENCH_DATABASE_URL).
 */
import { spawn } from 'node:child_process';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeHeapSnapshot } from 'node:v8';
import { createAdaptorServer } from '@hono/node-server';
import { createLogger, newSecret } from '@sess/core';
import { migrate, openDatabase, workspaces } from '@sess/db';
import { buildApp, loadConfig } from '@sess/server';
import { createTestUser, sampleSurface, signInAndAuthorize } from '@sess/testkit';
import { eq } from 'drizzle-orm';
import { createScratchDatabase } from '../support/scratch-database.ts';

const argv = process.argv.slice(2);
const WAITS = Number(argv[argv.indexOf('--waits') + 1] || 2000) || 2000;
const SNAPSHOT = argv.includes('--snapshot');
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

/** Several full collections: weak maps and finalizers settle over more than one. */
async function settledHeap(): Promise<number> {
  for (let i = 0; i < 4; i++) {
    gc!();
    await new Promise((r) => setImmediate(r));
  }
  return process.memoryUsage().heapUsed;
}

const scratch = await createScratchDatabase('sess_bench_parked', ADMIN_URL);
const database = await openDatabase({ url: scratch.url, poolMax: 10 });

const closers: Array<() => Promise<void>> = [];
let inflight = 0;
let appFetch: (request: Request, env: unknown) => Response | Promise<Response> = () => new Response('starting', { status: 503 });
const server = createAdaptorServer({
  fetch: async (request, env) => {
    const isMcp = request.url.endsWith('/mcp');
    if (isMcp) inflight++;
    try {
      return await appFetch(request, env);
    } finally {
      if (isMcp) inflight--;
    }
  },
}) as Server; // plain HTTP/1.1 (no serverOptions)
await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, resolve));
const port = (server.address() as AddressInfo).port;
const edgeUrl = `http://127.0.0.1:${port}`;

try {
  await migrate(database.db);
  const secret = newSecret(32);
  const config = loadConfig({
    NODE_ENV: 'production',
    PORT: '0',
    PUBLIC_URL: edgeUrl,
    LOG_LEVEL: 'warn',
    SESS_SECRET: secret,
    SESS_SIGNUP: 'open',
    SESS_NOTIFICATIONS: 'off',
    DATABASE_URL: scratch.url,
    SESS_MCP_RATE_PER_IP: '100000000',
    SESS_MCP_RATE_PER_PRINCIPAL: '100000000',
  });
  const app = buildApp({
    config,
    database,
    logger: createLogger({ level: 'warn' }),
    secret,
    now: () => new Date(),
    onClose: (close) => closers.push(close),
  });
  appFetch = (request, env) => app.fetch(request, env);

  const person = await createTestUser(database.db);
  await database.db.update(workspaces).set({ plan: 'enterprise' }).where(eq(workspaces.id, person.workspaceId));
  const { tokens } = await signInAndAuthorize({ baseUrl: edgeUrl, user: person, workspaceId: person.workspaceId });

  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const rawRequest = (name: string, args: Record<string, unknown>) => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: meta } });
    return [
      'POST /mcp HTTP/1.1',
      `Host: 127.0.0.1:${port}`,
      'Content-Type: application/json',
      'Accept: application/json, text/event-stream',
      'MCP-Protocol-Version: 2026-07-28',
      'MCP-Method: tools/call',
      `MCP-Name: ${name}`,
      `Authorization: Bearer ${tokens.accessToken}`,
      `Content-Length: ${Buffer.byteLength(body)}`,
      '',
      body,
    ].join('\r\n');
  };
  const created = await fetch(`${edgeUrl}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${tokens.accessToken}`,
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
  if (!handle) throw new Error(`could not create the interaction: ${createdText.slice(0, 300)}`);
  const waitRequest = rawRequest('sess_response', { handle, revision: 1, wait_ms: 45_000 });

  // Warm every path once (a wait that returns at once), so the baseline holds the lazily built parts.
  const warm = await fetch(`${edgeUrl}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'sess_response',
      authorization: `Bearer ${tokens.accessToken}`,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'sess_response', arguments: { handle, revision: 1, wait_ms: 0 }, _meta: meta },
    }),
  });
  const warmText = await warm.text();
  if (!warmText.includes('"state":"waiting"')) throw new Error(`warm-up wait failed: ${warmText.slice(0, 300)}`);

  // The clients: a process of their own with N raw sockets, each sending one wait, so this
  // process's heap and RSS are the server's alone (and each process has its own file limit).
  const clientProcess = spawn(
    process.execPath,
    [
      '-e',
      `
    const net = require('node:net');
    const { waits, port, request } = JSON.parse(process.env.BENCH_CLIENTS);
    const sockets = [];
    let errors = 0, early = 0;
    process.on('message', (m) => {
      if (m === 'open') {
        for (let i = 0; i < waits; i++) {
          const socket = net.connect({ port, host: '127.0.0.1' });
          socket.on('error', () => errors++);
          socket.on('data', () => early++);
          socket.write(request);
          sockets.push(socket);
        }
        process.send({ errors, early });
      }
      if (m === 'report') process.send({ errors, early });
      if (m === 'close') { for (const s of sockets) s.destroy(); process.send({ errors, early, closed: true }); }
      if (m === 'exit') process.exit(0);
    });
    `,
    ],
    {
      env: { ...process.env, BENCH_CLIENTS: JSON.stringify({ waits: WAITS, port, request: waitRequest }) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const ask = (message: string) =>
    new Promise<{ errors: number; early: number }>((resolve) => {
      clientProcess.once('message', (reply) => resolve(reply as { errors: number; early: number }));
      clientProcess.send(message);
    });

  const baseHeap = await settledHeap();
  const baseRss = process.memoryUsage().rss;
  if (SNAPSHOT) console.log(`heap snapshot (before): ${writeHeapSnapshot()}`);
  await ask('open');
  const parkDeadline = performance.now() + 30_000;
  while (inflight < WAITS && performance.now() < parkDeadline) await new Promise((r) => setTimeout(r, 100));
  await new Promise((r) => setTimeout(r, 1000));
  const parkedCount = inflight;
  const parkedHeap = await settledHeap();
  const parkedMemory = process.memoryUsage();
  const parkedRss = parkedMemory.rss;
  const clients = await ask('report');
  if (SNAPSHOT) console.log(`heap snapshot (parked): ${writeHeapSnapshot()}`);
  await ask('close');
  const releaseDeadline = performance.now() + 10_000;
  while (inflight > 0 && performance.now() < releaseDeadline) await new Promise((r) => setTimeout(r, 100));
  const releasedHeap = await settledHeap();
  if (SNAPSHOT) console.log(`heap snapshot (released): ${writeHeapSnapshot()}`);
  clientProcess.send('exit');
  // Measured again a little later: anything still held now is kept, not merely not yet collected.
  await new Promise((r) => setTimeout(r, 5000));
  const releasedLaterHeap = await settledHeap();

  const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  console.log(
    JSON.stringify({
      waits: WAITS,
      parked: parkedCount,
      clientErrors: clients.errors,
      answeredEarly: clients.early,
      heapPerWaitBytes: Math.round((parkedHeap - baseHeap) / parkedCount),
      // Node 20 tags every promise with two async ids once anything turned promise hooks on.
      promiseHooksOn: Object.getOwnPropertySymbols(new Promise(() => {})).length > 0,
      baseHeap: mib(baseHeap),
      parkedHeap: mib(parkedHeap),
      releasedHeap: mib(releasedHeap),
      releasedHeap5sLater: mib(releasedLaterHeap),
      baseRss: mib(baseRss),
      parkedRss: mib(parkedRss),
      // Of the RSS: the V8 heap as committed (used or not), and memory outside it (buffers).
      parkedHeapCommitted: mib(parkedMemory.heapTotal),
      parkedExternal: mib(parkedMemory.external),
      rssPerWait: kib((parkedRss - baseRss) / parkedCount),
      stillInFlight: inflight,
    }),
  );
  if (parkedCount < WAITS) process.exitCode = 1;
} finally {
  server.close();
  server.closeAllConnections();
  for (const close of closers.reverse()) await close().catch(() => {});
  await database.close();
  await scratch.drop();
}
