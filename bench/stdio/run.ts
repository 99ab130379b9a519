/**
 * sess_response (wait_ms 0) on a waiting interaction over stdio — `sess-mcp` spawned as a host
 * spawns it, driven by the MCP SDK client's stdio transport — beside the same call on `/mcp` of the
 * same local server, in the same run, side by side.
 *
 * stdio: this process → pipe → sess-mcp (the built package's bin, apps/stdio/dist/sess-mcp.js, in
 *   its own process) → its file handle store → the HTTP backend (@sess/client) → the server's /v1 read.
 * /mcp:  this process → HTTP → the server's edge (Host/Origin preflight, OAuth token verification,
 *   bounded body, guard, SDK) → the PostgreSQL handle store → the forms runtime in process.
 * The server is the real app (apps/server's buildApp) on 127.0.0.1, served from this process; the
 * token is a real one from the OAuth flow, the API key a real one of the same workspace. Calls are
 * sequential (latency, not throughput) and each side reuses one connected SDK client. Rounds
 * alternate which side goes first, so drift treats both alike.
 *
 * Printed per side: p50 and p99 over every sample, and min / median / max of each over the rounds
 * (a round's own p50 and p99); ratio = stdio / /mcp.
 *
 * Run: node --import tsx bench/stdio/run.ts [--rounds N] [--calls N] [pglite]
 * PostgreSQL at 127.0.0.1:5432 (or BENCH_DATABASE_URL); a scratch database is created and dropped.
 * `pglite` runs on an embedded database in a temporary directory instead.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createApiKey } from '@sess/accounts';
import { createLogger, newSecret } from '@sess/core';
import { type Database, migrate, openDatabase, workspaces } from '@sess/db';
import { buildApp, loadConfig } from '@sess/server';
import { createTestUser, sampleSurface, signInAndAuthorize } from '@sess/testkit';
import { eq } from 'drizzle-orm';
import { createScratchDatabase } from '../support/scratch-database.ts';
import { quantile } from '../support/stats.ts';

const argv = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = argv.indexOf(name);
  return i === -1 ? fallback : Number(argv[i + 1]);
};
const ROUNDS = flag('--rounds', 5);
const CALLS = flag('--calls', 300);
const WARMUP = 100;
const USE_PGLITE = argv.includes('pglite');
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECRET = newSecret(32);
const STDIO_PACKAGE = fileURLToPath(new URL('../../apps/stdio/', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'sess-bench-stdio-'));

// --- the package as published: its bin is what a host spawns -----------------------------------
// Built into apps/stdio/dist (as `npm run build` does), where the bundle's few dependencies
// resolve from the repository's node_modules: the published code, without an install.
const buildStarted = Date.now();
execFileSync(process.execPath, [join(STDIO_PACKAGE, 'scripts', 'build.mjs')], { stdio: 'ignore' });
const buildSeconds = ((Date.now() - buildStarted) / 1000).toFixed(1);

// --- database -------------------------------------------------------------------------------
let database: Database;
let cleanupDb: () => Promise<void>;
if (USE_PGLITE) {
  database = await openDatabase({ dataDir: join(work, 'pglite') });
  cleanupDb = async () => {};
} else {
  const scratch = await createScratchDatabase('sess_bench_stdio', ADMIN_URL);
  database = await openDatabase({ url: scratch.url, poolMax: 10 });
  cleanupDb = () => scratch.drop();
}
await migrate(database.db);

// --- the real app on loopback: /mcp, /v1, the OAuth server --------------------------------------
const logger = createLogger({ level: 'silent' });
let appFetch: (request: Request, env: unknown) => Response | Promise<Response> = () => new Response(null, { status: 503 });
const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
  const s = serve({ fetch: (request, env) => appFetch(request, env), port: 0, hostname: '127.0.0.1' }, () => resolve(s));
});
(server as unknown as { keepAliveTimeout: number }).keepAliveTimeout = 120_000;
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const config = loadConfig({
  NODE_ENV: 'production',
  // A production server over http needs a push contact address (notifications stay on; no device, nothing sent).
  SESS_VAPID_SUBJECT: 'mailto:bench@sess.dev',
  PORT: '0',
  PUBLIC_URL: origin,
  LOG_LEVEL: 'silent',
  SESS_SECRET: SECRET,
  SESS_SIGNUP: 'open',
  // Latency, not limits: a few thousand calls from one principal in a minute.
  SESS_MCP_RATE_PER_IP: '0',
  SESS_MCP_RATE_PER_PRINCIPAL: '0',
  ...(USE_PGLITE ? {} : { DATABASE_URL: 'postgres://unused' }),
});
const closers: Array<() => Promise<void>> = [];
const app = buildApp({ config, database, logger, secret: SECRET, now: () => new Date(), onClose: (c) => closers.push(c) });
appFetch = (request, env) => app.fetch(request, env);

// --- one person: an OAuth grant for /mcp and an API key for sess-mcp, one workspace ----------------
const person = await createTestUser(database.db);
await database.db.update(workspaces).set({ plan: 'pro' }).where(eq(workspaces.id, person.workspaceId));
const { tokens } = await signInAndAuthorize({ baseUrl: origin, user: person, workspaceId: person.workspaceId });
const { key } = await createApiKey({
  ctx: { db: database.db, now: () => new Date() },
  input: { workspaceId: person.workspaceId, name: 'bench', createdBy: person.userId },
});

interface Side {
  name: string;
  client: Client;
  handle?: string;
}

const stdioClient = new Client({ name: 'bench-stdio', version: '1' });
await stdioClient.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [join(STDIO_PACKAGE, 'dist', 'sess-mcp.js')],
    env: {
      PATH: process.env.PATH ?? '',
      SESS_API_KEY: key,
      SESS_API_ORIGIN: origin,
      SESS_MCP_STATE_DIR: join(work, 'state'),
    },
    stderr: 'ignore',
  }),
);
const mcpClient = new Client({ name: 'bench-mcp', version: '1' }, { versionNegotiation: { mode: 'auto' } });
await mcpClient.connect(
  new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${tokens.accessToken}` } },
  }),
);
const sides: Side[] = [
  { name: 'stdio', client: stdioClient },
  { name: '/mcp', client: mcpClient },
];

async function call(side: Side, name: string, args: Record<string, unknown>) {
  const result = await side.client.callTool({ name, arguments: args });
  const interaction = (result.structuredContent as { interaction?: { handle: string; state: string } } | undefined)?.interaction;
  if (result.isError || !interaction) throw new Error(`${side.name} ${name}: ${JSON.stringify(result.structuredContent)}`);
  return interaction;
}

async function time(side: Side, n: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const result = await call(side, 'sess_response', { handle: side.handle, revision: 1, wait_ms: 0 });
    samples.push(performance.now() - started);
    if (result.state !== 'waiting') throw new Error(`${side.name}: unexpected state ${result.state}`);
  }
  return samples;
}

const ms = (n: number) => `${n.toFixed(2)} ms`.padStart(10);
try {
  for (const side of sides) side.handle = (await call(side, 'sess_request', { interaction: sampleSurface() })).handle;
  for (const side of sides) await time(side, WARMUP);

  const all = sides.map(() => [] as number[]);
  const perRound = sides.map(() => ({ p50: [] as number[], p99: [] as number[] }));
  const started = Date.now();
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const i of order) {
      const samples = await time(sides[i]!, CALLS);
      all[i]!.push(...samples);
      perRound[i]!.p50.push(quantile(samples, 0.5));
      perRound[i]!.p99.push(quantile(samples, 0.99));
    }
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);

  console.log(
    `\nsess_response (wait_ms 0) on a waiting interaction — ${USE_PGLITE ? 'PGlite' : 'PostgreSQL'}, ` +
      `${ROUNDS} rounds × ${CALLS} sequential calls per side (after ${WARMUP} warm-up), ${seconds} s ` +
      `(package build ${buildSeconds} s)\n`,
  );
  console.log(
    `${''.padEnd(10)}${'all samples'.padStart(10)}   ${'per round: min'.padStart(14)}${'median'.padStart(10)}${'max'.padStart(10)}`,
  );
  for (const [i, side] of sides.entries()) {
    for (const [label, q, rounds] of [
      ['p50', 0.5, perRound[i]!.p50],
      ['p99', 0.99, perRound[i]!.p99],
    ] as const) {
      console.log(
        `${`${side.name} ${label}`.padEnd(10)}${ms(quantile(all[i]!, q))}   ` +
          `${ms(Math.min(...rounds)).padStart(14)}${ms(quantile(rounds, 0.5))}${ms(Math.max(...rounds))}`,
      );
    }
  }
  const ratio = (q: number) => (quantile(all[0]!, q) / quantile(all[1]!, q)).toFixed(2);
  console.log(`\nstdio / /mcp: p50 ×${ratio(0.5)}, p99 ×${ratio(0.99)}\n`);
} finally {
  await Promise.allSettled([stdioClient.close(), mcpClient.close()]);
  if ('closeAllConnections' in server) (server as unknown as { closeAllConnections(): void }).closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await Promise.allSettled(closers.map((close) => close()));
  await database.close();
  await cleanupDb();
  rmSync(work, { recursive: true, force: true });
}
