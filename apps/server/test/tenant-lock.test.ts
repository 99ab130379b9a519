import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type Database, openDatabase, queryRows } from '@sess/db';
import {
  createTestDatabase,
  createWorkspaceWithKey,
  onlyOn,
  sampleSurface,
  type TestDatabase,
  type TestWorkspace,
} from '@sess/testkit';
import { type AppServer, startAppServer } from '@sess/testkit/app-server';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { answerOnPage } from './support/answer-page.ts';

/*
 * One workspace's counter row (`open_counts`), or the whole table, held by another session —
 * what a slow transaction, a stuck migration or an operator's console can do. The real app over
 * HTTP on a database of this test's own, its pool small (4: one connection kept for reads, one
 * workspace's writes at most two at a time), PostgreSQL's lock_timeout 1 s: the blocked
 * workspace's writes get a retryable 503 that says nothing was changed while the lock is still
 * held, every other workspace works throughout, and once the lock goes the same requests
 * (same idempotency keys) go through exactly once.
 *
 * PostgreSQL only: PGlite is one connection in the app's own process, so no other session can
 * hold a lock there.
 */

const onPostgres = onlyOn('server: a lock held on a workspace’s counter');
const POOL = 4;

type Created = { sessionId: string; humanUrl: string };
type View = { state: string; revision: number; response: { eventId: string } | null };
type Interaction = { handle: string; state: string; humanUrl?: string; response?: { eventId: string } };
type ToolError = { code: string; message: string; retryable: boolean };
const interactionOf = (result: unknown) =>
  (result as { structuredContent: { interaction: Interaction } }).structuredContent.interaction;
const toolErrorOf = (result: unknown) => {
  const r = result as { isError?: boolean; structuredContent: { error: ToolError } };
  expect(r.isError).toBe(true);
  return r.structuredContent.error;
};

