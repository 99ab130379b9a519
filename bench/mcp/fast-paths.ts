/**
 * What each fast path of the /mcp edge saves (packages/host-free/mcp/src/http/fast-paths/README.md): the
 * edge's CPU per request with the path on and with it off (the handler's own options,
 * `cacheToolsList: false`, `answerPlainCalls: false`), in one process, in alternating rounds, so
 * a busy machine weighs on both alike. No sockets, no database: the edge alone, one request at a
 * time, on its web face. The tool call has no backend (it answers `NOT_CONFIGURED`): what differs
 * between the two paths is the SDK's per-request server, transport and validation, not the tool,
 * so the saving measured here is what every plain call saves (a real tool adds the same work to
 * both sides).
 *
 * Run: node --import tsx bench/mcp/fast-paths.ts [--rounds 7] [--requests 2000]
 * Prints min / median / max CPU µs per request for each case, and the median ratio off ÷ on.
 */
import { cpuUsage } from 'node:process';
import type { HandleStore, SessPrincipal } from '@sess/interactions';
import { createSessMcpHttpHandler, type SessMcpHttpHandler } from '@sess/mcp';
import { quantile } from '../support/stats.ts';

const argv = process.argv.slice(2);
const flag = (name: string, fallback: number) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : fallback);
const ROUNDS = flag('--rounds', 7);
const REQUESTS = flag('--requests', 2000);
const MODERN = '2026-07-28';

const principal: SessPrincipal = {
  workspaceId: 'ws_bench',
  principalId: 'usr_bench',
  clientId: 'cli_bench',
  grantId: 'grt_bench',
  grantGeneration: 1,
  scopes: ['sess:interact'],
};

function edge(options: { cacheToolsList?: boolean; answerPlainCalls?: boolean }): SessMcpHttpHandler {
  return createSessMcpHttpHandler({
    authenticate: () => principal,
    // Never read: without a backend every tool answers NOT_CONFIGURED before it opens a handle.
    handleStore: () => ({}) as HandleStore,
    allowedHosts: ['localhost'],
    resourceMetadataUrl: 'http://localhost/.well-known/oauth-protected-resource/mcp',
    rateLimit: { perIp: false, perPrincipal: false },
    ...options,
  });
}

/** A plain request of `method` as a 2026-07-28 client sends it. */
function modernRequest(id: number, method: 'tools/list' | 'tools/call', tool?: string): Request {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
  };
  if (tool) headers['mcp-name'] = tool;
  const params: Record<string, unknown> = {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  };
  if (tool) Object.assign(params, { name: tool, arguments: { status: 'open' } });
  return new Request('http://localhost/mcp', {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
}

/** CPU µs per request over REQUESTS requests, one at a time. */
async function round(handler: SessMcpHttpHandler, make: (id: number) => Request): Promise<number> {
  const started = cpuUsage();
  for (let i = 0; i < REQUESTS; i++) {
    const response = await handler.fetch(make(i), { clientAddress: '127.0.0.1' });
    if (response.status !== 200) throw new Error(`status ${response.status}`);
    await response.arrayBuffer();
  }
  const used = cpuUsage(started);
  return (used.user + used.system) / REQUESTS;
}

const CASES = [
  {
    name: 'tools/list (cacheToolsList)',
    on: edge({}),
    off: edge({ cacheToolsList: false }),
    make: (id: number) => modernRequest(id, 'tools/list'),
  },
  {
    name: 'tools/call sess_list (answerPlainCalls)',
    on: edge({}),
    off: edge({ answerPlainCalls: false }),
    make: (id: number) => modernRequest(id, 'tools/call', 'sess_list'),
  },
];

const fmt = (samples: number[]) =>
  `${quantile(samples, 0).toFixed(0)} / ${quantile(samples, 0.5).toFixed(0)} / ${quantile(samples, 1).toFixed(0)} µs`;

for (const { name, on, off, make } of CASES) {
  // Warm both (JIT, the frames' capture) before measuring.
  await round(on, make);
  await round(off, make);
  const samples = { on: [] as number[], off: [] as number[] };
  for (let r = 0; r < ROUNDS; r++) {
    // Alternate which goes first, so neither always follows the other.
    const order = r % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const);
    for (const which of order) samples[which].push(await round(which === 'on' ? on : off, make));
  }
  const ratio = quantile(samples.off, 0.5) / quantile(samples.on, 0.5);
  process.stdout.write(
    `${name}: on ${fmt(samples.on)}, off ${fmt(samples.off)} (min / median / max CPU per request, ${ROUNDS} rounds of ${REQUESTS}); ` +
      `off ÷ on ${ratio.toFixed(2)}×\n`,
  );
  await on.close();
  await off.close();
}
