/**
 * MCP endpoint figures (issue 6), printed side by side in one run. The server (bench/mcp/server.ts)
 * runs in a child process pinned to core 0 (`taskset -c 0`); this process, the load generator
 * (autocannon and plain HTTP clients), pins itself to core 1.
 *
 * 1. tools/list and sess_response (wait_ms 0), 2026-07-28 requests, 50 connections:
 *    the whole edge (Host/Origin preflight, OAuth token verification, limits, bounded body, guard,
 *    createMcpHandler, handle store) vs a bare createMcpHandler serving the same tools vs a bare
 *    Hono JSON route. Requests/s and p50/p99. Targets: edge ≥ 0.9× bare createMcpHandler;
 *    edge tools/list ≥ 0.15× bare Hono.
 * 2. sess_ask at 50 concurrent clients on PostgreSQL (real tokens, one principal per 100 calls):
 *    calls/s, p50/p99.
 *    Target p99 ≤ 30 ms.
 * 3. 5,000 concurrent sess_response waits (wait_ms 45 000) parked on the server, then every one
 *    answered in turn through the real answer page (form post): RSS while parked, wake latency (from the
 *    answer's HTTP response to the wait's response), errors. Targets: RSS ≤ 1 GiB, wake p99 ≤
 *    50 ms, 0 errors.
 *
 * Run: node --import tsx bench/mcp/run.ts [--seconds N] [--waits N] [--asks N] [--skip-compare]
 * PostgreSQL at 127.0.0.1:5432 (or BENCH_DATABASE_URL); a scratch database is created and dropped.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { newSecret } from '@sess/core';
import { parseHtmlForms } from '@sess/testkit';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { pool, quantile } from '../support/stats.ts';

const argv = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = argv.indexOf(name);
  return i === -1 ? fallback : Number(argv[i + 1]);
};
const SECONDS = flag('--seconds', 10);
const WAITS = flag('--waits', 5000);
const ASKS = flag('--asks', Math.max(WAITS, 1000));
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Thrown to end the run early (--compare-only). */
class Stop extends Error {}

const ms = (n: number) => `${n.toFixed(1)} ms`;
const verdict = (ok: boolean) => (ok ? 'ok' : 'MISSED');

// ---------------------------------------------------------------------------------------------
// Pinning: the load generator on core 1, the server on core 0.
try {
  execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
} catch {
  console.warn('taskset is not available: the load generator is not pinned');
}

const dbName = `sess_bench_mcp_${newSecret(6)
  .toLowerCase()
  .replace(/[^a-z0-9]/g, 'x')}`;
