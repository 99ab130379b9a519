/**
 * The embedded database (PGlite) under load and after a crash (issue 33): the real server
 * (`sess serve`, bundled, no DATABASE_URL) on a data dir of its own.
 *
 * 1. Answers: C clients (32, 64, 128) each posting answers to forms of their own, one after the
 *    other (a closed loop); a post refused with 503 is sent again after 100 ms. p50/p99 from the
 *    first try to the 303, and every status seen. The pages were fetched before, so only the
 *    post (verify, store, commit) is timed.
 * 2. Recovery: 16 clients create forms for a few seconds (the WAL grows), the server is killed
 *    with SIGKILL in the middle, and started again at once on the same data dir: when it
 *    listened, when /readyz first said 200, and the phases the server logged (lock, PGlite's
 *    open with its WAL replay, migrations). While it restarts, 32 clients keep posting answers,
 *    retrying whatever failed (refused, reset or 503) after 50 ms: the posts that got through in
 *    the first second after /readyz, and their p99 (a pile-up of retries shows here).
 *
 * Run: node --import tsx bench/embedded/run.ts [--rounds N] [--clients 32,64,128]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newSecret } from '@sess/core';
import { migrate, openDatabase } from '@sess/db';
import { findForm } from '@sess/testkit';
import { serverEntry } from '../support/server-entry.ts';
import { quantile } from '../support/stats.ts';
import { APPROVE_DEPLOY_BODY, createBenchWorkspaceKey, listeningUrl } from '../support/v1-bench.ts';

const argv = process.argv.slice(2);
const at = argv.indexOf('--rounds');
const ROUNDS = at === -1 ? 3 : Number(argv[at + 1]);
const clientsAt = argv.indexOf('--clients');
const CONCURRENCY = clientsAt === -1 ? [32, 64, 128] : argv[clientsAt + 1]!.split(',').map(Number);
const POSTS_PER_CLIENT = 4;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SECRET = newSecret(32);
const entry = serverEntry('apps/server/src/cli.ts', 'dist/bench/sess.mjs');

const createBody = APPROVE_DEPLOY_BODY;
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

interface Reply {
  status: number; // 0: refused, reset or timed out
  body: string;
  location?: string | undefined;
}

function request(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  return new Promise((resolve) => {
    const req = http.request(url, { method: init.method ?? 'GET', agent, headers: init.headers, timeout: 15_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, location: res.headers.location }));
      res.on('error', () => resolve({ status: 0, body: '' }));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve({ status: 0, body: '' }));
    req.end(init.body);
  });
}

interface Server {
  base: string;
  child: ChildProcess;
  /** ms from spawn to the "listening" line. */
  listenedMs: number;
  spawnedAt: number;
  /** The server's log lines (JSON) so far. */
  lines: Array<Record<string, unknown>>;
}

async function startSess(dataDir: string, port = 0): Promise<Server> {
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [...entry, 'serve'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
      SESS_SECRET: SECRET,
      SESS_DATA_DIR: dataDir,
      PUBLIC_URL: 'http://sess.bench',
      SESS_VAPID_SUBJECT: 'mailto:bench@sess.dev',
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('SESS_ADMIT_'))),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Array<Record<string, unknown>> = [];
  let buffered = '';
  child.stdout?.on('data', (chunk) => {
    buffered += chunk;
    let nl = buffered.indexOf('\n');
    while (nl >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      try {
        lines.push({ ...JSON.parse(line), receivedMs: performance.now() - spawnedAt });
      } catch {}
      nl = buffered.indexOf('\n');
    }
  });
  const base = await listeningUrl(child);
  return { base, child, listenedMs: performance.now() - spawnedAt, spawnedAt, lines };
}

