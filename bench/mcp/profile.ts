/**
 * In-process CPU cost per request of the whole edge (the real app's /mcp, no sockets), for
 * profiling: `node --cpu-prof --import tsx bench/mcp/profile.ts [tools/list|sess_response|sess_ask] [N]`.
 * Prints CPU ms per request (user + system). PostgreSQL at 127.0.0.1:5432 (scratch database).
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createLogger, newSecret } from '@sess/core';
import { migrate, openDatabase, workspaces } from '@sess/db';
import { buildApp, loadConfig } from '@sess/server';
import { createTestUser, sampleSurface, signInAndAuthorize } from '@sess/testkit';
import { eq } from 'drizzle-orm';
import { createScratchDatabase } from '../support/scratch-database.ts';

const which = process.argv[2] ?? 'sess_response';
const N = Number(process.argv[3] ?? 3000);
// The local server (this script does not read BENCH_DATABASE_URL).
const scratch = await createScratchDatabase('sess_profile', 'postgres://postgres@127.0.0.1:5432/postgres');
try {
  const database = await openDatabase({ url: scratch.url, poolMax: 10 });
  await migrate(database.db);
  let fetcher: (r: Request) => Response | Promise<Response> = () => new Response(null, { status: 503 });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: (r) => fetcher(r), port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const secret = newSecret(32);
  const config = loadConfig({
    NODE_ENV: 'production',
    // A production server over http needs a push contact address (notifications stay on; no device, nothing sent).
    SESS_VAPID_SUBJECT: 'mailto:bench@sess.dev',
    PUBLIC_URL: url,
    LOG_LEVEL: 'warn',
    SESS_SECRET: secret,
    SESS_SIGNUP: 'open',
    SESS_MCP_RATE_PER_IP: '100000000',
    SESS_MCP_RATE_PER_PRINCIPAL: '100000000',
  });
  const app = buildApp({ config, database, logger: createLogger({ level: 'warn' }), secret, now: () => new Date() });
  fetcher = (r) => app.fetch(r);
  // sess_ask: one principal holds at most 100 unfinished interactions, so the calls go round a few.
  const people = which === 'sess_ask' ? Math.min(25, Math.ceil(N / 90) + 1) : 1;
  const accessTokens: string[] = [];
  for (let i = 0; i < people; i++) {
    const user = await createTestUser(database.db);
    await database.db.update(workspaces).set({ plan: 'enterprise' }).where(eq(workspaces.id, user.workspaceId));
    accessTokens.push((await signInAndAuthorize({ baseUrl: url, user })).tokens.accessToken);
  }
  const tokens = { accessToken: accessTokens[0]! };
  let turn = 0;
  const META = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'p', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const call = (method: string, params: Record<string, unknown>, toolName?: string) =>
    app.fetch(
      new Request(`${url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': method,
          ...(toolName ? { 'mcp-name': toolName } : {}),
          authorization: `Bearer ${toolName === 'sess_ask' ? accessTokens[turn++ % accessTokens.length] : tokens.accessToken}`,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: META } }),
      }),
    );
  const created = await (
    await call('tools/call', { name: 'sess_request', arguments: { interaction: sampleSurface() } }, 'sess_request')
  ).text();
  const handle = /"handle":"(hdl_[a-z2-7]+)"/.exec(created)?.[1];
  if (!handle) throw new Error(`create failed: ${created.slice(0, 400)}`);
  const one = async (i: number) => {
    let r: Response;
    if (which === 'tools/list') r = await call('tools/list', {});
    else if (which === 'sess_ask')
      r = await call(
        'tools/call',
        { name: 'sess_ask', arguments: { question: `Q${i}?`, fields: [{ name: 'ok', label: 'Ok?', type: 'boolean' }] } },
        'sess_ask',
      );
    else r = await call('tools/call', { name: 'sess_response', arguments: { handle, revision: 1, wait_ms: 0 } }, 'sess_response');
    const text = await r.text();
    if (r.status !== 200 || text.includes('"isError":true')) throw new Error(text.slice(0, 300));
  };
  const count = which === 'sess_ask' ? Math.min(N, (people - 1) * 90) : N;
  const warm = which === 'sess_ask' ? 80 : 200;
  for (let i = 0; i < warm; i++) await one(i);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < count; i++) await one(i);
  const cpu = process.cpuUsage(c0);
  console.log(
    `${which}: ${((cpu.user + cpu.system) / 1000 / count).toFixed(3)} ms CPU/req, ${((performance.now() - t0) / count).toFixed(3)} ms wall/req`,
  );
  server.close();
  await database.close();
} finally {
  await scratch.drop();
}
