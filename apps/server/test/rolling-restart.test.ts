import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { queryRows } from '@sess/db';
import {
  childLogLevel,
  createTestDatabase,
  createWorkspaceWithKey,
  findForm,
  freePort,
  onlyOn,
  sampleSurface,
  TEST_SECRET,
  type TestDatabase,
  type TestWorkspace,
} from '@sess/testkit';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/index.ts';
import { type CaddyProcess, startCaddy } from './support/caddy-process.ts';
import { type CliProcess, startCli } from './support/cli-process.ts';

/*
 * A rolling restart under load, end to end: three real `sess serve` processes on one PostgreSQL
 * database, behind Debian's caddy with the deploy files' reverse_proxy settings
 * (deploy/sess-upstream.caddy). While creates, answers and parked waits run through the proxy,
 * each replica in turn gets SIGTERM (it drains for the production SHUTDOWN_DRAIN_MS, answers its
 * parked waits, exits 0) and is started again. No client sees an error: every request gets the
 * answer it expects on its first try (no 5xx, no reset, nothing retried by the client); a wait
 * answered early says `waiting`, and its client waits again, as the contract says. Nothing is
 * lost or doubled: each idempotency key maps to one session, each answer posted is read back by
 * a wait, and the database holds exactly what the clients were told.
 *
 * PostgreSQL only: replicas share one database, which PGlite (one process) cannot. On the waiter
 * hub that did not answer its parked waits at close, this fails: each stop holds its waits for
 * the 10 s grace, cuts them, and Caddy answers those clients 502 (/v1 waits and sess_response).
 */

const onPostgres = onlyOn('server: a rolling restart of three replicas');
const REPLICAS = 3;
/** Clients that loop create → answer on the page → wait for the answer: over /v1, and over /mcp (then complete). */
const V1_LOOPS = 3;
const MCP_LOOPS = 1;
/** Waits parked before the first stop and held until the restarts are over: /v1, the answer page's live wait, MCP sess_response. */
const PARKED = { v1: 4, page: 2, mcp: 3 };
/** The drain Sess has in production, which the deploy snippet's health checks (every second) are set for. */
const DRAIN_MS = loadConfig({ NODE_ENV: 'production', SESS_SECRET: TEST_SECRET, SESS_NOTIFICATIONS: 'off' }).shutdownDrainMs;

