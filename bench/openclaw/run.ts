/**
 * One read of a verified answer — sess_response (wait_ms 0) on an answered interaction — through a
 * real OpenClaw Gateway's `POST /tools/invoke` beside the same read through `/mcp` of the same
 * local server, in the same run, side by side.
 *
 * OpenClaw: this process → HTTP → the Gateway (2026.9.6 on Node 24, from openclaw-host/; token
 *   auth, tool policy) → the plugin's sess_response (the @sess.si/openclaw tarball as packed,
 *   installed with the README's line) → its file handle store → @sess/client's /v1 read → the
 *   receipt verified against the app's key set.
 * /mcp: this process → HTTP → the server's edge (OAuth token verification, guard, SDK) → the
 *   PostgreSQL or PGlite handle store → the forms runtime in process (receipt verified there).
 * The server is the real app (apps/server's buildApp) on 127.0.0.1, served from this process; the
 * token is a real one from the OAuth flow, the API key a real one of the same workspace; each side's
 * interaction is answered once on the real answer page. Calls are sequential (latency, not
 * throughput); rounds alternate which side goes first.
 *
 * Run: node --import tsx bench/openclaw/run.ts [--rounds N] [--calls N] [pglite]
 * Needs openclaw-host installed (`npm ci --prefix openclaw-host --ignore-scripts && npm rebuild
 * --prefix openclaw-host`). PostgreSQL at 127.0.0.1:5432 (or BENCH_DATABASE_URL); a scratch
 * database is created and dropped. `pglite` runs on an embedded database instead.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createApiKey } from '@sess/accounts';
import { createLogger, newSecret } from '@sess/core';
import { type Database, migrate, openDatabase, workspaces } from '@sess/db';
import { buildApp, loadConfig } from '@sess/server';
import { answerOnPage, createTestUser, sampleSurface, signInAndAuthorize } from '@sess/testkit';
import { eq } from 'drizzle-orm';
import {
  buildAndPack,
  createOpenclawHome,
  installArgs,
  openclawInstalled,
  startGateway,
} from '../../apps/openclaw/test/support/openclaw-host.ts';
import { createScratchDatabase } from '../support/scratch-database.ts';
import { quantile } from '../support/stats.ts';

if (!openclawInstalled) {
  console.error(
    'openclaw-host is not installed: npm ci --prefix openclaw-host --ignore-scripts && npm rebuild --prefix openclaw-host',
  );
  process.exit(1);
}

const argv = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = argv.indexOf(name);
  return i === -1 ? fallback : Number(argv[i + 1]);
};
const ROUNDS = flag('--rounds', 5);
const CALLS = flag('--calls', 200);
const WARMUP = 50;
const USE_PGLITE = argv.includes('pglite');
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECRET = newSecret(32);
const GATEWAY_TOKEN = newSecret(24);
const work = mkdtempSync(join(tmpdir(), 'sess-bench-openclaw-'));

// --- database -------------------------------------------------------------------------------
let database: Database;
let cleanupDb: () => Promise<void>;
if (USE_PGLITE) {
  database = await openDatabase({ dataDir: join(work, 'pglite') });
  cleanupDb = async () => {};
} else {
  const scratch = await createScratchDatabase('sess_bench_openclaw', ADMIN_URL);
  database = await openDatabase({ url: scratch.url, poolMax: 10 });
  cleanupDb = () => scratch.drop();
}
await migrate(database.db);

// --- the real app on loopback: /mcp, /v1, the OAuth server, the answer page ---------------------
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
  SESS_MCP_RATE_PER_IP: '0',
  SESS_MCP_RATE_PER_PRINCIPAL: '0',
  ...(USE_PGLITE ? {} : { DATABASE_URL: 'postgres://unused' }),
});
const closers: Array<() => Promise<void>> = [];
const app = buildApp({ config, database, logger, secret: SECRET, now: () => new Date(), onClose: (c) => closers.push(c) });
appFetch = (request, env) => app.fetch(request, env);

const person = await createTestUser(database.db);
await database.db.update(workspaces).set({ plan: 'pro' }).where(eq(workspaces.id, person.workspaceId));
const { tokens } = await signInAndAuthorize({ baseUrl: origin, user: person, workspaceId: person.workspaceId });
const { key } = await createApiKey({
  ctx: { db: database.db, now: () => new Date() },
  input: { workspaceId: person.workspaceId, name: 'bench', createdBy: person.userId },
});

// --- OpenClaw: the packed plugin installed into an empty home, the Gateway headless -------------
const setupStarted = Date.now();
const packed = await buildAndPack();
const home = await createOpenclawHome();
const install = await home.run(installArgs(packed.tarball));
if (install.code !== 0) throw new Error(`install failed:\n${install.stdout}\n${install.stderr}`);
await home.writeEnvFile({ SESS_API_KEY: key, SESS_API_ORIGIN: origin });
const gateway = await startGateway(home, GATEWAY_TOKEN);
const setupSeconds = ((Date.now() - setupStarted) / 1000).toFixed(0);

const mcpClient = new Client({ name: 'bench-mcp', version: '1' }, { versionNegotiation: { mode: 'auto' } });
await mcpClient.connect(
  new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${tokens.accessToken}` } },
  }),
);

type Interaction = { handle: string; state: string; humanUrl?: string; response?: { verified: boolean } };

interface Side {
  name: string;
  call(tool: string, args: Record<string, unknown>): Promise<Interaction>;
  handle?: string;
}

const sides: Side[] = [
  {
    name: 'openclaw',
    async call(tool, args) {
      const { status, body } = await gateway.invoke(tool, args);
      const interaction = (body.result?.details as { interaction?: Interaction } | undefined)?.interaction;
      if (status !== 200 || !interaction) throw new Error(`openclaw ${tool}: ${status} ${JSON.stringify(body)}`);
      return interaction;
    },
  },
  {
    name: '/mcp',
    async call(tool, args) {
      const result = await mcpClient.callTool({ name: tool === 'sess_ask' ? 'sess_request' : tool, arguments: args });
      const interaction = (result.structuredContent as { interaction?: Interaction } | undefined)?.interaction;
      if (result.isError || !interaction) throw new Error(`/mcp ${tool}: ${JSON.stringify(result.structuredContent)}`);
      return interaction;
    },
  },
];

async function time(side: Side, n: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const read = await side.call('sess_response', { handle: side.handle, revision: 1, wait_ms: 0 });
    samples.push(performance.now() - started);
    if (read.state !== 'answered' || read.response?.verified !== true) throw new Error(`${side.name}: not a verified answer`);
  }
  return samples;
}

const ms = (n: number) => `${n.toFixed(2)} ms`.padStart(10);
try {
  for (const side of sides) {
    const created = await side.call('sess_ask', { interaction: sampleSurface() });
    side.handle = created.handle;
    const status = await answerOnPage(created.humanUrl!, { message: 'Ship it' }, 'approve');
    if (status !== 303) throw new Error(`${side.name}: the answer page said ${status}`);
  }
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
    `\nsess_response (wait_ms 0) on an answered interaction, verified — ${USE_PGLITE ? 'PGlite' : 'PostgreSQL'}, ` +
      `${ROUNDS} rounds × ${CALLS} sequential calls per side (after ${WARMUP} warm-up), ${seconds} s ` +
      `(OpenClaw pack, install and Gateway start ${setupSeconds} s)\n`,
  );
  console.log(
    `${''.padEnd(13)}${'all samples'.padStart(10)}   ${'per round: min'.padStart(14)}${'median'.padStart(10)}${'max'.padStart(10)}`,
  );
  for (const [i, side] of sides.entries()) {
    for (const [label, q, rounds] of [
      ['p50', 0.5, perRound[i]!.p50],
      ['p99', 0.99, perRound[i]!.p99],
    ] as const) {
      console.log(
        `${`${side.name} ${label}`.padEnd(13)}${ms(quantile(all[i]!, q))}   ` +
          `${ms(Math.min(...rounds)).padStart(14)}${ms(quantile(rounds, 0.5))}${ms(Math.max(...rounds))}`,
      );
    }
  }
  const ratio = (q: number) => (quantile(all[0]!, q) / quantile(all[1]!, q)).toFixed(2);
  console.log(`\nopenclaw / /mcp: p50 ×${ratio(0.5)}, p99 ×${ratio(0.99)}\n`);
} finally {
  await gateway.stop();
  await Promise.allSettled([mcpClient.close(), home.close(), packed.close()]);
  if ('closeAllConnections' in server) (server as unknown as { closeAllConnections(): void }).closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await Promise.allSettled(closers.map((close) => close()));
  await database.close();
  await cleanupDb();
  rmSync(work, { recursive: true, force: true });
}
