/**
 * What a failing renewal costs (issue 32): `POST /account/notifications/devices/renew` answered
 * 404 for an old endpoint Sess has (with a wrong auth secret) beside one it never saw, through the
 * real server (startServer: migrations, request logging, the route's limiter) on 127.0.0.1:0.
 * They should cost the same: a failing proof reads one statement, locks and writes nothing, and
 * opens one seal either way. The anchor, measured in the same run, is the same route answering
 * 400 for a malformed `old.auth` (the request's path without the database or a seal).
 *
 * DEVICES people each have one saved device. A run posts POSTS of each kind one at a time, the
 * three kinds taking turns post by post (their order rotated), so a drift of this shared machine
 * falls on all three alike; p50/p99 per kind and run, then min/median/max over RUNS runs, and
 * known − unknown per run. Each post comes from an address of its own (X-Forwarded-For behind a
 * trusted loopback proxy), so the limit of 60 renewals a minute per address never answers first.
 *
 * Run: node --import tsx bench/device-renewal/run.ts [pglite|postgres ...] [--posts N] [--runs N]
 * (PostgreSQL at 127.0.0.1:5432 or BENCH_DATABASE_URL; a scratch database is created and dropped.)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, newId, newSecret } from '@sess/core';
import { users } from '@sess/db';
import { createNotifySealers, saveDevice } from '@sess/notify';
import { loadConfig, startServer } from '@sess/server';
import { createScratchDatabase } from '../support/scratch-database.ts';
import { quantile } from '../support/stats.ts';

const argv = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = argv.indexOf(name);
  return i === -1 ? fallback : Number(argv[i + 1]);
};
const POSTS = flag('--posts', 1000);
const RUNS = flag('--runs', 5);
const WARM_UP = 200;
const DEVICES = 200;
const drivers = argv.filter((arg) => arg === 'pglite' || arg === 'postgres');
const RENEW = '/account/notifications/devices/renew';

const KINDS = ['known', 'unknown', 'anchor'] as const;
type Kind = (typeof KINDS)[number];
const STATUS: Record<Kind, number> = { known: 404, unknown: 404, anchor: 400 };

const b64 = (bytes: number, first?: number) => {
  const buffer = randomBytes(bytes);
  if (first !== undefined) buffer[0] = first;
  return buffer.toString('base64url');
};
/** An endpoint shaped like a push service's (about the length of FCM's). */
const endpoint = () => `https://push.bench.invalid/wp/${b64(120)}`;
const subscription = () => ({ endpoint: endpoint(), keys: { p256dh: b64(65, 4), auth: b64(16) } });

let posted = 0;
/** One renewal of `kind`, from an address never used before; its time in ms (response read). */
async function post(url: string, kind: Kind, known: string[]): Promise<number> {
  const i = posted++;
  const old =
    kind === 'known'
      ? { endpoint: known[i % known.length], auth: b64(16) }
      : kind === 'unknown'
        ? { endpoint: endpoint(), auth: b64(16) }
        : { endpoint: endpoint(), auth: 'AAAA' };
  const body = JSON.stringify({ old, subscription: subscription() });
  const address = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
  const started = performance.now();
  const response = await fetch(`${url}${RENEW}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body,
  });
  await response.text();
  const took = performance.now() - started;
  if (response.status !== STATUS[kind]) throw new Error(`${kind}: answered ${response.status}, not ${STATUS[kind]}`);
  return took;
}

/** POSTS of each kind, taking turns; the samples per kind. */
async function oneRun(url: string, known: string[], posts: number): Promise<Record<Kind, number[]>> {
  const samples: Record<Kind, number[]> = { known: [], unknown: [], anchor: [] };
  for (let i = 0; i < posts; i++)
    for (let k = 0; k < KINDS.length; k++) {
      const kind = KINDS[(i + k) % KINDS.length]!;
      samples[kind].push(await post(url, kind, known));
    }
  return samples;
}

const ms = (n: number) => `${n.toFixed(2)} ms`;
const spread = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return `min ${ms(sorted[0]!)}  median ${ms(quantile(sorted, 0.5))}  max ${ms(sorted.at(-1)!)}`;
};

async function measure(driver: 'pglite' | 'postgres'): Promise<string[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sess-bench-renewal-'));
  const scratch = driver === 'postgres' ? await createScratchDatabase('sess_bench_renewal') : null;
  const secret = newSecret(32);
  const config = loadConfig({
    NODE_ENV: 'production',
    SESS_VAPID_SUBJECT: 'mailto:bench@sess.dev',
    PORT: '0',
    LOG_LEVEL: 'warn',
    SESS_SECRET: secret,
    SESS_DATA_DIR: dataDir,
    // Each post names its own client address, as a proxy in front would.
    SESS_TRUSTED_PROXIES: 'loopback',
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
  });
  const server = await startServer(config, { logger: createLogger({ level: 'warn' }) });
  try {
    const { db } = server.database;
    const sealers = createNotifySealers(secret);
    const known: string[] = [];
    for (let i = 0; i < DEVICES; i++) {
      const userId = newId('user');
      await db.insert(users).values({ id: userId, email: `${userId}@bench.sess.invalid` });
      const target = subscription();
      await saveDevice(db, sealers, { userId, target, name: 'Bench phone', now: new Date() });
      known.push(target.endpoint);
    }
    await oneRun(server.url, known, WARM_UP); // JIT, prepared statements, pool
    const runs: Record<Kind, number[]>[] = [];
    for (let r = 0; r < RUNS; r++) runs.push(await oneRun(server.url, known, POSTS));

    const lines = runs.map(
      (run, r) =>
        `  run ${r + 1}: ${KINDS.map((kind) => `${kind} p50 ${ms(quantile(run[kind], 0.5))} p99 ${ms(quantile(run[kind], 0.99))}`).join('  |  ')}`,
    );
    lines.push(`  over ${RUNS} runs of ${POSTS} posts per kind:`);
    for (const kind of KINDS) {
      lines.push(`    ${kind.padEnd(7)} p50 ${spread(runs.map((run) => quantile(run[kind], 0.5)))}`);
      lines.push(`    ${''.padEnd(7)} p99 ${spread(runs.map((run) => quantile(run[kind], 0.99)))}`);
    }
    const delta = (q: number) => runs.map((run) => quantile(run.known, q) - quantile(run.unknown, q));
    lines.push(`    known − unknown p50 ${spread(delta(0.5))}`);
    lines.push(`    known − unknown p99 ${spread(delta(0.99))}`);
    return lines;
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
    await scratch?.drop();
  }
}

process.stdout.write(
  `Renewal 404, known endpoint (wrong secret) vs unknown endpoint, anchor: the route's 400 (${DEVICES} devices saved)\n`,
);
// Latency on a shared 2-core machine follows its load: print it beside the figures.
process.stdout.write(
  `load average before: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}\n`,
);
for (const driver of drivers.length > 0 ? drivers : (['postgres', 'pglite'] as const)) {
  const lines = await measure(driver as 'pglite' | 'postgres');
  process.stdout.write(`${driver}:\n${lines.join('\n')}\n`);
}
