/**
 * What the egress check costs per connection, beside an unchecked connection in the same run.
 *
 *   node --import tsx bench/egress/run.ts        (as root: it makes a network namespace)
 *
 * The bench re-runs itself inside a network namespace of its own where a public address
 * (93.184.216.34) is assigned to loopback, so production's policy (`public`) can reach it. A
 * listener there accepts each connection and closes it at the client's first TLS bytes, so
 * every request is one new connection that ends the same way on every path:
 * - anchor: node:https `request` to the address, through a keep-alive agent, no check at all;
 * - egress, the address in the URL: the same plus the URL check and the peer check;
 * - egress, a name (cached): plus the lookup, answered from the egress's DNS cache;
 * - egress, a name with TTL 0: plus a DNS question to a server on the namespace's loopback.
 * Rounds alternate the paths request by request; each prints p50 and p99 per connection, and
 * the end prints min / median / max over the rounds, with each egress path's p50 minus the
 * anchor's p50 of the same round ("added").
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:https';
import { type AddressInfo, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createEgress } from '@sess/core/egress';
import { startDnsServer } from '@sess/testkit/dns-server';
import { quantile } from '../support/stats.ts';

const PUBLIC_ADDRESS = '93.184.216.34';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PER_ROUND = Number(process.env.BENCH_REQUESTS ?? 2_000);

if (process.env.BENCH_EGRESS_INSIDE) await measure();
else runInNamespace();

function runInNamespace(): void {
  const namespace = `sess-bench-egress-${randomBytes(3).toString('hex')}`;
  execFileSync('ip', ['netns', 'add', namespace]);
  try {
    execFileSync('ip', ['netns', 'exec', namespace, 'ip', 'link', 'set', 'lo', 'up']);
    execFileSync('ip', ['netns', 'exec', namespace, 'ip', 'addr', 'add', `${PUBLIC_ADDRESS}/32`, 'dev', 'lo']);
    const self = fileURLToPath(import.meta.url);
    const result = spawnSync('ip', ['netns', 'exec', namespace, process.execPath, '--import', 'tsx', self], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_EGRESS_INSIDE: '1' },
    });
    process.exitCode = result.status ?? 1;
  } finally {
    execFileSync('ip', ['netns', 'del', namespace]);
  }
}

async function measure(): Promise<void> {
  const listener = createServer((socket) => {
    socket.once('data', () => socket.destroy());
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => listener.listen(0, PUBLIC_ADDRESS, resolve));
  const port = (listener.address() as AddressInfo).port;
  const dns = await startDnsServer();
  dns.set('cached.bench.test', [PUBLIC_ADDRESS], 3_600);
  dns.set('uncached.bench.test', [PUBLIC_ADDRESS], 0);
  const egress = createEgress({ policy: 'public', dnsServers: [dns.server] });
  const agent = new Agent({ keepAlive: true });

  const unchecked = () =>
    new Promise<void>((resolve) => {
      const req = request(`https://${PUBLIC_ADDRESS}:${port}/`, { agent }, () => resolve());
      req.on('error', () => resolve());
      req.end();
    });
  const through = (host: string) => async () => {
    const result = await egress.request({ url: `https://${host}:${port}/`, timeoutMs: 5_000, maxBytes: 1_024 });
    // Connected and checked, then the listener closed at the handshake: anything else is a broken bench.
    if (result.ok || result.reason !== 'network') throw new Error(`unexpected: ${JSON.stringify(result)}`);
  };
  const paths: Array<[string, () => Promise<void>]> = [
    ['anchor: https.request, no check', unchecked],
    ['egress: address in the URL', through(PUBLIC_ADDRESS)],
    ['egress: name, cached', through('cached.bench.test')],
    ['egress: name, TTL 0 (DNS every time)', through('uncached.bench.test')],
  ];

  for (const [, run] of paths) for (let i = 0; i < 200; i++) await run(); // warm-up
  const rounds = new Map<string, Array<{ p50: number; p99: number }>>(paths.map(([name]) => [name, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    const samples = new Map<string, number[]>(paths.map(([name]) => [name, []]));
    for (let i = 0; i < PER_ROUND; i++) {
      for (const [name, run] of paths) {
        const started = performance.now();
        await run();
        samples.get(name)!.push((performance.now() - started) * 1000);
      }
    }
    console.log(`round ${round}: ${PER_ROUND} connections per path, µs per connection`);
    for (const [name] of paths) {
      const p50 = quantile(samples.get(name)!, 0.5);
      const p99 = quantile(samples.get(name)!, 0.99);
      rounds.get(name)!.push({ p50, p99 });
      console.log(`  ${name.padEnd(40)} p50 ${p50.toFixed(0).padStart(6)}   p99 ${p99.toFixed(0).padStart(6)}`);
    }
  }

  const spread = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return `${sorted[0]!.toFixed(0)} / ${quantile(sorted, 0.5).toFixed(0)} / ${sorted.at(-1)!.toFixed(0)}`;
  };
  const anchor = rounds.get(paths[0]![0])!;
  console.log(
    `\nover ${ROUNDS} rounds, min / median / max, µs per connection ("added": p50 minus the anchor's p50 in the same round)`,
  );
  for (const [name] of paths) {
    const values = rounds.get(name)!;
    const added = name.startsWith('egress') ? `   added ${spread(values.map((v, i) => v.p50 - anchor[i]!.p50))}` : '';
    console.log(`  ${name.padEnd(40)} p50 ${spread(values.map((v) => v.p50))}   p99 ${spread(values.map((v) => v.p99))}${added}`);
  }
  egress.close();
  agent.destroy();
  await dns.close();
  listener.close();
}
