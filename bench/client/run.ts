/**
 * sess_response (wait_ms 0) on a waiting interaction: the HTTP backend (@sess/interactions over
 * @sess/client to the real /v1 app on loopback, with a real API key) against the in-process
 * backend (@sess/forms in the same process and database), measured in the same run, side by side.
 *
 * Both run the very same tool operation (OPERATIONS.sess_response: handle load and binding check
 * from the PostgreSQL handle store, then one backend read) in this process; only the backend
 * differs. The /v1 server is the real apps/server app over the same forms runtime, served on
 * 127.0.0.1 from this same process (its own event loop work shows up in the HTTP figure, as it
 * would for a co-located runtime). Calls are sequential (one at a time): this is latency, not
 * throughput. Rounds alternate the two backends so drift affects both alike.
 *
 * Printed per backend: p50 and p99 over every sample, and min / median / max of the per-round
 * p50s; the in-process backend is the anchor (ratio = HTTP / in-process).
 *
 * Run: node --import tsx bench/client/run.ts [--rounds N] [--calls N] [pglite]
 * PostgreSQL at 127.0.0.1:5432 (or BENCH_DATABASE_URL); a scratch database is created and dropped.
 * `pglite` runs on an embedded database in a temporary directory instead.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { createApiKey } from '@sess/accounts';
import { createLogger, newId, newSecret } from '@sess/core';
import { type Database, memberships, migrate, openDatabase, users, workspaces } from '@sess/db';
import { createFormsRuntime } from '@sess/forms';
import { createInProcessBackend, createPostgresHandleStore, createRuntimeKeySet } from '@sess/hosted';
import {
  createHttpBackend,
  createHttpReceipts,
  type HandleBinding,
  OPERATIONS,
  type ReceiptVerification,
  type SessBackend,
  type SessPrincipal,
  type ToolCall,
} from '@sess/interactions';
import { buildApp, loadConfig } from '@sess/server';
import type { Surface } from '@sess/surface';
import { createScratchDatabase } from '../support/scratch-database.ts';
import { quantile } from '../support/stats.ts';

const argv = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = argv.indexOf(name);
  return i === -1 ? fallback : Number(argv[i + 1]);
};
const ROUNDS = flag('--rounds', 5);
const CALLS = flag('--calls', 400);
const WARMUP = 200;
const USE_PGLITE = argv.includes('pglite');
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECRET = newSecret(32);

const surface: Surface = {
  mode: 'interactive',
  title: 'Approve this commit?',
  source: {
    kind: 'sess_surface',
    components: [
      { type: 'record', label: 'What changed', fields: { 'src/greeting.js': "Greeting now uses the user's first name" } },
      { type: 'field', name: 'message', label: 'Commit message', schema: { type: 'string', maxLength: 200 }, value: 'Greet' },
    ],
  },
  actions: [
    { id: 'approve', label: 'Approve', intent: 'approve' },
    { id: 'stop', label: 'Stop', intent: 'reject' },
  ],
} as Surface;

// --- database -------------------------------------------------------------------------------
let database: Database;
let cleanupDb: () => Promise<void>;
if (USE_PGLITE) {
  const dir = mkdtempSync(join(tmpdir(), 'sess-bench-client-'));
  database = await openDatabase({ dataDir: dir });
  cleanupDb = async () => rmSync(dir, { recursive: true, force: true });
} else {
  const scratch = await createScratchDatabase('sess_bench_client', ADMIN_URL);
  database = await openDatabase({ url: scratch.url, poolMax: 10 });
  cleanupDb = () => scratch.drop();
}
await migrate(database.db);

// --- the real app (its /v1 and JWKS) over one forms runtime, on loopback -------------------------
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
  ...(USE_PGLITE ? {} : { DATABASE_URL: 'postgres://unused' }),
});
const now = () => new Date();
const runtime = createFormsRuntime({ database, publicUrl: origin, secret: SECRET, logger, now });
const closers: Array<() => Promise<void>> = [];
const app = buildApp({ config, database, logger, secret: SECRET, now, forms: runtime, onClose: (c) => closers.push(c) });
appFetch = (request, env) => app.fetch(request, env);

// --- one workspace, its owner, a real API key ------------------------------------------------
const workspaceId = newId('workspace');
await database.db.insert(workspaces).values({ id: workspaceId, name: 'bench', plan: 'pro' });
const userId = newId('user');
await database.db.insert(users).values({ id: userId, email: `${userId}@bench.invalid` });
await database.db.insert(memberships).values({ id: newId('membership'), workspaceId, userId, role: 'owner' });
const { key } = await createApiKey({ ctx: { db: database.db, now }, input: { workspaceId, name: 'bench', createdBy: userId } });

const principal: SessPrincipal = {
  workspaceId,
  principalId: userId,
  clientId: newId('oauthClient'),
  grantId: newId('oauthGrant'),
  grantGeneration: 1,
  scopes: ['sess:interact'],
  credential: async () => key,
};
const binding: HandleBinding = {
  origin,
  workspaceId,
  principalId: principal.principalId,
  clientId: principal.clientId,
  grantId: principal.grantId,
  grantGeneration: 1,
};
const store = createPostgresHandleStore({ db: database.db, secret: SECRET, now, logger });

interface Setup {
  name: string;
  backend: SessBackend;
  receipts: ReceiptVerification;
}
const setups: Setup[] = [
  {
    name: 'in-process',
    backend: createInProcessBackend(runtime, { handles: store }),
    receipts: { keys: createRuntimeKeySet(runtime), issuer: origin },
  },
  {
    name: 'http (/v1)',
    backend: createHttpBackend({ origin }),
    receipts: createHttpReceipts({ origin }),
  },
];

function callOf(setup: Setup): ToolCall {
  const deadline = new AbortController().signal;
  return {
    deps: { backend: setup.backend, receipts: setup.receipts, now, logger, maxWaitMs: 45_000 },
    scope: { principal, binding, store: store.bind(binding, principal), deadline },
    signal: deadline,
  };
}

async function handleFor(setup: Setup): Promise<string> {
  const created = await OPERATIONS.sess_request.run(callOf(setup), { interaction: surface });
  if (!('handle' in created)) throw new Error('sess_request did not return a handle');
  return created.handle;
}

async function time(setup: Setup, handle: string, n: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const call = callOf(setup);
    const started = performance.now();
    const result = await OPERATIONS.sess_response.run(call, { handle, revision: 1, wait_ms: 0 });
    samples.push(performance.now() - started);
    if (!('state' in result) || result.state !== 'waiting') throw new Error(`unexpected state ${JSON.stringify(result)}`);
  }
  return samples;
}

const ms = (n: number) => `${n.toFixed(2)} ms`.padStart(10);
try {
  const handles = await Promise.all(setups.map(handleFor));
  for (const [i, setup] of setups.entries()) await time(setup, handles[i]!, WARMUP);

  const all = setups.map(() => [] as number[]);
  const roundP50 = setups.map(() => [] as number[]);
  const started = Date.now();
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which backend goes first, so drift within a round treats both alike.
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const i of order) {
      const samples = await time(setups[i]!, handles[i]!, CALLS);
      all[i]!.push(...samples);
      roundP50[i]!.push(quantile(samples, 0.5));
    }
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);

  console.log(
    `\nsess_response (wait_ms 0) on a waiting interaction — ${USE_PGLITE ? 'PGlite' : 'PostgreSQL'}, ` +
      `${ROUNDS} rounds × ${CALLS} sequential calls per backend (after ${WARMUP} warm-up), ${seconds} s\n`,
  );
  console.log(
    `${'backend'.padEnd(14)}${'p50'.padStart(10)}${'p99'.padStart(10)}   ${'round p50: min'.padStart(14)}${'median'.padStart(10)}${'max'.padStart(10)}`,
  );
  for (const [i, setup] of setups.entries()) {
    const rounds = roundP50[i]!;
    console.log(
      `${setup.name.padEnd(14)}${ms(quantile(all[i]!, 0.5))}${ms(quantile(all[i]!, 0.99))}   ` +
        `${ms(Math.min(...rounds)).padStart(14)}${ms(quantile(rounds, 0.5))}${ms(Math.max(...rounds))}`,
    );
  }
  const ratio = (q: number) => (quantile(all[1]!, q) / quantile(all[0]!, q)).toFixed(2);
  console.log(`\nhttp / in-process: p50 ×${ratio(0.5)}, p99 ×${ratio(0.99)}\n`);
} finally {
  if ('closeAllConnections' in server) (server as unknown as { closeAllConnections(): void }).closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await Promise.allSettled(closers.map((close) => close()));
  await runtime.close();
  await database.close();
  await cleanupDb();
}
