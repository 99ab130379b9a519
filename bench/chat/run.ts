/**
 * The form inside the chat (MCP Apps, issue 36), on the real server (startServer: migrations,
 * logging, the whole /mcp edge) with the embedded PGlite (or PostgreSQL: `postgres`), a person
 * signed in through the real OAuth flow, and the real v2 MCP client declaring the UI extension:
 *
 * 1. The UI resource's size, as resources/read serves it (target: under 60 KB), and gzipped.
 * 2. Tool result → rendered, interactive form in the test host (Chromium, ext-apps' AppBridge,
 *    the sandboxed iframe under the hosts' CSP): p50 over 20 renders, beside the anchor measured
 *    in the same run, the answer page itself loaded in the same browser (goto → the same form
 *    interactive).
 * 3. sess_request for a host that renders apps (its result carries the rendered view and a token)
 *    beside the same call from a client that renders nothing, interleaved.
 * 4. Answer → the agent's parked sess_response returns answered: in the chat (sess_view_answer
 *    through the client, as a host proxies the view's call) beside the link page (GET the page,
 *    POST the form), interleaved, min / p50 / p99 / max.
 *
 * Run: node --import tsx bench/chat/run.ts [pglite|postgres] [--answers N]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createLogger, newSecret } from '@sess/core';
import { workspaces } from '@sess/db';
import { loadConfig, startServer } from '@sess/server';
import { answerOnPage, createTestUser, freePort, sampleSurface, signInAndAuthorize } from '@sess/testkit';
import { launchTestBrowser, SCREEN_SIZES } from '@sess/testkit/browser';
import { type CallToolResult, openAppHost } from '@sess/testkit/mcp-app-host';
import { eq } from 'drizzle-orm';
import { createScratchDatabase } from '../support/scratch-database.ts';
import { quantile } from '../support/stats.ts';

const argv = process.argv.slice(2);
const driver = argv.includes('postgres') ? 'postgres' : 'pglite';
const answersFlag = argv.indexOf('--answers');
const ANSWERS = answersFlag === -1 ? 60 : Number(argv[answersFlag + 1]);
const RENDERS = 20;
const UI = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };

type Result = {
  structuredContent?: { interaction?: { handle: string; humanUrl?: string; state: string; response?: { eventId: string } } };
  _meta?: Record<string, unknown>;
};
const interactionOf = (result: unknown) => (result as Result).structuredContent!.interaction!;
function tokenOf(result: unknown): string {
  const token = ((result as Result)._meta?.['si.sess/view'] as { token?: string } | undefined)?.token;
  if (!token) throw new Error('the result carries no view token: is the UI extension declared?');
  return token;
}

function line(name: string, samples: number[], unit = 'ms'): string {
  const f = (n: number) => n.toFixed(1);
  return `  ${name.padEnd(34)} min ${f(Math.min(...samples))} · p50 ${f(quantile(samples, 0.5))} · p99 ${f(quantile(samples, 0.99))} · max ${f(Math.max(...samples))} ${unit} (n=${samples.length})`;
}

const dataDir = mkdtempSync(join(tmpdir(), 'sess-bench-chat-'));
const scratch = driver === 'postgres' ? await createScratchDatabase('sess_bench_chat') : null;
// PUBLIC_URL is the server's own address: OAuth discovery and the links name it.
const port = await freePort();
const config = loadConfig({
  NODE_ENV: 'production',
  SESS_VAPID_SUBJECT: 'mailto:bench@sess.dev',
  PORT: String(port),
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  LOG_LEVEL: 'warn',
  SESS_SECRET: newSecret(32),
  SESS_DATA_DIR: dataDir,
  SESS_MCP_RATE_PER_PRINCIPAL: '6000',
  ...(scratch ? { DATABASE_URL: scratch.url } : {}),
});
const server = await startServer(config, { logger: createLogger({ level: 'warn' }) });
const browser = await launchTestBrowser();
try {
  const person = await createTestUser(server.database.db);
  await server.database.db.update(workspaces).set({ plan: 'enterprise' }).where(eq(workspaces.id, person.workspaceId));
  const connected = await signInAndAuthorize({ baseUrl: server.url, user: person });
  const client = new Client({ name: 'sess-bench-host', version: '1' }, { capabilities: UI });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${connected.tokens.accessToken}` } },
    }),
  );
  const plain = new Client({ name: 'sess-bench-plain', version: '1' });
  await plain.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${connected.tokens.accessToken}` } },
    }),
  );
  const create = async (title: string, by: Client = client) =>
    by.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface(title) } });

  // 1. The resource.
  const { resources } = await client.listResources();
  const read = await client.readResource({ uri: resources[0]!.uri });
  const html = (read.contents[0] as { text: string }).text;
  const bytes = Buffer.byteLength(html);

  // 2. Render: tool result → the form's send button visible and enabled, in the host and on the page.
  const chatRenders: number[] = [];
  const pageRenders: number[] = [];
  const host = await openAppHost(browser, {
    html,
    context: SCREEN_SIZES.phone,
    callTool: (params) => client.callTool(params) as Promise<CallToolResult>,
  });
  const page = await (await browser.newContext(SCREEN_SIZES.phone)).newPage();
  for (let i = 0; i < RENDERS + 2; i++) {
    const created = await create(`Render ${i}`);
    let started = performance.now();
    await host.sendToolResult(created as CallToolResult);
    await host.frame.getByRole('heading', { level: 1, name: `Render ${i}` }).waitFor();
    await host.frame.getByRole('button', { name: 'Approve and commit' }).waitFor();
    const chat = performance.now() - started;
    started = performance.now();
    await page.goto(interactionOf(created).humanUrl!);
    await page.getByRole('button', { name: 'Approve and commit' }).waitFor();
    const onPage = performance.now() - started;
    // Each principal holds at most 100 unfinished interactions: every one is withdrawn once measured.
    await client.callTool({ name: 'sess_cancel', arguments: { handle: interactionOf(created).handle } });
    // The first two warm the browser and the server up.
    if (i >= 2) {
      chatRenders.push(chat);
      pageRenders.push(onPage);
    }
  }
  await host.close();

  // 3. The cost of the view on a create: the same sess_request from both clients, interleaved.
  const uiCreates: number[] = [];
  const plainCreates: number[] = [];
  for (let i = 0; i < ANSWERS + 4; i++) {
    for (const [by, samples] of [
      [client, uiCreates],
      [plain, plainCreates],
    ] as const) {
      const started = performance.now();
      const created = await create(`Create ${i}`, by);
      if (i >= 4) samples.push(performance.now() - started);
      await by.callTool({ name: 'sess_cancel', arguments: { handle: interactionOf(created).handle } });
    }
  }
  await plain.close();

  // 4. Answer → the parked sess_response returns.
  const viaChat: number[] = [];
  const viaLink: number[] = [];
  for (let i = 0; i < ANSWERS + 4; i++) {
    for (const way of ['chat', 'link'] as const) {
      const created = await create(`Answer ${i} ${way}`);
      const { handle, humanUrl } = interactionOf(created);
      const waiting = client.callTool({ name: 'sess_response', arguments: { handle, revision: 1, wait_ms: 30_000 } });
      const started = performance.now();
      if (way === 'chat') {
        await client.callTool({
          name: 'sess_view_answer',
          arguments: { handle, revision: 1, token: tokenOf(created), action_id: 'approve', values: { message: 'bench' } },
        });
      } else {
        const status = await answerOnPage(humanUrl!, { message: 'bench' }, 'approve');
        if (status !== 303) throw new Error(`the page refused the answer: ${status}`);
      }
      const read = interactionOf(await waiting);
      const took = performance.now() - started;
      if (read.state !== 'answered') throw new Error(`sess_response said ${read.state}`);
      if (i >= 4) (way === 'chat' ? viaChat : viaLink).push(took);
      await client.callTool({
        name: 'sess_complete',
        arguments: { handle, expected_revision: 1, response_event_id: read.response!.eventId },
      });
    }
  }
  await client.close();

  const [one, five, fifteen] = loadavg();
  console.log(`bench/chat on ${driver} (load ${one!.toFixed(2)} ${five!.toFixed(2)} ${fifteen!.toFixed(2)}, 2 shared cores)`);
  console.log(`  UI resource: ${bytes} bytes (target < 61440), ${gzipSync(html).length} gzipped`);
  console.log('Tool result → interactive form (Chromium, 390×844):');
  console.log(line('in the chat host (AppBridge iframe)', chatRenders));
  console.log(line('anchor: the answer page (goto)', pageRenders));
  console.log('sess_request, whole round trip:');
  console.log(line('a host that renders apps (+ view)', uiCreates));
  console.log(line('anchor: a client that renders nothing', plainCreates));
  console.log('Answer → the parked sess_response returns answered:');
  console.log(line('in the chat (sess_view_answer)', viaChat));
  console.log(line('anchor: on the link page (GET+POST)', viaLink));
} finally {
  await browser.close();
  await server.close();
  await scratch?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
