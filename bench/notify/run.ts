/**
 * Notification figures (issue 16), printed side by side in one run. Three `sess serve` processes
 * (bench/notify/server.ts) share core 0, each on a scratch PostgreSQL database: notifications on;
 * on with the worker held (SESS_TEST_HOLD_NOTIFICATIONS: forms write the outbox, nothing sends,
 * so this is the create path's own cost); and off; this process (the MCP clients) and the RFC 8030 push
 * service of @sess/testkit, which decrypts what it takes (bench/notify/push-service.ts), are
 * pinned to core 1 in processes of their own. The person has one device on both servers.
 *
 * 1. Create → notification accepted by the push service, sess_ask in an open loop at RATE/s
 *    (default 50) for SECONDS (default 20): p50/p99 from the create's response to the push's
 *    arrival (and from the request's start), beside the anchor: @sess/notify's sendPush alone
 *    (web-push encrypts and signs; one POST) from this process to the same push service.
 * 2. sess_ask create latency with notifications on, outbox only and off, in the same run:
 *    ROUNDS (default 5) rounds of ROUND_SECONDS (default 15) of RATE creates/s in all, which the
 *    three servers take in turn request by request (on, held, off, on, …; the order of the three
 *    rotated each round), so core 0 carries the load of section 1 and a drift of this shared
 *    machine falls on all three alike rather than on whichever server had that stretch;
 *    p50/p99/mean and the server's CPU per
 *    create (from /proc, the worker's sending included). Target: within 5 % of off (median of
 *    the rounds' p50 ratios).
 *
 * Run: node --import tsx bench/notify/run.ts [--rate N] [--seconds N] [--rounds N] [--round-seconds N]
 * PostgreSQL at 127.0.0.1:5432 (or BENCH_DATABASE_URL).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { newSecret } from '@sess/core';
import { createEgress } from '@sess/core/egress';
import { openDatabase } from '@sess/db';
import { createNotifySealers, parsePushTarget, saveDevice, sendPush } from '@sess/notify';
import webPush from 'web-push';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database.ts';
import { pool, quantile } from '../support/stats.ts';

const argv = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = argv.indexOf(name);
  return i === -1 ? fallback : Number(argv[i + 1]);
};
const RATE = flag('--rate', 50);
const SECONDS = flag('--seconds', 20);
const ROUNDS = flag('--rounds', 5);
const ROUND_SECONDS = flag('--round-seconds', 15);
const CLIENTS = 8;
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SECRET = newSecret(32);

try {
  execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
} catch {
  console.warn('taskset is not available: the clients are not pinned');
}
console.log(
  `load average before: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);

const ms = (n: number) => `${n.toFixed(1)} ms`;
const summary = (xs: number[]) => `p50 ${ms(quantile(xs, 0.5))}  p99 ${ms(quantile(xs, 0.99))}  max ${ms(Math.max(...xs))}`;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

const children: ChildProcess[] = [];
const databases: ScratchDatabase[] = [];

/** The push service's process (bench/notify/push-service.ts): subscriptions and what arrived. */
interface PushControl {
  subscribe(
    vapidPublicKey: string,
  ): Promise<{ id: string; subscription: { endpoint: string; keys: { p256dh: string; auth: string } } }>;
  received(id: string): Promise<{ url?: string; at: number }[]>;
}
let push: PushControl;

/** Starts `script` pinned to `core` and resolves with the JSON of its `{"ready":…}` line. */
function startChild<T>(
  script: string,
  core: number,
  env: Record<string, string>,
  profile: string[] = [],
): Promise<{ child: ChildProcess; ready: T }> {
  const child = spawn('taskset', ['-c', String(core), process.execPath, ...profile, '--import', 'tsx', script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk) => {
      buffer += chunk;
      const line = buffer.split('\n').find((l) => l.startsWith('{"ready"'));
      if (line) resolve({ child, ready: JSON.parse(line) as T });
    });
    child.on('exit', (code) => reject(new Error(`${script} exited (${code})`)));
  });
}

async function startPush(): Promise<PushControl> {
  const { ready } = await startChild<{ control: string }>('bench/notify/push-service.ts', 1, {});
  return {
    subscribe: async (key) => (await fetch(`${ready.control}/subscribe`, { method: 'POST', body: key })).json(),
    received: async (id) => (await fetch(`${ready.control}/received/${id}`)).json(),
  };
}

interface Served {
  name: string;
  pid: number;
  url: string;
  tokens: string[];
  made: number;
  pushId: string;
}