describe.runIf(onPostgres)('a lock held on one workspace’s counter, or on the counters’ table', () => {
  let database: TestDatabase;
  let opened: Database;
  let server: AppServer;
  let holder: postgres.Sql;

  const call = (
    workspace: TestWorkspace,
    method: string,
    path: string,
    init: { body?: unknown; headers?: Record<string, string> } = {},
  ) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${workspace.apiKey}`, 'content-type': 'application/json', ...init.headers },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
  const create = (workspace: TestWorkspace, key: string) =>
    call(workspace, 'POST', '/v1/sessions', { headers: { 'idempotency-key': key }, body: { interaction: sampleSurface(key) } });
  const complete = (workspace: TestWorkspace, session: Created, eventId: string, key: string) =>
    call(workspace, 'POST', `/v1/sessions/${session.sessionId}/complete`, {
      headers: { 'idempotency-key': key, 'if-match': '"1"' },
      body: { response_event_id: eventId },
    });
  /** A session made and answered on its page, with its answer's event id. */
  async function answered(workspace: TestWorkspace, key: string): Promise<Created & { eventId: string }> {
    const made = (await (await create(workspace, key)).json()) as Created;
    expect((await answerOnPage(made.humanUrl, { message: 'Ship it' })).status).toBe(303);
    const view = (await (await call(workspace, 'GET', `/v1/sessions/${made.sessionId}`)).json()) as View;
    return { ...made, eventId: view.response!.eventId };
  }
  /** An MCP client with the workspace's API key, as a headless agent connects. */
  async function mcpFor(workspace: TestWorkspace): Promise<Client> {
    const client = new Client({ name: 'tenant-lock', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${workspace.apiKey}` } },
      }),
    );
    return client;
  }
  const counted = async (workspaceId: string) =>
    (
      await queryRows<{ counted: number; open: number }>(
        opened.db,
        sql`select (select counted from open_counts where key = ${`workspace:${workspaceId}`}) as counted,
                   (select count(*)::int from form_sessions where workspace_id = ${workspaceId} and state = 'open') as open`,
      )
    )[0]!;

  /** Holds `statement`'s locks in a transaction of another session until `release()`. */
  async function hold(statement: string): Promise<{ release: () => Promise<void> }> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holding = holder.begin(async (tx) => {
      await tx.unsafe(statement);
      locked();
      await released;
    });
    await Promise.race([isLocked, holding]);
    return {
      release: async () => {
        release();
        await holding;
      },
    };
  }

  /** Asserts the 503 every face of /v1 answers a write that was turned away: retryable, Retry-After, nothing changed. */
  async function expectTurnedAway(response: Response, name: string): Promise<void> {
    expect(response.status, name).toBe(503);
    expect(response.headers.get('retry-after'), name).toBe('5');
    const body = (await response.json()) as { error: { code: string; retryable: boolean; message: string } };
    expect(body.error, name).toMatchObject({ code: 'SESS_UNAVAILABLE', retryable: true });
    expect(body.error.message, name).toMatch(/nothing was changed/);
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    opened = await openDatabase({ url: database.url!, poolMax: POOL, lockTimeoutMs: 1_000 });
    server = await startAppServer({
      database: { ...opened, url: database.url!, destroy: () => opened.close() },
      env: { DB_POOL_MAX: String(POOL) },
    });
    holder = postgres(database.url!, { max: 2, onnotice: () => {} });
  });
  afterAll(async () => {
    await holder?.end({ timeout: 5 });
    await server?.close();
    await opened?.close();
    await database?.destroy();
  });
  let release: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await release?.();
    release = undefined;
  });

  it('its row: the workspace’s writes get a fast 503 while every other workspace works; released, the same keys go through once', async () => {
    const [blocked, other] = [
      await createWorkspaceWithKey(opened.db, { plan: 'pro' }),
      await createWorkspaceWithKey(opened.db, { plan: 'pro' }),
    ];
    const blockedDone = [await answered(blocked, 'b-0'), await answered(blocked, 'b-1'), await answered(blocked, 'b-2')];
    const otherDone = [await answered(other, 'o-0'), await answered(other, 'o-1')];
    const otherOpen = (await (await create(other, 'o-2')).json()) as Created;
    // An agent of the blocked workspace over MCP, with an answered interaction to complete.
    const agent = await mcpFor(blocked);
    const asked = interactionOf(await agent.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface('mcp') } }));
    expect((await answerOnPage(asked.humanUrl!, { message: 'Ship it' })).status).toBe(303);
    const read = interactionOf(
      await agent.callTool({ name: 'sess_response', arguments: { handle: asked.handle, revision: 1, wait_ms: 0 } }),
    );
    const completeArguments = { handle: asked.handle, expected_revision: 1, response_event_id: read.response!.eventId };
    ({ release } = await hold(`select counted from open_counts where key = 'workspace:${blocked.workspaceId}' for update`));

    // The blocked workspace's writes, all at once: more than its turns and the pool's writes.
    const creates = Array.from({ length: 6 }, (_, i) => `b-new-${i}`);
    const turnedAway = [
      ...creates.map((key) => create(blocked, key).then((r) => [key, r] as const)),
      ...blockedDone.map((s, i) => complete(blocked, s, s.eventId, `b-complete-${i}`).then((r) => [`complete ${i}`, r] as const)),
    ];
    // Whatever they hold, another workspace's pages, creates, completes, reads and waits go through.
    const wait = call(other, 'GET', `/v1/sessions/${otherOpen.sessionId}?revision=1&wait_ms=20000`);
    const others = await Promise.all([
      ...otherDone.map((s) => fetch(s.humanUrl).then((r) => r.status)),
      ...Array.from({ length: 4 }, (_, i) => create(other, `o-new-${i}`).then((r) => r.status)),
      ...otherDone.map((s, i) => complete(other, s, s.eventId, `o-complete-${i}`).then((r) => r.status)),
      call(other, 'GET', '/v1/sessions').then((r) => r.status),
      answerOnPage(otherOpen.humanUrl, { message: 'Ship it' }).then((r) => r.status),
    ]);
    expect(others).toEqual([200, 200, 201, 201, 201, 201, 200, 200, 200, 303]);
    expect(((await (await wait).json()) as View).state).toBe('answered');
    // The blocked workspace's own reads and its person's page work too: only its writes wait.
    expect((await fetch(blockedDone[0]!.humanUrl)).status).toBe(200);
    expect((await call(blocked, 'GET', '/v1/sessions')).status).toBe(200);

    // Its writes are answered while the row is still held: after lock_timeout, never after the lock.
    for (const [name, response] of await Promise.all(turnedAway)) await expectTurnedAway(response, name);
    // Over MCP too: retryable, and the agent is told nothing changed (the saved complete is taken back).
    const completeRefused = toolErrorOf(await agent.callTool({ name: 'sess_complete', arguments: completeArguments }));
    expect(completeRefused).toMatchObject({ code: 'SESS_UNAVAILABLE', retryable: true });
    expect(completeRefused.message).toMatch(/nothing changed/);
    const createRefused = toolErrorOf(
      await agent.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface() } }),
    );
    expect(createRefused).toMatchObject({ code: 'SESS_UNAVAILABLE', retryable: true });
    expect(createRefused.message).toMatch(/nothing was created/);
    expect(await counted(blocked.workspaceId)).toEqual({ counted: 4, open: 4 });

    await release();
    release = undefined;
    for (const key of creates) expect((await create(blocked, key)).status, key).toBe(201);
    for (const [i, s] of blockedDone.entries())
      expect((await complete(blocked, s, s.eventId, `b-complete-${i}`)).status).toBe(200);
    expect(interactionOf(await agent.callTool({ name: 'sess_complete', arguments: completeArguments })).state).toBe('completed');
    await agent.close();
    // Nothing lost, nothing doubled: one session per create key, every complete once, the counter exact.
    const rows = await queryRows<{ title: string; n: number; completed: number }>(
      opened.db,
      sql`select r.surface->>'title' as title, count(*)::int as n, count(*) filter (where s.state = 'completed')::int as completed
            from form_sessions s join form_revisions r on r.session_id = s.id and r.revision = 1
           where s.workspace_id = ${blocked.workspaceId} group by 1 order by 1`,
    );
    expect(rows).toEqual(
      [
        ...['b-0', 'b-1', 'b-2', 'mcp'].map((title) => ({ title, n: 1, completed: 1 })),
        ...creates.map((title) => ({ title, n: 1, completed: 0 })),
      ].sort((a, b) => a.title.localeCompare(b.title)),
    );
    const keys = await queryRows<{ n: number }>(
      opened.db,
      sql`select count(*)::int as n from idempotency_keys where workspace_id = ${blocked.workspaceId} and status <> 0`,
    );
    // The three first creates, the six retried, the three completes and the agent’s complete.
    expect(keys[0]!.n).toBe(3 + creates.length + 3 + 1);
    expect(await counted(blocked.workspaceId)).toEqual({ counted: 6, open: 6 });
    expect(await counted(other.workspaceId)).toEqual({ counted: 5, open: 5 });
  });

  it('the whole table: every write that needs a counter gets a fast 503, pages and waits work throughout; released, all works', async () => {
    const workspace = await createWorkspaceWithKey(opened.db, { plan: 'pro' });
    const done = await answered(workspace, 't-0');
    const open = (await (await create(workspace, 't-1')).json()) as Created;
    ({ release } = await hold('lock table open_counts in exclusive mode'));

    const turnedAway = [create(workspace, 't-new'), complete(workspace, done, done.eventId, 't-complete')];
    const wait = call(workspace, 'GET', `/v1/sessions/${open.sessionId}?revision=1&wait_ms=20000`);
    expect((await fetch(done.humanUrl)).status).toBe(200);
    expect((await answerOnPage(open.humanUrl, { message: 'Ship it' })).status).toBe(303);
    expect(((await (await wait).json()) as View).state).toBe('answered');
    expect((await call(workspace, 'GET', '/v1/sessions')).status).toBe(200);
    const [created, completed] = await Promise.all(turnedAway);
    await expectTurnedAway(created!, 'create');
    await expectTurnedAway(completed!, 'complete');

    await release();
    release = undefined;
    expect((await create(workspace, 't-new')).status).toBe(201);
    expect((await complete(workspace, done, done.eventId, 't-complete')).status).toBe(200);
    expect(await counted(workspace.workspaceId)).toEqual({ counted: 2, open: 2 });
  });
});
