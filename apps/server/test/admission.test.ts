import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { formSessions, openDatabase, queryRows } from '@sess/db';
import {
  createTestDatabase,
  createTestLogger,
  createWorkspaceWithKey,
  freePort,
  onlyOn,
  sampleSurface,
  type TestDatabase,
  type TestWorkspace,
} from '@sess/testkit';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type RunningServer, startServer } from '../src/index.ts';
import { answerOnPage } from './support/answer-page.ts';
import { holdRequest, requestOnOwnConnection, sendAndLeave } from './support/raw-http.ts';

/*
 * Admission control (issue 33) on the real server: each class of request has a bound on what is
 * in flight, beyond which Sess answers at once with 503 and Retry-After, in its face's shape, and
 * changes nothing; health and the other classes go on. Requests are held in flight
 * deterministically: a parked wait, or a body only half sent. A page route that waits for the
 * test holds a page in flight.
 */

let database: TestDatabase;
let server: RunningServer;
let dataDir: string;
let port: number;
let base: string;
let releasePages: () => void = () => {};
let heldPages: Promise<void> = Promise.resolve();

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'sess-admission-'));
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    PUBLIC_URL: base,
    SESS_DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    SESS_NOTIFICATIONS: 'off',
    SESS_ADMIT_WAITS: '3',
    SESS_ADMIT_WRITES: '2',
    SESS_ADMIT_MCP: '2',
    SESS_ADMIT_ANSWERS: '1',
    SESS_ADMIT_PAGES: '2',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
  });
  server = await startServer(config, {
    logger: createTestLogger(),
    extend: (app) => app.get('/test/held-page', () => heldPages.then(() => new Response('held page done'))),
  });
});
afterAll(async () => {
  await server?.close();
  await database?.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

const v1Headers = (workspace: TestWorkspace, idempotencyKey?: string): Record<string, string> => ({
  authorization: `Bearer ${workspace.apiKey}`,
  'content-type': 'application/json',
  ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
});
const createBody = (title = 'Approve this commit?') => JSON.stringify({ interaction: sampleSurface(title), expires_in: 3600 });

async function createSession(workspace: TestWorkspace): Promise<{ sessionId: string; humanUrl: string }> {
  const created = await fetch(`${base}/v1/sessions`, {
    method: 'POST',
    headers: v1Headers(workspace, crypto.randomUUID()),
    body: createBody(),
  });
  expect(created.status).toBe(201);
  return (await created.json()) as { sessionId: string; humanUrl: string };
}

async function sessionsOf(workspace: TestWorkspace): Promise<number> {
  const rows = await server.database.db
    .select({ id: formSessions.id })
    .from(formSessions)
    .where(eq(formSessions.workspaceId, workspace.workspaceId));
  return rows.length;
}

/** Health, readiness and the app's other faces, answered while one class is at its bound. */
async function expectHealthAnswers(): Promise<void> {
  expect((await fetch(`${base}/healthz`)).status).toBe(200);
  expect((await fetch(`${base}/readyz`)).status).toBe(200);
}

async function expectBusyJson(response: Response): Promise<Record<string, unknown>> {
  expect(response.status).toBe(503);
  expect(response.headers.get('retry-after')).toBe('5');
  const body = (await response.json()) as { error: Record<string, unknown> };
  expect(body.error).toMatchObject({ code: 'SESS_UNAVAILABLE', retryable: true, reason: 'busy' });
  expect(body.error.message).toContain('nothing was changed');
  return body.error;
}

async function mcpClient(workspace: TestWorkspace): Promise<Client> {
  const client = new Client({ name: 'sess-test', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${workspace.apiKey}` } },
    }),
  );
  return client;
}

/** A raw stateless tools/call (2025 era), answered without the client's own handling of a 503. */
function mcpCall(workspace: TestWorkspace, name: string, args: Record<string, unknown>): Promise<Response> {
  return fetch(`${base}/mcp`, {
    method: 'POST',
    headers: mcpHeaders(workspace),
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } }),
  });
}

function mcpHeaders(workspace: TestWorkspace): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
    authorization: `Bearer ${workspace.apiKey}`,
  };
}

type Interaction = { handle: string; revision: number; state: string; humanUrl?: string };
/** sess_ask's arguments for a one-question form. */
const askArguments = (question: string) => ({ question, fields: [{ name: 'a', label: 'Answer', type: 'text' }] });
const interactionOf = (result: unknown) =>
  (result as { structuredContent: { interaction: Interaction } }).structuredContent.interaction;

describe('waits at their bound', () => {
  it('the next wait of any face is refused at once (503, Retry-After, nothing changed) while health, pages, writes and tool calls answer; the parked ones still get their answer', async () => {
    const workspace = await createWorkspaceWithKey(server.database.db);
    const session = await createSession(workspace);
    const token = session.humanUrl.split('/s/')[1]!;
    const waitUrl = `${base}/v1/sessions/${session.sessionId}?wait_ms=45000`;
    const parked = [
      requestOnOwnConnection(waitUrl, { headers: v1Headers(workspace) }),
      requestOnOwnConnection(waitUrl, { headers: v1Headers(workspace) }),
      requestOnOwnConnection(`${base}/s/${token}/wait?revision=1`),
    ];
    await expect.poll(() => server.admission.inFlight('waits')).toBe(3);

    await expectBusyJson(await fetch(waitUrl, { headers: v1Headers(workspace) }));
    await expectBusyJson(await fetch(`${base}/s/${token}/wait?revision=1`));

    // An agent's waiting sess_response is refused in the MCP shape; one that does not wait is a tool call.
    const client = await mcpClient(workspace);
    const asked = interactionOf(await client.callTool({ name: 'sess_ask', arguments: askArguments('Which day?') }));
    const refused = await mcpCall(workspace, 'sess_response', { handle: asked.handle, revision: 1 });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toMatchObject({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32000, data: { code: 'SESS_UNAVAILABLE', retryable: true, reason: 'busy' } },
    });
    const read = interactionOf(
      await client.callTool({ name: 'sess_response', arguments: { handle: asked.handle, revision: 1, wait_ms: 0 } }),
    );
    expect(read.state).toBe('waiting');
    await client.close();

    await expectHealthAnswers();
    expect((await fetch(session.humanUrl)).status).toBe(200);
    await createSession(workspace);
    expect(server.admission.inFlight('waits')).toBe(3);

    // The parked ones were only waiting: the answer reaches all three.
    expect((await answerOnPage(session.humanUrl, { message: 'ok' })).status).toBe(303);
    const [v1First, v1Second, page] = await Promise.all(parked);
    for (const answered of [v1First!, v1Second!]) {
      expect(answered.status).toBe(200);
      expect(JSON.parse(answered.text)).toMatchObject({ state: 'answered' });
    }
    expect(JSON.parse(page!.text)).toMatchObject({ state: 'answered' });
  });

  it('a parked sess_response counts as a wait, not as a tool call: with more parked than the tool-call bound, tools still answer', async () => {
    const workspace = await createWorkspaceWithKey(server.database.db);
    const client = await mcpClient(workspace);
    const asked: Interaction[] = [];
    for (const n of [1, 2, 3]) {
      asked.push(interactionOf(await client.callTool({ name: 'sess_ask', arguments: askArguments(`Question ${n}?`) })));
    }
    const parked = asked.map((interaction) =>
      requestOnOwnConnection(`${base}/mcp`, {
        method: 'POST',
        headers: mcpHeaders(workspace),
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'sess_response', arguments: { handle: interaction.handle, revision: 1 } },
        }),
      }),
    );
    await expect.poll(() => server.admission.inFlight('waits')).toBe(3);
    expect(server.admission.inFlight('mcp')).toBe(0);
    const listed = (await client.callTool({ name: 'sess_list', arguments: {} })) as {
      structuredContent: { interactions: unknown[] };
    };
    expect(listed.structuredContent.interactions).toHaveLength(3);
    for (const interaction of asked) {
      expect((await answerOnPage(interaction.humanUrl!, { a: 'yes' })).status).toBe(303);
    }
    for (const answered of await Promise.all(parked)) expect(answered.text).toContain('answered');
    await client.close();
  });
});

describe('/v1 writes at their bound', () => {
  it('the next create is refused at once and writes nothing; the ones in flight complete; its key is still unused', async () => {
    const workspace = await createWorkspaceWithKey(server.database.db);
    const held = await Promise.all(
      [1, 2].map(() => holdRequest(port, 'POST', '/v1/sessions', v1Headers(workspace, crypto.randomUUID()), createBody())),
    );
    await expect.poll(() => server.admission.inFlight('writes')).toBe(2);

    const key = crypto.randomUUID();
    const refused = await fetch(`${base}/v1/sessions`, {
      method: 'POST',
      headers: v1Headers(workspace, key),
      body: createBody(),
    });
    await expectBusyJson(refused);
    await expectHealthAnswers();
    // A read of /v1 and a tool call are other classes.
    expect((await fetch(`${base}/v1/sessions`, { headers: v1Headers(workspace) })).status).toBe(200);
    const client = await mcpClient(workspace);
    expect((await client.callTool({ name: 'sess_list', arguments: {} })).isError).toBeFalsy();
    await client.close();
    expect(await sessionsOf(workspace)).toBe(0);

    for (const response of await Promise.all(held.map((request) => request.finish()))) expect(response.status).toBe(201);
    expect(await sessionsOf(workspace)).toBe(2);
    // The refused key was never used: the same request now creates, not replays or conflicts.
    const retried = await fetch(`${base}/v1/sessions`, {
      method: 'POST',
      headers: v1Headers(workspace, key),
      body: createBody(),
    });
    expect(retried.status).toBe(201);
    expect(await sessionsOf(workspace)).toBe(3);
  });
});

// A tool call takes its place once its body is read, so it is held in flight by the database:
// a lock the test holds on the handle table (PostgreSQL: another session; the embedded database
// has one connection, and a lock there would hold every request).
describe.runIf(onlyOn('server: tool calls at their bound'))('tool calls at their bound (PostgreSQL)', () => {
  it('the next call is refused with a JSON-RPC 503 and creates nothing, while health, /v1 and pages answer', async () => {
    const workspace = await createWorkspaceWithKey(server.database.db);
    const holder = await openDatabase({ url: database.url!, poolMax: 1 });
    let unlock: () => void = () => {};
    let locked: () => void = () => {};
    const lockHeld = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const transaction = holder.db.transaction(async (tx) => {
      await tx.execute(sql`lock table mcp_handles in exclusive mode`);
      locked();
      await new Promise<void>((resolve) => {
        unlock = resolve;
      });
    });
    try {
      await lockHeld;
      const held = [1, 2].map((n) =>
        requestOnOwnConnection(`${base}/mcp`, {
          method: 'POST',
          headers: mcpHeaders(workspace),
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: n,
            method: 'tools/call',
            params: { name: 'sess_ask', arguments: askArguments(`Question ${n}?`) },
          }),
        }),
      );
      await expect.poll(() => server.admission.inFlight('mcp')).toBe(2);

      const refused = await mcpCall(workspace, 'sess_ask', askArguments('Refused?'));
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(refused.headers.get('cache-control')).toBe('no-store');
      const body = (await refused.json()) as { id: unknown; error: { message: string; data: Record<string, unknown> } };
      // Refused once read: it answers in the request's own id.
      expect(body.id).toBe(7);
      expect(body.error.data).toMatchObject({ code: 'SESS_UNAVAILABLE', retryable: true, reason: 'busy' });
      expect(body.error.message).toContain('nothing was changed');
      await expectHealthAnswers();
      expect((await fetch(`${base}/v1/sessions`, { headers: v1Headers(workspace) })).status).toBe(200);
      expect((await fetch(`${base}/`, { headers: { accept: 'text/html' } })).status).toBe(200);
      expect(await sessionsOf(workspace)).toBe(0);

      unlock();
      await transaction;
      for (const response of await Promise.all(held)) expect(response.status).toBe(200);
      expect(await sessionsOf(workspace)).toBe(2);
    } finally {
      unlock();
      await transaction.catch(() => undefined);
      await holder.close();
    }
  });
});

describe('answers and pages at their bound', () => {
  it('an answer post beyond the bound gets a calm page saying it was not sent, and nothing is recorded', async () => {
    const workspace = await createWorkspaceWithKey(server.database.db);
    const session = await createSession(workspace);
    const path = new URL(session.humanUrl).pathname;
    const held = await holdRequest(port, 'POST', path, { 'content-type': 'application/x-www-form-urlencoded' }, 'message=held');
    await expect.poll(() => server.admission.inFlight('answers')).toBe(1);

    const refused = await fetch(session.humanUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      body: 'message=refused',
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await refused.text()).toContain('your answer was not sent');
    await expectHealthAnswers();
    expect((await fetch(session.humanUrl)).status).toBe(200);

    // The held post had no CSRF token: refused by the page itself, once admitted.
    expect((await held.finish()).status).toBe(403);
    const [answers] = await queryRows<{ n: number }>(
      server.database.db,
      sql`select count(*)::int as n from form_answers where session_id = ${session.sessionId}`,
    );
    expect(Number(answers?.n)).toBe(0);
    expect((await answerOnPage(session.humanUrl, { message: 'now' })).status).toBe(303);
  });

  it('pages beyond their bound: a browser gets the busy page, the token endpoint temporarily_unavailable; health and /v1 writes answer', async () => {
    heldPages = new Promise((resolve) => {
      releasePages = resolve;
    });
    const held = [requestOnOwnConnection(`${base}/test/held-page`), requestOnOwnConnection(`${base}/test/held-page`)];
    await expect.poll(() => server.admission.inFlight('pages')).toBe(2);

    const home = await fetch(`${base}/`, { headers: { accept: 'text/html' } });
    expect(home.status).toBe(503);
    expect(home.headers.get('retry-after')).toBe('5');
    expect(await home.text()).toContain('Sess is busy');
    const token = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=refresh_token&refresh_token=x&client_id=y',
    });
    expect(token.status).toBe(503);
    expect(token.headers.get('retry-after')).toBe('5');
    expect(await token.json()).toMatchObject({ error: 'temporarily_unavailable' });
    await expectBusyJson(await fetch(`${base}/.well-known/oauth-authorization-server`));
    await expectHealthAnswers();
    await createSession(await createWorkspaceWithKey(server.database.db));

    releasePages();
    for (const response of await Promise.all(held)) expect(response.text).toBe('held page done');
    expect((await fetch(`${base}/`, { headers: { accept: 'text/html' } })).status).toBe(200);
  });
});

describe('a client that left before its request was admitted', () => {
  it('a create sent and abandoned at once is never started (no session), on /v1 and on /mcp; sent and awaited, the same request creates', async () => {
    const workspace = await createWorkspaceWithKey(server.database.db);
    await sendAndLeave(port, 'POST', '/v1/sessions', v1Headers(workspace, crypto.randomUUID()), createBody());
    const ask = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'sess_ask', arguments: askArguments('Left?') },
    });
    await sendAndLeave(port, 'POST', '/mcp', mcpHeaders(workspace), ask);
    await expect.poll(() => server.admission.inFlight('writes') + server.admission.inFlight('mcp')).toBe(0);
    expect(await sessionsOf(workspace)).toBe(0);

    // The very same requests from a client that stays: each creates one.
    const created = await requestOnOwnConnection(`${base}/v1/sessions`, {
      method: 'POST',
      headers: v1Headers(workspace, crypto.randomUUID()),
      body: createBody(),
    });
    expect(created.status).toBe(201);
    const asked = await requestOnOwnConnection(`${base}/mcp`, { method: 'POST', headers: mcpHeaders(workspace), body: ask });
    expect(asked.status).toBe(200);
    expect(await sessionsOf(workspace)).toBe(2);
  });
});
