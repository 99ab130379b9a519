/**
 * What admission control (issue 33) costs per request, beside the same request without it, in
 * the same run.
 *
 *   node --import tsx bench/admission/run.ts
 *
 * Two servers on loopback, each the app's own first middleware (request id, the request log line
 * at a level that writes nothing) and the same two routes:
 * - anchor: nothing more;
 * - admitted: the admission middleware (classify, count, give back) and the connection cap's hook
 *   on each request, as `sess serve` runs them.
 * Routes: `GET /s/bench` (a page: counted and run at once) and `POST /v1/bench` (a write: counted,
 * and started only after the next poll, once it is clear its client is still there). Each round
 * sends the four kinds in turn, request by request, from `concurrency` keep-alive clients, and
 * prints p50 / p99 latency per kind; the end prints min / median / max over the rounds of the
 * admitted kind's p50 minus the anchor's p50 of the same round ("added"). A third line measures
 * the bookkeeping alone (admit + give back, no HTTP) in ns per request.
 */
import { Agent, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { createLogger } from '@sess/core';
import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import { Admission, admitRequests } from '../../apps/server/src/http/admission.ts';
import type { AppEnv } from '../../apps/server/src/http/app-env.ts';
import { ConnectionCap } from '../../apps/server/src/http/connection-cap.ts';
import { requestLogger } from '../../apps/server/src/http/request-logger.ts';
import { quantile } from '../support/stats.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PER_KIND = Number(process.env.BENCH_REQUESTS ?? 2_000);
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? '1,32').split(',').map(Number);

const logger = createLogger({ level: 'warn' });
const BODY = JSON.stringify({ interaction: { title: 'Approve this commit?' } });

function buildBenchApp(admitted: boolean): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(requestId({ limitLength: 64 }));
  app.use(requestLogger(logger));
  if (admitted) app.use(admitRequests(new Admission({ mcp: 40, waits: 1_000, writes: 1_000, answers: 20, pages: 1_000 })));
  app.get('/s/bench', (c) => c.json({ state: 'open' }));
  app.post('/v1/bench', async (c) => c.json({ created: (await c.req.text()).length }, 201));
  return app;
}

async function listen(admitted: boolean): Promise<{ server: Server; port: number }> {
  const server = createAdaptorServer({ fetch: buildBenchApp(admitted).fetch }) as Server;
  if (admitted) new ConnectionCap({ soft: 10_000, hard: 11_000 }, logger, 256).attach(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

type Kind = 'page anchor' | 'page admitted' | 'write anchor' | 'write admitted';
const KINDS: Kind[] = ['page anchor', 'page admitted', 'write anchor', 'write admitted'];

function send(agent: Agent, port: number, kind: Kind): Promise<number> {
  const write = kind.startsWith('write');
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        agent,
        method: write ? 'POST' : 'GET',
        path: write ? '/v1/bench' : '/s/bench',
        headers: write ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY) } : {},
      },
      (response: IncomingMessage) => {
        response.resume();
        response.on('end', () => {
          if (response.statusCode !== (write ? 201 : 200)) reject(new Error(`${kind}: HTTP ${response.statusCode}`));
          else resolve((performance.now() - started) * 1000);
        });
      },
    );
    req.on('error', reject);
    req.end(write ? BODY : undefined);
  });
}

async function round(ports: { anchor: number; admitted: number }, concurrency: number): Promise<Record<Kind, number[]>> {
  const samples: Record<Kind, number[]> = { 'page anchor': [], 'page admitted': [], 'write anchor': [], 'write admitted': [] };
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency * 2 });
  let next = 0;
  const total = PER_KIND * KINDS.length;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const kind = KINDS[next++ % KINDS.length]!;
        const port = kind.endsWith('anchor') ? ports.anchor : ports.admitted;
        samples[kind].push(await send(agent, port, kind));
      }
    }),
  );
  agent.destroy();
  return samples;
}

/** The bookkeeping alone: admit a page and give its place back, no HTTP (ns per request). */
function bookkeepingNs(): number {
  const admission = new Admission({ mcp: 40, waits: 1_000, writes: 1_000, answers: 20, pages: 1_000 });
  const n = 2_000_000;
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i++) admission.admit('pages', undefined)?.release();
  return Number(process.hrtime.bigint() - started) / n;
}

const fmt = (us: number) => us.toFixed(0).padStart(6);
const anchor = await listen(false);
const admitted = await listen(true);
const ports = { anchor: anchor.port, admitted: admitted.port };
await round(ports, 4); // warm-up: JIT, sockets
console.log(`admission cost per request (µs), ${ROUNDS} rounds × ${PER_KIND} requests per kind, Node ${process.version}`);
for (const concurrency of CONCURRENCY) {
  const added: Record<'page' | 'write', number[]> = { page: [], write: [] };
  console.log(`\nconcurrency ${concurrency}`);
  for (let r = 0; r < ROUNDS; r++) {
    const samples = await round(ports, concurrency);
    const p = (kind: Kind, q: number) => quantile(samples[kind], q);
    console.log(
      `  round ${r + 1}: ${KINDS.map((kind) => `${kind} p50 ${fmt(p(kind, 0.5))} p99 ${fmt(p(kind, 0.99))}`).join(' | ')}`,
    );
    added.page.push(p('page admitted', 0.5) - p('page anchor', 0.5));
    added.write.push(p('write admitted', 0.5) - p('write anchor', 0.5));
  }
  for (const which of ['page', 'write'] as const) {
    const sorted = [...added[which]].sort((a, b) => a - b);
    console.log(
      `  ${which} added p50 (admitted − anchor): min ${sorted[0]!.toFixed(1)} / median ${quantile(sorted, 0.5).toFixed(1)} / max ${sorted.at(-1)!.toFixed(1)} µs`,
    );
  }
}
const ns = [bookkeepingNs(), bookkeepingNs(), bookkeepingNs()].sort((a, b) => a - b);
console.log(
  `\nbookkeeping alone (admit + give back, no HTTP): min ${ns[0]!.toFixed(0)} / median ${ns[1]!.toFixed(0)} / max ${ns[2]!.toFixed(0)} ns`,
);
for (const { server } of [anchor, admitted]) {
  server.closeAllConnections();
  server.close();
}