/** A scratch database per served process (each migrated by its server); all dropped at the end. */
async function scratchDatabase(): Promise<string> {
  const scratch = await createScratchDatabase('sess_bench_notify', ADMIN_URL);
  databases.push(scratch);
  return scratch.url;
}

async function startServed(name: string, notifications: 'on' | 'held' | 'off'): Promise<Served> {
  const databaseUrl = await scratchDatabase();
  // BENCH_PROFILE=<dir>: a CPU profile of each server, written when it exits.
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const { child, ready } = await startChild<{ url: string; tokens: string[]; userId: string; vapidPublicKey: string }>(
    'bench/notify/server.ts',
    0,
    { DATABASE_URL: databaseUrl, BENCH_SECRET: SECRET, BENCH_NOTIFICATIONS: notifications, BENCH_GRANTS: '45' },
    profile,
  );
  // The person's one device: a subscription of the loopback push service, saved as the page would.
  const device = await push.subscribe(ready.vapidPublicKey);
  const database = await openDatabase({ url: databaseUrl, poolMax: 1 });
  await saveDevice(database.db, createNotifySealers(SECRET), {
    userId: ready.userId,
    target: parsePushTarget(device.subscription, { policy: 'loopback-only' }),
    name: 'bench phone',
    now: new Date(),
  });
  await database.close();
  return { name, pid: child.pid!, url: ready.url, tokens: ready.tokens, made: 0, pushId: device.id };
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** One sess_ask through /mcp; the link it returned and when the response ended (performance.timeOrigin-based ms). */
async function ask(served: Served): Promise<{ startedAt: number; endedAt: number; humanUrl: string }> {
  const i = served.made++;
  const token = served.tokens[i % served.tokens.length]!;
  const startedAt = performance.timeOrigin + performance.now();
  const res = await fetch(`${served.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'sess_ask',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'sess_ask',
        arguments: {
          question: `Lunch at ${i}?`,
          fields: [{ name: 'choice', label: 'Where?', type: 'choice', options: ['Pizza', 'Sushi', 'Salad'] }],
        },
        _meta: META,
      },
    }),
  });
  const text = await res.text();
  const endedAt = performance.timeOrigin + performance.now();
  const humanUrl = /"humanUrl":"([^"]+)"/.exec(text)?.[1];
  if (res.status !== 200 || !humanUrl || text.includes('"isError":true'))
    throw new Error(`sess_ask failed on ${served.name}: ${res.status} ${text.slice(0, 200)}`);
  return { startedAt, endedAt, humanUrl };
}

/** The server process's CPU time so far (user + system), in ms: steadier than latency on a shared machine. */
function cpuMs(served: Served): number {
  const fields = readFileSync(`/proc/${served.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in ticks of 1/100 s
}

/**
 * `count` creates on each of `servers`, started at RATE per second in all whatever the responses
 * (an open loop): the servers take turns request by request, so core 0 carries RATE/s however
 * many servers share it.
 */
function openLoop(servers: Served[], count: number) {
  const started = performance.now();
  const slot = 1000 / RATE;
  return Promise.all(
    servers.map((served, k) =>
      Promise.all(
        Array.from({ length: count }, async (_, i) => {
          const wait = started + (i * servers.length + k) * slot - performance.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          return ask(served);
        }),
      ),
    ),
  );
}

async function waitForPushes(served: Served, count: number, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while ((await push.received(served.pushId)).length < count && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
}

try {
  push = await startPush();
  const on = await startServed('notifications on', 'on');
  const held = await startServed('outbox only', 'held');
  const off = await startServed('notifications off', 'off');

  // Warm both (JIT, pools, key rings).
  for (const served of [on, held, off]) await pool(Array.from({ length: 60 }), CLIENTS, () => ask(served));
  await waitForPushes(on, 60, 10_000);

  // 1. Create → accepted, open loop.
  const total = RATE * SECONDS;
  const before = (await push.received(on.pushId)).length;
  const creates = (await openLoop([on], total))[0]!;
  await waitForPushes(on, before + total, 30_000);
  const arrivals = new Map<string, number>();
  for (const p of (await push.received(on.pushId)).slice(before)) if (p.url) arrivals.set(p.url, p.at);
  const fromResponse: number[] = [];
  const fromRequest: number[] = [];
  const createMs: number[] = [];
  for (const c of creates) {
    createMs.push(c.endedAt - c.startedAt);
    const at = arrivals.get(c.humanUrl);
    if (at === undefined) continue;
    fromResponse.push(Math.max(0, at - c.endedAt));
    fromRequest.push(at - c.startedAt);
  }
  // The anchor: the worker's push sender alone (web-push encrypts and signs; one POST) from here to the same push service.
  const anchorKeys = webPush.generateVAPIDKeys();
  const anchorDevice = await push.subscribe(anchorKeys.publicKey);
  const anchorMs: number[] = [];
  const egress = createEgress({ policy: 'loopback-only' });
  for (let i = 0; i < 300; i++) {
    const t = performance.now();
    const sent = await sendPush(anchorDevice.subscription, JSON.stringify({ title: `Lunch at ${i}?`, url: 'x'.repeat(80) }), {
      vapid: { subject: 'mailto:bench@sess.si', publicKey: anchorKeys.publicKey, privateKey: anchorKeys.privateKey },
      ttlSeconds: 3600,
      topic: 'bench',
      urgency: 'high',
      timeoutMs: 10_000,
      egress,
    });
    if (sent.outcome !== 'accepted') throw new Error(`anchor push ${sent.outcome}`);
    anchorMs.push(performance.now() - t);
  }
  console.log(`\n1. sess_ask at ${RATE}/s for ${SECONDS} s (open loop), notifications on, one device (PostgreSQL)`);
  console.log(`   creates ${total}, notifications accepted ${fromResponse.length}, missing ${total - fromResponse.length}`);
  console.log(`   create latency:                      ${summary(createMs)}`);
  console.log(`   create response → push accepted:     ${summary(fromResponse)}`);
  console.log(`   create request  → push accepted:     ${summary(fromRequest)}`);
  console.log(`   anchor, the push sender alone:       ${summary(anchorMs)}`);

  // 2. The same open-loop rate on each server, the three taking turns request by request.
  console.log(
    `\n2. sess_ask create latency, ${RATE}/s in all taken in turn by the three servers (open loop), ${ROUNDS} rounds × ${ROUND_SECONDS} s`,
  );
  const servers = [on, held, off];
  const ratios = { p50: { on: [] as number[], held: [] as number[] }, cpu: { on: [] as number[], held: [] as number[] } };
  for (let round = 1; round <= ROUNDS; round++) {
    const order = servers.map((_, k) => servers[(k + round) % servers.length]!);
    const cpuBefore = order.map(cpuMs);
    const made = await openLoop(order, Math.round((RATE * ROUND_SECONDS) / servers.length));
    // The worker's sends of this round's notifications belong to it.
    await waitForPushes(on, on.made, 10_000);
    await new Promise((r) => setTimeout(r, 300));
    const figures = new Map<Served, { latencies: number[]; cpu: number }>();
    for (const [k, served] of order.entries()) {
      figures.set(served, {
        latencies: made[k]!.map((c) => c.endedAt - c.startedAt),
        cpu: (cpuMs(served) - cpuBefore[k]!) / made[k]!.length,
      });
    }
    const base = figures.get(off)!;
    const line = [`   round ${round}:`];
    for (const served of servers) {
      const f = figures.get(served)!;
      line.push(`${served.name}: ${summary(f.latencies)} mean ${ms(mean(f.latencies))}, CPU ${f.cpu.toFixed(2)} ms/create`);
    }
    for (const [key, served] of [
      ['on', on],
      ['held', held],
    ] as const) {
      ratios.p50[key].push(quantile(figures.get(served)!.latencies, 0.5) / quantile(base.latencies, 0.5));
      ratios.cpu[key].push(figures.get(served)!.cpu / base.cpu);
    }
    console.log(line.join('\n     '));
  }
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const span = (xs: number[]) => {
    const s = sorted(xs);
    return `${s[0]!.toFixed(3)} / ${s[Math.floor(s.length / 2)]!.toFixed(3)} / ${s.at(-1)!.toFixed(3)}`;
  };
  const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)]!;
  console.log(`   ratios to off, min / median / max over the rounds:`);
  console.log(
    `     create path (outbox written, worker held): p50 ${span(ratios.p50.held)}   CPU per create ${span(ratios.cpu.held)}`,
  );
  console.log(
    `     whole process (the worker sending too):     p50 ${span(ratios.p50.on)}   CPU per create ${span(ratios.cpu.on)}`,
  );
  console.log(
    `   target: within 5 % (median p50 ratio ≤ 1.05): create path ${median(ratios.p50.held) <= 1.05 ? 'ok' : 'MISSED'}, whole process ${median(ratios.p50.on) <= 1.05 ? 'ok' : 'MISSED'}`,
  );
  console.log(
    `\nload average after: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
} finally {
  for (const child of children) child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 1000));
  for (const scratch of databases) await scratch.drop();
}