/** The `server.*` log lines a replica writes (its stop: stopping with the waits it answered, stopped, grace_elapsed). */
function serverEvents(replica: CliProcess): Array<{ event: string; parkedWaits?: number }> {
  const events: Array<{ event: string; parkedWaits?: number }> = [];
  let pending = '';
  replica.child.stdout.on('data', (chunk) => {
    pending += String(chunk);
    for (let at = pending.indexOf('\n'); at >= 0; at = pending.indexOf('\n')) {
      const line = pending.slice(0, at);
      pending = pending.slice(at + 1);
      if (/^\{.*"event":"server\./.test(line)) events.push(JSON.parse(line));
    }
  });
  return events;
}

type View = {
  sessionId?: string;
  handle?: string;
  state: string;
  response?: { eventId: string; values: { message?: string } } | null;
};
type Outcome = { state: string; message: string | undefined; answeredWaiting: number };

describe.runIf(onPostgres)('a rolling restart of three replicas behind Caddy, under load', () => {
  let database: TestDatabase;
  let workspace: TestWorkspace;
  let caddy: CaddyProcess;
  const ports: number[] = [];
  const replicas: CliProcess[] = [];
  const replicaEvents: Array<Array<{ event: string; parkedWaits?: number }>> = [];
  const clients: Client[] = [];

  // What the clients saw.
  const counts: Record<string, number> = {}; // HTTP requests through the proxy, by kind
  const toolCalls: Record<string, number> = {}; // MCP tool calls (their requests are counted as "mcp")
  const errors: string[] = [];
  const v1Keys = new Map<string, string>(); // idempotency key → the sessionId it was answered with
  let mcpCreates = 0;
  let answersPosted = 0;
  let cycles = 0;

  const replicaEnv = (port: number) => ({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${ports[REPLICAS]}`, // the proxy's
    DATABASE_URL: database.url!,
    DB_POOL_MAX: '4',
    SESS_SECRET: TEST_SECRET,
    SESS_TRUSTED_PROXIES: 'loopback',
    // One client address and one key make all of this load: the per-minute limits would answer first.
    SESS_MCP_RATE_PER_IP: '0',
    SESS_MCP_RATE_PER_PRINCIPAL: '0',
    SESS_TEST_LOOPBACK_EGRESS: '1',
    SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
    LOG_LEVEL: childLogLevel('info'),
  });
  async function startReplica(index: number): Promise<CliProcess> {
    const replica = startCli(['serve'], replicaEnv(ports[index]!));
    replicas[index] = replica;
    replicaEvents[index] = serverEvents(replica);
    await replica.waitFor(/Sess is running at/, 120_000);
    return replica;
  }

  /** A request through the proxy, counted; anything but `expected` is a client error. */
  async function send(kind: string, path: string | URL, init: RequestInit, expected: number): Promise<Response> {
    counts[kind] = (counts[kind] ?? 0) + 1;
    let response: Response;
    try {
      response = await fetch(new URL(path, caddy.url), init);
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? String(error);
      errors.push(`${kind}: ${cause}`);
      throw error;
    }
    if (response.status !== expected) {
      errors.push(`${kind}: ${response.status} ${(await response.text()).slice(0, 200)}`);
      throw new Error(`${kind}: ${response.status}`);
    }
    return response;
  }
  const v1 = (kind: string, path: string, init: RequestInit = {}, expected = 200) =>
    send(
      kind,
      path,
      { ...init, headers: { authorization: `Bearer ${workspace.apiKey}`, 'content-type': 'application/json', ...init.headers } },
      expected,
    );

  async function createOnV1(key: string): Promise<{ sessionId: string; humanUrl: string }> {
    const created = (await (
      await v1(
        'create',
        '/v1/sessions',
        {
          method: 'POST',
          headers: { 'idempotency-key': key },
          body: JSON.stringify({ interaction: sampleSurface(`Release ${key}?`) }),
        },
        201,
      )
    ).json()) as { sessionId: string; humanUrl: string };
    v1Keys.set(key, created.sessionId);
    return created;
  }

  /** The person answers on the page behind the link (GET, then the form's POST), through the proxy. */
  async function answerOnPage(humanUrl: string, message: string): Promise<void> {
    const url = new URL(humanUrl);
    expect(url.origin).toBe(caddy.url);
    const page = await send('page', url, {}, 200);
    const form = findForm(await page.text(), url.pathname);
    const body = new URLSearchParams(form.fields);
    body.set('message', message);
    body.set(Object.keys(form.buttons)[0]!, 'approve');
    await send(
      'answer',
      url,
      {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url.origin },
        body,
      },
      303,
    );
    answersPosted++;
  }

  async function connectMcp(): Promise<Client> {
    const client = new Client({ name: 'rolling-restart', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', caddy.url), {
        requestInit: { headers: { Authorization: `Bearer ${workspace.apiKey}` } },
        fetch: async (url, init) => {
          counts.mcp = (counts.mcp ?? 0) + 1;
          try {
            const response = await fetch(url, init);
            if (response.status >= 500) errors.push(`mcp: ${response.status}`);
            return response;
          } catch (error) {
            errors.push(`mcp: ${(error as { cause?: { code?: string } }).cause?.code ?? String(error)}`);
            throw error;
          }
        },
      }),
    );
    clients.push(client);
    return client;
  }
  async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<View> {
    toolCalls[name] = (toolCalls[name] ?? 0) + 1;
    let result: { isError?: boolean; structuredContent: { interaction: View; error?: unknown } };
    try {
      result = (await client.callTool({ name, arguments: args })) as typeof result;
    } catch (error) {
      errors.push(`mcp ${name}: ${String(error)}`);
      throw error;
    }
    if (result.isError) {
      errors.push(`mcp ${name}: ${JSON.stringify(result.structuredContent.error)}`);
      throw new Error(`mcp ${name} failed`);
    }
    return result.structuredContent.interaction;
  }

  /** Waits until `view` is no longer `open` for that wait, counting the times it was answered unchanged (the stop of a replica, or its 45 s). */
  async function waitUntilChanged(wait: () => Promise<View>, unchanged: string): Promise<Outcome> {
    let answeredWaiting = 0;
    for (;;) {
      let view: View;
      try {
        view = await wait();
      } catch {
        return { state: 'failed (a client error, counted)', message: undefined, answeredWaiting };
      }
      if (view.state !== unchanged) return { state: view.state, message: view.response?.values.message, answeredWaiting };
      answeredWaiting++;
    }
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    workspace = await createWorkspaceWithKey(database.db, { plan: 'pro' });
    for (let i = 0; i <= REPLICAS + 1; i++) ports.push(await freePort());
    // ports: three replicas, the proxy, the proxy's admin API.
    await Promise.all(Array.from({ length: REPLICAS }, (_, index) => startReplica(index)));
    caddy = await startCaddy({
      port: ports[REPLICAS]!,
      adminPort: ports[REPLICAS + 1]!,
      upstreams: ports.slice(0, REPLICAS).map((port) => `127.0.0.1:${port}`),
    });
  }, 180_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => {})));
    // SIGINT: stop at once, no drain.
    for (const replica of replicas) if (replica?.child.exitCode === null) replica.child.kill('SIGINT');
    await Promise.all(replicas.map((replica) => replica?.exited));
    await caddy?.stop();
    await database?.destroy();
  }, 60_000);

  it('SIGTERM one replica at a time: 0 client errors, nothing lost or doubled, every wait ends with a valid state', async () => {
    const mcp = await connectMcp();

    // Parked waits, spread over the replicas, held through every stop.
    const parked: Array<{ humanUrl: string; message: string; outcome: Promise<Outcome>; expectsMessage: boolean }> = [];
    for (let n = 0; n < PARKED.v1; n++) {
      const created = await createOnV1(`parked-v1-${n}`);
      const outcome = waitUntilChanged(
        async () => (await (await v1('wait', `/v1/sessions/${created.sessionId}?wait_ms=45000`)).json()) as View,
        'waiting',
      );
      parked.push({ humanUrl: created.humanUrl, message: `Parked v1 ${n}`, outcome, expectsMessage: true });
    }
    for (let n = 0; n < PARKED.page; n++) {
      const created = await createOnV1(`parked-page-${n}`);
      const token = new URL(created.humanUrl).pathname.split('/')[2]!;
      const outcome = waitUntilChanged(
        async () => (await (await send('page wait', `/s/${token}/wait?revision=1&state=open`, {}, 200)).json()) as View,
        'open',
      );
      parked.push({ humanUrl: created.humanUrl, message: `Parked page ${n}`, outcome, expectsMessage: false });
    }
    for (let n = 0; n < PARKED.mcp; n++) {
      const created = await callTool(mcp, 'sess_request', { interaction: sampleSurface(`Parked MCP ${n}?`) });
      mcpCreates++;
      const outcome = waitUntilChanged(
        () => callTool(mcp, 'sess_response', { handle: created.handle, revision: 1, wait_ms: 45_000 }),
        'waiting',
      );
      parked.push({
        humanUrl: (created as { humanUrl: string } & View).humanUrl,
        message: `Parked MCP ${n}`,
        outcome,
        expectsMessage: true,
      });
    }
    const parkedCount = PARKED.v1 + PARKED.page + PARKED.mcp;
    // Every parked wait is in flight at a replica (the proxy's own count) before the first stop.
    await expect
      .poll(
        async () => {
          const upstreams = (await (await fetch(`${caddy.adminUrl}/reverse_proxy/upstreams`)).json()) as Array<{
            num_requests: number;
          }>;
          return upstreams.reduce((sum, upstream) => sum + upstream.num_requests, 0);
        },
        { timeout: 30_000, interval: 20 },
      )
      .toBeGreaterThanOrEqual(parkedCount);

    // The load: loops that run until the last replica is back.
    let restarting = true;
    const v1Loop = async (loop: number) => {
      for (let i = 0; restarting && errors.length <= 50; i++) {
        const key = `loop-${loop}-${i}`;
        const message = `Ship ${key}`;
        try {
          const created = await createOnV1(key);
          await answerOnPage(created.humanUrl, message);
          const read = (await (await v1('wait', `/v1/sessions/${created.sessionId}?wait_ms=45000`)).json()) as View;
          if (read.state !== 'answered' || read.response?.values.message !== message)
            errors.push(`wait read back ${JSON.stringify({ state: read.state, values: read.response?.values })} for ${key}`);
          cycles++;
        } catch {
          // counted in errors
        }
      }
    };
    const mcpLoop = async (client: Client) => {
      for (let i = 0; restarting && errors.length <= 50; i++) {
        const message = `MCP ${i}`;
        try {
          const created = (await callTool(client, 'sess_request', { interaction: sampleSurface(`MCP loop ${i}?`) })) as View & {
            humanUrl: string;
          };
          mcpCreates++;
          await answerOnPage(created.humanUrl, message);
          const read = await callTool(client, 'sess_response', { handle: created.handle, revision: 1, wait_ms: 45_000 });
          if (read.state !== 'answered' || read.response?.values.message !== message)
            errors.push(`sess_response read back ${JSON.stringify({ state: read.state, values: read.response?.values })}`);
          else
            await callTool(client, 'sess_complete', {
              handle: created.handle,
              expected_revision: 1,
              response_event_id: read.response.eventId,
            });
          cycles++;
        } catch {
          // counted in errors
        }
      }
    };
    const loops = [
      ...Array.from({ length: V1_LOOPS }, (_, loop) => v1Loop(loop)),
      ...(await Promise.all(Array.from({ length: MCP_LOOPS }, () => connectMcp()))).map(mcpLoop),
    ];
    await expect.poll(() => cycles, { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(V1_LOOPS + MCP_LOOPS);

    // The rolling restart: one replica at a time, the next only once the proxy has the last one back.
    let waitsAnsweredAtStop = 0;
    for (let index = 0; index < REPLICAS; index++) {
      const host = `127.0.0.1:${ports[index]}`;
      const before = caddy.logs().length;
      replicas[index]!.child.kill('SIGTERM');
      // The proxy's health check sees the drain (503) while the replica still serves…
      await caddy.waitForLog(
        (line) => line.msg === 'unexpected status code' && line.host === host && line.status_code === 503,
        before,
      );
      // …and the replica exits 0 once it has answered its waits and finished its requests, within the grace.
      expect((await replicas[index]!.exited).code).toBe(0);
      const events = replicaEvents[index]!;
      expect(events.map((line) => line.event)).toEqual(
        expect.arrayContaining(['server.draining', 'server.stopping', 'server.stopped']),
      );
      expect(events.map((line) => line.event)).not.toContain('server.grace_elapsed');
      waitsAnsweredAtStop += events.find((line) => line.event === 'server.stopping')!.parkedWaits!;
      const stopped = caddy.logs().length;
      await startReplica(index);
      await caddy.waitForLog((line) => line.msg === 'host is up' && line.host === host, stopped);
    }
    restarting = false;
    await Promise.all(loops);

    // The parked waits get their answers now, and each reads back its own.
    for (const wait of parked) await answerOnPage(wait.humanUrl, wait.message);
    const outcomes = await Promise.all(parked.map((wait) => wait.outcome));

    const answeredWaiting = outcomes.reduce((sum, outcome) => sum + outcome.answeredWaiting, 0);
    const requests = Object.values(counts).reduce((sum, n) => sum + n, 0);
    console.info(
      `rolling restart: ${requests} requests through the proxy ${JSON.stringify(counts)}, MCP tool calls ${JSON.stringify(toolCalls)}, ` +
        `${cycles} create→answer→wait cycles, ` +
        `${waitsAnsweredAtStop} waits answered by the stopping replicas, ${parkedCount} parked waits answered "waiting" ${answeredWaiting} times ` +
        `before their answer, ${v1Keys.size} idempotency keys`,
    );
    expect(errors).toEqual([]);
    expect(caddy.logs().filter((line) => line.logger === 'http.log.error')).toEqual([]);
    for (const [i, outcome] of outcomes.entries()) {
      const wait = parked[i]!;
      expect(outcome.state).toBe('answered');
      if (wait.expectsMessage) expect(outcome.message).toBe(wait.message);
      // Every parked wait sat on a replica that stopped: it was answered `waiting` at least once.
      expect(outcome.answeredWaiting).toBeGreaterThanOrEqual(1);
    }
    // The stopping replicas say so too (a wait may also have ended by its own time limit: the page's is 25 s).
    expect(waitsAnsweredAtStop).toBeGreaterThan(0);

    // Nothing doubled: each key again gives the session it gave the first time.
    for (const [key, sessionId] of v1Keys) {
      const replay = await fetch(`${caddy.url}/v1/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${workspace.apiKey}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ interaction: sampleSurface(`Release ${key}?`) }),
      });
      expect(replay.status).toBe(201);
      expect(((await replay.json()) as { sessionId: string }).sessionId).toBe(sessionId);
    }
    // Nothing lost or doubled in the database: one session per key and per MCP create, one answer per post.
    const [row] = await queryRows<{ sessions: number; answers: number }>(
      database.db,
      sql`select (select count(*)::int from form_sessions where workspace_id = ${workspace.workspaceId}) as sessions,
                 (select count(*)::int from form_answers where workspace_id = ${workspace.workspaceId}) as answers`,
    );
    expect(row).toEqual({ sessions: v1Keys.size + mcpCreates, answers: answersPosted });
    // MCP's creates and completes keep their own keys in the same scope: every client key is among them.
    const keys = await queryRows<{ key: string }>(
      database.db,
      sql`select key from idempotency_keys where workspace_id = ${workspace.workspaceId} and scope = 'v1'`,
    );
    expect(keys.filter(({ key }) => v1Keys.has(key))).toHaveLength(v1Keys.size);
  }, 240_000);
});
