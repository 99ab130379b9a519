/**
 * One workspace against ten (issue 33): the real server (CLI `serve`, bundled as production runs
 * it) on a scratch PostgreSQL database, pool 10.
 *
 * 1. Completes/s: `POST /v1/sessions/:id/complete` by 32 keep-alive clients in a closed loop, over
 *    600 answered sessions of ONE workspace and 600 spread across TEN — the same load, in the same
 *    run, in slices of 100 that take turns, for several rounds. Each complete changes its
 *    workspace's open-session counter. Target: one workspace ≥ 0.8 × ten.
 * 2. Create and answer latency at a normal load: `POST /v1/sessions` and the person's answer
 *    (`POST /s/<token>`, the form as the page serves it), each at a fixed rate across the ten
 *    workspaces (an open loop: latency from each call's scheduled start), beside the anchor of a
 *    bare one-row INSERT commit on the same PostgreSQL at the same rate.
 *
 * Run: node --import tsx bench/tenants/run.ts [--rounds N] [--rate N] [--seconds N] [--only completes|latency]
 * PostgreSQL at 127.0.0.1:5432 (or BENCH_DATABASE_URL); a scratch database is created and dropped.
 * Sessions are made and answered in this process (not measured), through @sess/forms on the same
 * database, with the server's secret.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createApiKey } from '@sess/accounts';
import { createLogger, newId, newSecret } from '@sess/core';
import { type Database, migrate, openDatabase, workspaces } from '@sess/db';
import { createFormsRuntime, createSession, type FormsRuntime, submitLinkAnswer } from '@sess/forms';
import { sampleSurface } from '@sess/surface/test-fixtures';
import { findForm, freePort } from '@sess/testkit';
import postgres from 'postgres';
import { closedLoop, type LoopFigures, openLoop } from '../support/load.ts';
import { createScratchDatabase } from '../support/scratch-database.ts';
import { serverEntry } from '../support/server-entry.ts';
import { pool, quantile } from '../support/stats.ts';

const argv = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const at = argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(argv[at + 1]);
};
const ROUNDS = flag('rounds', 3);
// --only completes | latency: one of the two figures.
const ONLY = argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : undefined;
const RATE = flag('rate', 50);
const SECONDS = flag('seconds', 6);
const POOL = 10;
const TENANTS = 10;
const COMPLETES = 600;
/** Each shape's completes of a round, measured in this many slices taking turns. */
const SLICES = 6;
const SLICE = COMPLETES / SLICES;
const CLIENTS = 32;
const SECRET = newSecret(32);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const interaction = sampleSurface();

/** Answers that were not the success expected, by call and status (0: no response), printed at the end. */
const unexpected = new Map<string, number>();
function expectStatus(what: string, status: number, wanted: number): boolean {
  if (status === wanted) return true;
  const name = `${what} ${status}`;
  unexpected.set(name, (unexpected.get(name) ?? 0) + 1);
  return false;
}

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

/** One request on a keep-alive socket: its status and body (status 0, never a rejection, when the socket failed). */
function request(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve) => {
    const req = http.request(
      url,
      { method, agent: keepAlive, headers: { ...headers, ...(body ? { 'content-length': Buffer.byteLength(body) } : {}) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ status: 0, text: error.code ?? error.message }));
    req.end(body);
  });
}

interface Tenant {
  workspaceId: string;
  key: string;
}

interface Answered {
  tenant: Tenant;
  sessionId: string;
  eventId: string;
}