const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database "${dbName}"`);
const dbUrl = new URL(ADMIN_URL);
dbUrl.pathname = `/${dbName}`;

let server: ChildProcess | undefined;
async function cleanup() {
  server?.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  await admin.unsafe(`drop database if exists "${dbName}" with (force)`);
  await admin.end({ timeout: 5 });
}

interface Ready {
  edge: string;
  bare: string;
  stats: string;
  tokens: string[];
  handle: string;
}

function startServer(): Promise<Ready> {
  return new Promise((resolve, reject) => {
    const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
    server = spawn(
      'taskset',
      ['-c', '0', process.execPath, '--expose-gc', ...profile, '--import', 'tsx', 'bench/mcp/server.ts'],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          NODE_ENV: 'production',
          DATABASE_URL: dbUrl.toString(),
          BENCH_SECRET: newSecret(32),
          BENCH_GRANTS: String(Math.ceil(ASKS / 100) + 3),
          // The limiter still runs on every request (its cost is measured) but never refuses the bench.
          SESS_MCP_RATE_PER_IP: '100000000',
          SESS_MCP_RATE_PER_PRINCIPAL: '100000000',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let buffer = '';
    server.stdout!.on('data', (chunk) => {
      buffer += chunk;
      const line = buffer.split('\n').find((l) => l.startsWith('{"ready"'));
      if (line) resolve(JSON.parse(line) as Ready);
    });
    server.on('exit', (code) => reject(new Error(`bench server exited (${code})`)));
  });
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
function modern(method: string, params: Record<string, unknown>, name?: string) {
  return {
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: META } }),
  };
}

interface Figure {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Server CPU time per request (user + system), which a busy machine distorts far less than req/s. */
  cpuMs: number;
}

let statsUrl = '';
async function serverCpuMicros(): Promise<number> {
  return ((await (await fetch(`${statsUrl}/stats`)).json()) as { cpuMicros: number }).cpuMicros;
}

async function load(url: string, request: { headers: Record<string, string>; body: string }, seconds: number): Promise<Figure> {
  const options = { url, connections: 50, duration: seconds, method: 'POST', headers: request.headers, body: request.body };
  const cpuBefore = await serverCpuMicros();
  const result = (await autocannon(options as Parameters<typeof autocannon>[0])) as autocannon.Result & {
    latency: { p50: number; p99: number };
    requests: { average: number; total: number };
  };
  const cpuMs = (await serverCpuMicros()) - cpuBefore;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    cpuMs: cpuMs / 1000 / Math.max(1, result.requests.total),
  };
}

async function compare(name: string, cases: Array<[string, string, { headers: Record<string, string>; body: string }]>) {
  const figures: Array<[string, Figure]> = [];
  for (const [label, url, request] of cases) {
    await load(url, request, 3); // warm-up
    figures.push([label, await load(url, request, SECONDS)]);
  }
  console.log(`\n${name} (50 connections, ${SECONDS} s each after a 3 s warm-up)`);
  for (const [label, f] of figures) {
    console.log(
      `  ${label.padEnd(24)} ${f.rps.toFixed(0).padStart(6)} req/s   p50 ${ms(f.p50).padStart(8)}   p99 ${ms(f.p99).padStart(9)}   server CPU ${f.cpuMs.toFixed(3)} ms/req (${(1000 / f.cpuMs).toFixed(0)} req/s per core)   errors ${f.errors}`,
    );
  }
  return Object.fromEntries(figures) as Record<string, Figure>;
}

/** One HTTP POST on its own socket (for thousands of concurrent waits). */
function postRaw(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; text: string; at: number }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) }, agent: false },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (d) => (text += d));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text, at: performance.now() }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

try {
  const started = performance.now();
  const ready = await startServer();
  statsUrl = ready.stats;
  console.log(`MCP figures — node ${process.version}; server on core 0, load generator on core 1; PostgreSQL`);
  console.log(`(setup: ${USERS_LINE(ready)} in ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  const auth = { authorization: `Bearer ${ready.tokens[0]}` };
  const list = modern('tools/list', {});
  const read = modern(
    'tools/call',
    { name: 'sess_response', arguments: { handle: ready.handle, revision: 1, wait_ms: 0 } },
    'sess_response',
  );

  const only = argv.includes('--case') ? argv[argv.indexOf('--case') + 1] : undefined;
  if (only) {
    // Profiling aid: one case alone (edge-list | edge-response | bare-list | bare-response).
    const [where, what] = only.split('-') as ['edge' | 'bare', 'list' | 'response'];
    const request = what === 'list' ? list : read;
    const url = where === 'edge' ? `${ready.edge}/mcp` : `${ready.bare}/mcp`;
    const headers = where === 'edge' ? { ...request.headers, ...auth } : request.headers;
    const f = await load(url, { headers, body: request.body }, SECONDS);
    console.log(`${only}: ${f.rps.toFixed(0)} req/s, server CPU ${f.cpuMs.toFixed(3)} ms/req, errors ${f.errors}`);
    throw new Stop();
  }
  const skipCompare = argv.includes('--skip-compare');
  /** One request three ways: a bare Hono route, a bare createMcpHandler, and the whole edge (with a token). */
  const threeWays = async (
    name: string,
    request: { headers: Record<string, string>; body: string },
  ): Promise<Record<string, Figure>> =>
    skipCompare
      ? {}
      : compare(name, [
          ['bare Hono JSON route', `${ready.bare}/json`, request],
          ['bare createMcpHandler', `${ready.bare}/mcp`, request],
          ['whole edge', `${ready.edge}/mcp`, { headers: { ...request.headers, ...auth }, body: request.body }],
        ]);
  const toolsList = await threeWays('tools/list', list);
  const response = await threeWays('sess_response, wait_ms 0 (a waiting interaction)', read);

  if (argv.includes('--compare-only')) throw new Stop();
  // 2. sess_ask at 50 concurrent clients, round-robin over the people.
  const ask = (i: number) =>
    modern(
      'tools/call',
      {
        name: 'sess_ask',
        arguments: {
          question: `Lunch at ${i}?`,
          fields: [{ name: 'choice', label: 'Where?', type: 'choice', options: ['Pizza', 'Sushi', 'Salad'] }],
        },
      },
      'sess_ask',
    );
  // Warm-up on a principal of its own (token 1; token 0 holds the sess_response handle).
  await pool(
    Array.from({ length: 100 }, (_, i) => i),
    50,
    async (i) => {
      const r = ask(i);
      await fetch(`${ready.edge}/mcp`, {
        method: 'POST',
        headers: { ...r.headers, authorization: `Bearer ${ready.tokens[1]}` },
        body: r.body,
      }).then((x) => x.text());
    },
  );
  const latencies: number[] = [];
  let askErrors = 0;
  const askCpuBefore = await serverCpuMicros();
  const askStarted = performance.now();
  const made = await pool(
    Array.from({ length: ASKS }, (_, i) => i),
    50,
    async (i) => {
      const token = ready.tokens[2 + (i % (ready.tokens.length - 2))]!;
      const r = ask(i);
      const t0 = performance.now();
      const res = await fetch(`${ready.edge}/mcp`, {
        method: 'POST',
        headers: { ...r.headers, authorization: `Bearer ${token}` },
        body: r.body,
      });
      const text = await res.text();
      latencies.push(performance.now() - t0);
      const handle = /"handle":"(hdl_[a-z2-7]+)"/.exec(text)?.[1];
      const humanUrl = /"humanUrl":"([^"]+)"/.exec(text)?.[1];
      if (res.status !== 200 || !handle || !humanUrl || text.includes('"isError":true')) {
        askErrors++;
        return undefined;
      }
      return { handle, humanUrl, token };
    },
  );
  const askSeconds = (performance.now() - askStarted) / 1000;
  const askCpuMs = ((await serverCpuMicros()) - askCpuBefore) / 1000 / ASKS;
  const askP99 = quantile(latencies, 0.99);
  console.log(`\nsess_ask, 50 concurrent clients, ${ASKS} calls over ${ready.tokens.length - 2} principals (PostgreSQL)`);
  console.log(
    `  ${(ASKS / askSeconds).toFixed(0)} calls/s   p50 ${ms(quantile(latencies, 0.5))}   p99 ${ms(askP99)}   server CPU ${askCpuMs.toFixed(2)} ms/call   errors ${askErrors}   (target p99 <= 30 ms: ${verdict(askP99 <= 30)})`,
  );

  // 3. WAITS concurrent waits, then every one answered on its page.
  const targets = made.filter((m): m is NonNullable<typeof m> => m !== undefined).slice(0, WAITS);
  const pages = await pool(targets, 50, async (t) => {
    const html = await (await fetch(t.humanUrl)).text();
    const form = parseHtmlForms(html).find((f) => f.action === new URL(t.humanUrl).pathname)!;
    const body = new URLSearchParams(form.fields);
    body.set('choice', 'Sushi');
    const button = Object.keys(form.buttons)[0];
    if (button) body.set(button, form.buttons[button]![0]!);
    return body.toString();
  });
  const statsOf = async () =>
    (await (await fetch(`${ready.stats}/stats`)).json()) as { rss: number; heapUsed: number; inflight: number };
  await fetch(`${ready.stats}/gc`, { method: 'POST' });
  const before = await statsOf();
  const waits = targets.map((t) => {
    const r = modern(
      'tools/call',
      { name: 'sess_response', arguments: { handle: t.handle, revision: 1, wait_ms: 45_000 } },
      'sess_response',
    );
    return postRaw(`${ready.edge}/mcp`, { ...r.headers, authorization: `Bearer ${t.token}` }, r.body);
  });
  let parked = await statsOf();
  const parkDeadline = performance.now() + 40_000;
  while (parked.inflight < targets.length && performance.now() < parkDeadline) {
    await new Promise((r) => setTimeout(r, 250));
    parked = await statsOf();
  }
  await new Promise((r) => setTimeout(r, 500));
  const peak = await statsOf();
  const answeredAt: number[] = new Array(targets.length);
  let answerErrors = 0;
  // People answer a few at a time (four answer pages in flight), so the wake time is the wake
  // itself rather than a queue of answers the one server core is still working through, and all
  // 5,000 are answered well within the 45 s wait.
  await pool(targets, 4, async (t, i) => {
    const res = await fetch(t.humanUrl, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(t.humanUrl).origin },
      body: pages[i]!,
    });
    answeredAt[i] = performance.now();
    await res.arrayBuffer();
    if (res.status !== 303) answerErrors++;
  });
  const results = await Promise.allSettled(waits);
  const wakes: number[] = [];
  let waitErrors = 0;
  for (const [i, result] of results.entries()) {
    if (
      result.status !== 'fulfilled' ||
      result.value.status !== 200 ||
      !result.value.text.includes('"state":"answered"') ||
      !result.value.text.includes('Sushi')
    ) {
      waitErrors++;
      continue;
    }
    wakes.push(result.value.at - answeredAt[i]!);
  }
  const after = await statsOf();
  const wakeP99 = quantile(wakes, 0.99);
  const rssMiB = Math.max(peak.rss, after.rss) / 1024 / 1024;
  const errors = waitErrors + answerErrors + (targets.length < WAITS ? WAITS - targets.length : 0);
  console.log(`\n${WAITS} concurrent sess_response waits (wait_ms 45000), then answered on their pages, four at a time`);
  console.log(
    `  parked ${parked.inflight} of ${targets.length}; RSS before ${(before.rss / 1048576).toFixed(0)} MiB, parked ${(peak.rss / 1048576).toFixed(0)} MiB (heap ${(peak.heapUsed / 1048576).toFixed(0)} MiB)   (target <= 1024 MiB: ${verdict(rssMiB <= 1024)})`,
  );
  console.log(
    `  wake p50 ${ms(quantile(wakes, 0.5))}   p99 ${ms(wakeP99)}   (target p99 <= 50 ms: ${verdict(wakeP99 <= 50)})   errors ${errors} (target 0: ${verdict(errors === 0)})`,
  );

  if (skipCompare) throw new Stop();
  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  const cpuRatio = (edge: Figure, base: Figure) => (base.cpuMs / edge.cpuMs).toFixed(2);
  console.log('\nRatios by server CPU per request (capacity per core; load-independent)');
  console.log(
    `  tools/list: edge / bare createMcpHandler = ${cpuRatio(toolsList['whole edge']!, toolsList['bare createMcpHandler']!)}; edge / bare Hono = ${cpuRatio(toolsList['whole edge']!, toolsList['bare Hono JSON route']!)}`,
  );
  console.log(
    `  sess_response: edge / bare createMcpHandler = ${cpuRatio(response['whole edge']!, response['bare createMcpHandler']!)}; edge / bare Hono = ${cpuRatio(response['whole edge']!, response['bare Hono JSON route']!)}`,
  );
  console.log('Ratios by measured requests/s');
  console.log(
    `  tools/list: edge / bare createMcpHandler = ${ratio(toolsList['whole edge']!.rps, toolsList['bare createMcpHandler']!.rps)} (target >= 0.90: ${verdict(toolsList['whole edge']!.rps >= 0.9 * toolsList['bare createMcpHandler']!.rps)}); edge / bare Hono = ${ratio(toolsList['whole edge']!.rps, toolsList['bare Hono JSON route']!.rps)} (target >= 0.15: ${verdict(toolsList['whole edge']!.rps >= 0.15 * toolsList['bare Hono JSON route']!.rps)})`,
  );
  console.log(
    `  sess_response: edge / bare createMcpHandler = ${ratio(response['whole edge']!.rps, response['bare createMcpHandler']!.rps)} (target >= 0.90: ${verdict(response['whole edge']!.rps >= 0.9 * response['bare createMcpHandler']!.rps)}); edge / bare Hono = ${ratio(response['whole edge']!.rps, response['bare Hono JSON route']!.rps)}`,
  );
} catch (error) {
  if (!(error instanceof Stop)) throw error;
} finally {
  await cleanup();
}

function USERS_LINE(ready: Ready): string {
  return `${ready.tokens.length} apps connected through the OAuth flow`;
}