async function createForms(base: string, key: string, count: number): Promise<string[]> {
  const urls: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < count) {
        next++;
        const reply = await request(`${base}/v1/sessions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
          body: createBody,
        });
        if (reply.status !== 201) continue;
        const human = new URL(JSON.parse(reply.body).humanUrl);
        urls.push(`${base}${human.pathname}`);
      }
    }),
  );
  return urls;
}

/** The page's form, ready to post: the URL and the body (the first button pressed). */
async function preparePost(url: string): Promise<{ url: string; body: string }> {
  const page = await request(url);
  const form = findForm(page.body, new URL(url).pathname);
  const body = new URLSearchParams(form.fields);
  const button = Object.keys(form.buttons)[0];
  if (button) body.set(button, form.buttons[button]![0]!);
  return { url, body: body.toString() };
}

function post(prepared: { url: string; body: string }): Promise<Reply> {
  return request(prepared.url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(prepared.url).origin },
    body: prepared.body,
  });
}

const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : 'n/a');
const counts = (statuses: number[]) => {
  const by = new Map<string, number>();
  for (const s of statuses) by.set(s === 0 ? 'none' : String(s), (by.get(s === 0 ? 'none' : String(s)) ?? 0) + 1);
  return [...by].map(([k, v]) => `${k}: ${v}`).join(', ');
};
const spread = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `${fmt(sorted[0]!)} / ${fmt(quantile(sorted, 0.5))} / ${fmt(sorted.at(-1)!)}`;
};

function bytesUnder(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, name.name);
    total += name.isDirectory() ? bytesUnder(path) : statSync(path).size;
  }
  return total;
}

async function setUp(): Promise<{ dataDir: string; key: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sess-bench-embedded-'));
  const database = await openDatabase({ dataDir: join(dataDir, 'pglite') });
  await migrate(database.db);
  const key = await createBenchWorkspaceKey(database.db);
  await database.close();
  return { dataDir, key };
}

async function answers(base: string, key: string) {
  for (const clients of CONCURRENCY) {
    const urls = await createForms(base, key, Math.max(64, clients * POSTS_PER_CLIENT));
    const prepared: Array<{ url: string; body: string }> = [];
    for (const url of urls) prepared.push(await preparePost(url));
    const latencies: number[] = [];
    const statuses: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (next < prepared.length) {
          const one = prepared[next++]!;
          // As a person's page would: a refused post (503, Retry-After) is sent again, here after
          // 100 ms; the answer's time runs from its first try, so a refusal costs what it costs.
          const t0 = performance.now();
          let reply = await post(one);
          statuses.push(reply.status);
          while (reply.status === 503) {
            await new Promise((resolve) => setTimeout(resolve, 100));
            reply = await post(one);
            statuses.push(reply.status);
          }
          if (reply.status === 303) latencies.push(performance.now() - t0);
        }
      }),
    );
    const ok = latencies;
    console.log(
      `  answers at ${clients} clients: p50 ${fmt(quantile(ok, 0.5))} ms, p99 ${fmt(quantile(ok, 0.99))} ms, max ${fmt(Math.max(...ok))} ms (${counts(statuses)})`,
    );
  }
}

/** When /readyz first answered 200 (asked every 10 ms). */
async function readyAfter(base: string): Promise<number> {
  for (;;) {
    const reply = await request(`${base}/readyz`);
    if (reply.status === 200) return performance.now();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

interface Recovery {
  walBytes: number;
  listenedMs: number;
  readyMs: number;
  phases: string;
  firstSecondPosts: number;
  firstSecondP99: number;
  statuses: number[];
}

async function crashAndRecover(server: Server, dataDir: string, key: string): Promise<{ recovery: Recovery; server: Server }> {
  const port = Number(new URL(server.base).port);
  const urls = await createForms(server.base, key, 600);
  const prepared: Array<{ url: string; body: string }> = [];
  for (const url of urls) prepared.push(await preparePost(url));
  // Writes: the WAL grows until the kill.
  let writing = true;
  const writers = Promise.all(
    Array.from({ length: 16 }, async () => {
      while (writing) await createForms(server.base, key, 1);
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, 6_000));
  server.child.kill('SIGKILL');
  writing = false;
  await new Promise((resolve) => server.child.once('exit', resolve));
  await writers;
  const walBytes = bytesUnder(join(dataDir, 'pglite', 'pg_wal'));
  // The answers keep coming, retried on any failure after 50 ms, each post timed from its first try.
  const done: Array<{ finishedAt: number; ms: number }> = [];
  const statuses: number[] = [];
  let answering = true;
  let next = 0;
  const answerers = Promise.all(
    Array.from({ length: 32 }, async () => {
      while (answering && next < prepared.length) {
        const one = prepared[next++]!;
        const t0 = performance.now();
        for (;;) {
          const reply = await post(one);
          statuses.push(reply.status);
          if (reply.status === 303 || reply.status === 409 || !answering) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        done.push({ finishedAt: performance.now(), ms: performance.now() - t0 });
      }
    }),
  );
  const restarted = await startSess(dataDir, port);
  const readyAt = await readyAfter(restarted.base);
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  answering = false;
  await answerers;
  const firstSecond = done.filter((d) => d.finishedAt >= readyAt && d.finishedAt < readyAt + 1000);
  const phases = restarted.lines
    .filter((line) => typeof line.event === 'string' && /^(db|server)\./.test(line.event as string))
    .map((line) => `${line.event}${line.ms !== undefined ? ` ${fmt(Number(line.ms))}ms` : ''} @${fmt(Number(line.receivedMs))}`)
    .join(', ');
  return {
    server: restarted,
    recovery: {
      walBytes,
      listenedMs: restarted.listenedMs,
      readyMs: readyAt - restarted.spawnedAt,
      phases,
      firstSecondPosts: firstSecond.length,
      firstSecondP99: quantile(
        firstSecond.map((d) => d.ms),
        0.99,
      ),
      statuses,
    },
  };
}

const { dataDir, key } = await setUp();
let server = await startSess(dataDir);
try {
  console.log('answer posts (closed loop, one post per client at a time):');
  await answers(server.base, key);
  // The anchor: a stop with SIGTERM (a checkpoint at close, nothing to replay) and a start.
  const cleanReady: number[] = [];
  for (let n = 0; n < ROUNDS; n++) {
    const port = Number(new URL(server.base).port);
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
    server = await startSess(dataDir, port);
    cleanReady.push((await readyAfter(server.base)) - server.spawnedAt);
  }
  console.log(`clean restart (SIGTERM, then start): /readyz 200 after ${spread(cleanReady)} ms (min / median / max)`);
  const recoveries: Recovery[] = [];
  for (let n = 1; n <= ROUNDS; n++) {
    const result = await crashAndRecover(server, dataDir, key);
    server = result.server;
    const r = result.recovery;
    recoveries.push(r);
    console.log(
      `crash ${n}: pg_wal on disk ${fmt(r.walBytes / 1e6)} MB; listening after ${fmt(r.listenedMs)} ms, /readyz 200 after ${fmt(r.readyMs)} ms`,
    );
    console.log(`  phases: ${r.phases}`);
    console.log(
      `  answers retried through the restart: ${counts(r.statuses)}; done in the first second after /readyz: ${r.firstSecondPosts}, p99 from first try ${fmt(r.firstSecondP99)} ms`,
    );
  }
  console.log(`\nover ${ROUNDS} crashes, min / median / max:`);
  console.log(
    `  /readyz 200 after ${spread(recoveries.map((r) => r.readyMs))} ms; listening after ${spread(recoveries.map((r) => r.listenedMs))} ms`,
  );
} finally {
  server.child.kill('SIGTERM');
  await new Promise((resolve) => server.child.once('exit', resolve));
  agent.destroy();
  rmSync(dataDir, { recursive: true, force: true });
}