async function spawnServer(databaseUrl: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...serverEntry('apps/server/src/cli.ts', 'dist/bench/sess.mjs'), 'serve'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      SESS_SECRET: SECRET,
      DATABASE_URL: databaseUrl,
      DB_POOL_MAX: String(POOL),
      SESS_VAPID_SUBJECT: 'mailto:bench@sess.dev',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let err = '';
    child.stderr?.on('data', (d) => {
      err += d;
      if (/listening on /.test(err)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
  });
  return child;
}

/** `n` sessions made and answered in this process, spread round-robin over `tenants`. */
async function answeredSessions(runtime: FormsRuntime, tenants: Tenant[], n: number): Promise<Answered[]> {
  return pool(Array.from({ length: n }), 16, async (_, i) => {
    const tenant = tenants[i % tenants.length]!;
    const created = await createSession({
      ctx: { runtime, workspaceId: tenant.workspaceId, plan: 'pro' },
      input: { interaction, expires_in: 3600 },
    });
    const token = created.humanUrl.split('/s/')[1]!;
    const answered = await submitLinkAnswer(runtime, token, { revision: 1, actionId: 'approve', submitted: { message: 'ok' } });
    if (!answered.ok) throw new Error('answer refused');
    return { tenant, sessionId: created.sessionId, eventId: answered.eventId };
  });
}

async function completes(base: string, sessions: Answered[]): Promise<LoopFigures> {
  return closedLoop(CLIENTS, sessions.length, async (i) => {
    const s = sessions[i]!;
    const { status } = await request(
      new URL(`/v1/sessions/${s.sessionId}/complete`, base),
      'POST',
      {
        authorization: `Bearer ${s.tenant.key}`,
        'content-type': 'application/json',
        'idempotency-key': newId('session'),
        'if-match': '"1"',
      },
      JSON.stringify({ response_event_id: s.eventId }),
    );
    return expectStatus('complete', status, 200);
  });
}

const rate = (f: LoopFigures) => (f.calls - f.errors) / f.seconds;
/** The slices of one shape as one run: their calls, errors, time and latencies summed. */
const merged = (parts: LoopFigures[]): LoopFigures => ({
  calls: parts.reduce((n, p) => n + p.calls, 0),
  errors: parts.reduce((n, p) => n + p.errors, 0),
  seconds: parts.reduce((n, p) => n + p.seconds, 0),
  latencies: parts.flatMap((p) => p.latencies),
});
const spread = (values: number[], digits = 0) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `min ${sorted[0]!.toFixed(digits)} / median ${quantile(sorted, 0.5).toFixed(digits)} / max ${sorted.at(-1)!.toFixed(digits)}`;
};
const ms = (n: number) => n.toFixed(1);

async function main(): Promise<void> {
  const scratch = await createScratchDatabase('sess_bench_tenants', process.env.BENCH_DATABASE_URL);
  let database: Database | undefined;
  let child: ChildProcess | undefined;
  let runtime: FormsRuntime | undefined;
  try {
    database = await openDatabase({ url: scratch.url, poolMax: 8 });
    await migrate(database.db);
    const tenants: Tenant[] = [];
    for (let i = 0; i < TENANTS; i++) {
      const workspaceId = newId('workspace');
      await database.db.insert(workspaces).values({ id: workspaceId, name: `bench ${i}`, plan: 'pro' });
      const { key } = await createApiKey({
        ctx: { db: database.db, now: () => new Date() },
        input: { workspaceId, name: 'bench' },
      });
      tenants.push({ workspaceId, key });
    }
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    child = await spawnServer(scratch.url, port);
    runtime = createFormsRuntime({ database, publicUrl: base, secret: SECRET, logger: createLogger({ level: 'warn' }) });

    console.log(
      `Sess tenants bench — node ${process.version}, ${cpus().length} CPUs, pool ${POOL}, load average ${loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}`,
    );
    // Warm-up: JIT, prepared statements on every pool connection, both shapes.
    await completes(base, await answeredSessions(runtime, tenants, 300));

    if (ONLY !== 'latency') await measureCompletes(base, runtime, tenants);
    if (ONLY !== 'completes') await measureLatency(base, runtime, tenants, scratch.url);
  } finally {
    await runtime?.close();
    if (child) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child!.once('exit', resolve));
    }
    keepAlive.destroy();
    await database?.close();
    await scratch.drop();
  }
}

/** Completes/s of one workspace against ten, `ROUNDS` rounds of alternating slices. */
async function measureCompletes(base: string, runtime: FormsRuntime, tenants: Tenant[]): Promise<void> {
  const one: number[] = [];
  const ten: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const oneSessions = await answeredSessions(runtime, tenants.slice(0, 1), COMPLETES);
    const tenSessions = await answeredSessions(runtime, tenants, COMPLETES);
    // No socket left idle through the preparation (the server may be closing it).
    keepAlive.destroy();
    // Measured in slices that take turns, so a burst of load from elsewhere on the machine
    // falls on both shapes alike rather than on whichever ran at that moment.
    const figures = { one: [] as LoopFigures[], ten: [] as LoopFigures[] };
    for (let slice = 0; slice < SLICES; slice++) {
      const part = (sessions: Answered[]) => sessions.slice(slice * SLICE, (slice + 1) * SLICE);
      const order = (round + slice) % 2 === 0 ? (['one', 'ten'] as const) : (['ten', 'one'] as const);
      for (const shape of order) figures[shape].push(await completes(base, part(shape === 'one' ? oneSessions : tenSessions)));
    }
    const [a, b] = [merged(figures.one), merged(figures.ten)];
    one.push(rate(a));
    ten.push(rate(b));
    ratios.push(rate(a) / rate(b));
    console.log(
      `  round ${round + 1}: one workspace ${rate(a).toFixed(0)}/s (p50 ${ms(quantile(a.latencies, 0.5))} ms, p99 ${ms(quantile(a.latencies, 0.99))} ms${a.errors ? `, ${a.errors} not 200` : ''}),` +
        ` ten ${rate(b).toFixed(0)}/s (p50 ${ms(quantile(b.latencies, 0.5))} ms, p99 ${ms(quantile(b.latencies, 0.99))} ms${b.errors ? `, ${b.errors} not 200` : ''}), ratio ${(rate(a) / rate(b)).toFixed(2)}`,
    );
  }
  console.log(
    `completes/s, ${CLIENTS} clients, ${COMPLETES} per shape and round in ${SLICES} alternating slices, ${ROUNDS} rounds:`,
  );
  console.log(`  one workspace: ${spread(one)}`);
  console.log(`  ten workspaces: ${spread(ten)}`);
  console.log(`  one / ten: ${spread(ratios, 2)} (target ≥ 0.80)`);
}

