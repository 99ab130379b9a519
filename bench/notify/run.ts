/**
 * Notification figures (issue 16), printed side by side in one run. Two `sess serve` processes
 * (bench/notify/server.ts) share core 0, one with SESS_NOTIFICATIONS=on and one with it off,
 * each on a scratch PostgreSQL database; this process (the MCP clients and the RFC 8030 push
 * service of @sess/testkit, which decrypts what it takes) pins itself to core 1. The person has
 * one device on both servers.
 *
 * 1. Create → notification accepted by the push service, sess_ask in an open loop at RATE/s
 *    (default 50) for SECONDS (default 20): p50/p99 from the create's response to the push's
 *    arrival (and from the request's start), beside the anchor: @sess/notify's sendPush alone
 *    (web-push encrypts and signs; one POST) from this process to the same push service.
 * 2. sess_ask create latency with notifications on vs off, in the same run: closed loop, 8
 *    clients, ROUNDS (default 3) rounds of PER_ROUND (default 300) creates on each server in
 *    turn. Target: on within 5 % of off (p50 and mean).
 *
 * Run: node --import tsx bench/notify/run.ts [--rate N] [--seconds N] [--rounds N] [--per-round N]
 * PostgreSQL at 127.0.0.1:5432 (or BENCH_DATABASE_URL).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { newSecret } from '@sess/core';
import { openDatabase } from '@sess/db';
import { createNotifySealers, parsePushTarget, saveDevice, sendPush } from '@sess/notify';
import { startPushService, type TestPushService } from '@sess/testkit/push-service';
import postgres from 'postgres';
import webPush from 'web-push';
import { pool, quantile } from '../support/stats.ts';

const argv = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = argv.indexOf(name);
  return i === -1 ? fallback : Number(argv[i + 1]);
};
const RATE = flag('--rate', 50);
const SECONDS = flag('--seconds', 20);
const ROUNDS = flag('--rounds', 3);
const PER_ROUND = flag('--per-round', 300);
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

const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
const children: ChildProcess[] = [];
const databases: string[] = [];
let push: TestPushService | undefined;

interface Served {
  name: string;
  url: string;
  tokens: string[];
  made: number;
  pushId: string;
}

async function scratchDatabase(): Promise<string> {
  const name = `sess_bench_notify_${newSecret(6)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, 'x')}`;
  await admin.unsafe(`create database "${name}"`);
  databases.push(name);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function startServed(name: string, notifications: 'on' | 'off'): Promise<Served> {
  const databaseUrl = await scratchDatabase();
  const child = spawn('taskset', ['-c', '0', process.execPath, '--import', 'tsx', 'bench/notify/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      BENCH_SECRET: SECRET,
      BENCH_NOTIFICATIONS: notifications,
      BENCH_GRANTS: '30',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const ready = await new Promise<{ url: string; tokens: string[]; userId: string; vapidPublicKey: string }>(
    (resolve, reject) => {
      let buffer = '';
      child.stdout!.on('data', (chunk) => {
        buffer += chunk;
        const line = buffer.split('\n').find((l) => l.startsWith('{"ready"'));
        if (line) resolve(JSON.parse(line));
      });
      child.on('exit', (code) => reject(new Error(`${name} server exited (${code})`)));
    },
  );
  // The person's one device: a subscription of the loopback push service, saved as the page would.
  const device = push!.subscribe(ready.vapidPublicKey);
  const database = await openDatabase({ url: databaseUrl, poolMax: 1 });
  await saveDevice(database.db, createNotifySealers(SECRET), {
    userId: ready.userId,
    target: parsePushTarget(device.subscription, { allowLoopbackHttp: true }),
    name: 'bench phone',
    now: new Date(),
  });
  await database.close();
  return { name, url: ready.url, tokens: ready.tokens, made: 0, pushId: device.id };
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

async function waitForPushes(served: Served, count: number, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (push!.received(served.pushId).length < count && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
}

try {
  push = await startPushService();
  const on = await startServed('notifications on', 'on');
  const off = await startServed('notifications off', 'off');

  // Warm both (JIT, pools, key rings).
  for (const served of [on, off]) await pool(Array.from({ length: 60 }), CLIENTS, () => ask(served));
  await waitForPushes(on, 60, 10_000);

  // 1. Create → accepted, open loop.
  const total = RATE * SECONDS;
  const before = push.received(on.pushId).length;
  const started = performance.now();
  const creates = await Promise.all(
    Array.from({ length: total }, async (_, i) => {
      const due = started + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      return ask(on);
    }),
  );
  await waitForPushes(on, before + total, 30_000);
  const arrivals = new Map<string, number>();
  for (const p of push.received(on.pushId).slice(before)) {
    const url = (p.payload as { url?: string }).url;
    if (url) arrivals.set(url, p.at.getTime());
  }
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
  // The anchor: the worker's push sender alone (web-push encrypts and signs; one POST) from here to the same push service (encrypt, sign, POST).
  const anchorKeys = webPush.generateVAPIDKeys();
  const anchorDevice = push.subscribe(anchorKeys.publicKey);
  const anchorMs: number[] = [];
  for (let i = 0; i < 300; i++) {
    const t = performance.now();
    const sent = await sendPush(anchorDevice.subscription, JSON.stringify({ title: `Lunch at ${i}?`, url: 'x'.repeat(80) }), {
      vapid: { subject: 'mailto:bench@sess.si', publicKey: anchorKeys.publicKey, privateKey: anchorKeys.privateKey },
      ttlSeconds: 3600,
      topic: 'bench',
      urgency: 'high',
      timeoutMs: 10_000,
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

  // 2. On vs off, closed loop, rounds in turn.
  console.log(`\n2. sess_ask create latency, ${CLIENTS} clients, ${ROUNDS} rounds × ${PER_ROUND} creates on each server in turn`);
  const p50Ratios: number[] = [];
  const meanRatios: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const figures: Record<string, number[]> = {};
    for (const served of round % 2 === 1 ? [on, off] : [off, on]) {
      const latencies = await pool(Array.from({ length: PER_ROUND }), CLIENTS, async () => {
        const c = await ask(served);
        return c.endedAt - c.startedAt;
      });
      figures[served.name] = latencies;
    }
    const onMs = figures[on.name]!;
    const offMs = figures[off.name]!;
    p50Ratios.push(quantile(onMs, 0.5) / quantile(offMs, 0.5));
    meanRatios.push(mean(onMs) / mean(offMs));
    console.log(
      `   round ${round}: on ${summary(onMs)} mean ${ms(mean(onMs))} | off ${summary(offMs)} mean ${ms(mean(offMs))} | on/off p50 ${p50Ratios.at(-1)!.toFixed(3)} mean ${meanRatios.at(-1)!.toFixed(3)}`,
    );
  }
  const span = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return `${s[0]!.toFixed(3)} / ${s[Math.floor(s.length / 2)]!.toFixed(3)} / ${s.at(-1)!.toFixed(3)}`;
  };
  const medianP50 = [...p50Ratios].sort((a, b) => a - b)[Math.floor(p50Ratios.length / 2)]!;
  console.log(`   on/off p50 ratio min/median/max ${span(p50Ratios)}; mean ratio ${span(meanRatios)}`);
  console.log(`   target: within 5 % (median p50 ratio ≤ 1.05): ${medianP50 <= 1.05 ? 'ok' : 'MISSED'}`);
  console.log(
    `\nload average after: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
} finally {
  for (const child of children) child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 1000));
  await push?.close();
  for (const name of databases) await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.end({ timeout: 5 });
}