/** Create and answer latency at `RATE`/s across the workspaces, beside a bare commit at the same rate. */
async function measureLatency(base: string, runtime: FormsRuntime, tenants: Tenant[], databaseUrl: string): Promise<void> {
  const p50s: Record<string, number[]> = { create: [], answer: [], commit: [] };
  const p99s: Record<string, number[]> = { create: [], answer: [], commit: [] };
  let failures = 0;
  const bare = postgres(databaseUrl, { max: 4, onnotice: () => {} });
  await bare`create table bench_commit_anchor (id text primary key)`;
  // Round 0 warms the create and answer paths up (2 s, not counted).
  for (let round = 0; round <= ROUNDS; round++) {
    const seconds = round === 0 ? 2 : SECONDS;
    const created = await openLoop(RATE, seconds, async (i) => {
      const tenant = tenants[i % TENANTS]!;
      const { status } = await request(
        new URL('/v1/sessions', base),
        'POST',
        { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json', 'idempotency-key': newId('session') },
        JSON.stringify({ interaction, expires_in: 3600 }),
      );
      return expectStatus('create', status, 201);
    });
    // The answer pages as a person's browser has them, fetched before the clock starts.
    const links = await pool(Array.from({ length: Math.round(RATE * seconds) }), 16, async (_, i) => {
      const tenant = tenants[i % TENANTS]!;
      const made = await createSession({
        ctx: { runtime, workspaceId: tenant.workspaceId, plan: 'pro' },
        input: { interaction, expires_in: 3600 },
      });
      const url = new URL(made.humanUrl);
      const page = await request(url, 'GET', {});
      const form = findForm(page.text, url.pathname);
      const body = new URLSearchParams(form.fields);
      body.set('message', 'Ship it');
      body.set(Object.keys(form.buttons)[0]!, 'approve');
      return { url, body: body.toString() };
    });
    keepAlive.destroy();
    const answered = await openLoop(RATE, seconds, async (i) => {
      const { url, body } = links[i]!;
      const { status } = await request(
        url,
        'POST',
        { 'content-type': 'application/x-www-form-urlencoded', origin: url.origin },
        body,
      );
      return expectStatus('answer', status, 303);
    });
    const committed = await openLoop(RATE, seconds, async () => {
      await bare`insert into bench_commit_anchor values (${crypto.randomUUID()})`;
      return true;
    });
    if (round === 0) continue;
    for (const [name, figures] of [
      ['create', created],
      ['answer', answered],
      ['commit', committed],
    ] as const) {
      p50s[name]!.push(quantile(figures.latencies, 0.5));
      p99s[name]!.push(quantile(figures.latencies, 0.99));
      failures += figures.errors;
    }
    console.log(
      `  round ${round}: create p50 ${ms(quantile(created.latencies, 0.5))} / p99 ${ms(quantile(created.latencies, 0.99))} ms,` +
        ` answer p50 ${ms(quantile(answered.latencies, 0.5))} / p99 ${ms(quantile(answered.latencies, 0.99))} ms,` +
        ` bare commit p50 ${ms(quantile(committed.latencies, 0.5))} / p99 ${ms(quantile(committed.latencies, 0.99))} ms`,
    );
  }
  await bare.end({ timeout: 5 });
  console.log(
    `at ${RATE}/s for ${SECONDS} s across ${TENANTS} workspaces, ${ROUNDS} rounds (ms)${failures ? `, ${failures} FAILED` : ''}:`,
  );
  for (const name of ['create', 'answer', 'commit'] as const) {
    console.log(
      `  ${name === 'commit' ? 'anchor: bare INSERT commit' : name}: p50 ${spread(p50s[name]!, 1)}; p99 ${spread(p99s[name]!, 1)}`,
    );
  }
  if (unexpected.size > 0) console.log(`not answered as expected: ${JSON.stringify(Object.fromEntries(unexpected))}`);
}

await main();
