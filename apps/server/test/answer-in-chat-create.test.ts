import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Client } from '@modelcontextprotocol/client';
import { createSessClient } from '@sess/client';
import { queryRows } from '@sess/db';
import type { FormsRuntime } from '@sess/forms';
import { key } from '@sess/forms/test-helpers';
import { buildApp, loadConfig } from '@sess/server';
import {
  createTestDatabase,
  createTestFormsRuntime,
  createTestLogger,
  createWorkspaceWithKey,
  sampleAskArguments,
  sampleSurface,
  TEST_PUBLIC_URL,
  TEST_SECRET,
  type TestDatabase,
  type TestWorkspace,
} from '@sess/testkit';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type McpHarness, startMcpHarness, structured } from './support/mcp-harness.ts';

/*
 * `answer_in_chat` on create (issue 36), end to end: /v1 (raw HTTP and @sess/client) and the MCP
 * tools on both backends (in-process, and the HTTP backend over the client to a real /v1). Each
 * case reads what the session row stored; an Ask stores false, and an Ask asked to be answered in
 * the chat is refused at /answer_in_chat with nothing created.
 */

const ASK_REFUSAL = "An Ask's link is for others: it is never answered in the chat.";

/** The workspace's session rows' answer_in_chat, by id. */
async function storedRows(database: TestDatabase, workspaceId: string): Promise<Map<string, boolean>> {
  const rows = await queryRows<{ id: string; answer_in_chat: boolean }>(
    database.db,
    sql`select id, answer_in_chat from form_sessions where workspace_id = ${workspaceId}`,
  );
  return new Map(rows.map((row) => [row.id, row.answer_in_chat]));
}

async function storedAnswerInChat(database: TestDatabase, workspaceId: string): Promise<boolean[]> {
  return [...(await storedRows(database, workspaceId)).values()];
}

describe('/v1', () => {
  let database: TestDatabase;
  let runtime: FormsRuntime;
  let server: ReturnType<typeof serve>;
  let base: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = loadConfig({ NODE_ENV: 'test', PORT: '0', PUBLIC_URL: TEST_PUBLIC_URL, SESS_SECRET: TEST_SECRET });
    runtime = createTestFormsRuntime(database);
    const app = buildApp({
      config,
      database,
      logger: createTestLogger(),
      secret: TEST_SECRET,
      now: () => new Date(),
      forms: runtime,
    });
    server = await new Promise((resolve, reject) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
      s.once('error', reject);
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await runtime.close();
    await new Promise((resolve) => server.close(resolve));
    await database.destroy();
  });

  async function post(as: TestWorkspace, path: string, body: unknown, idempotencyKey = key()) {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${as.apiKey}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
      body: JSON.stringify(body),
    });
    return { status: response.status, json: await response.json() };
  }

  it('POST /v1/sessions stores answer_in_chat false, true by default, and reports it as answerInChat', async () => {
    const mine = await createWorkspaceWithKey(database.db, { plan: 'pro' });
    const forbidden = await post(mine, '/v1/sessions', { interaction: sampleSurface(), answer_in_chat: false });
    expect(forbidden.status).toBe(201);
    expect(forbidden.json.answerInChat).toBe(false);
    const byDefault = await post(mine, '/v1/sessions', { interaction: sampleSurface() });
    expect(byDefault.json.answerInChat).toBe(true);
    const stored = await storedRows(database, mine.workspaceId);
    expect(stored.get(forbidden.json.sessionId)).toBe(false);
    expect(stored.get(byDefault.json.sessionId)).toBe(true);
  });

  it('an identical repeat replays; the same key with another answer_in_chat is IDEMPOTENCY_KEY_REUSED', async () => {
    const mine = await createWorkspaceWithKey(database.db, { plan: 'pro' });
    const k = key();
    const body = { interaction: sampleSurface(), answer_in_chat: false };
    const first = await post(mine, '/v1/sessions', body, k);
    const again = await post(mine, '/v1/sessions', body, k);
    expect(again.json).toEqual(first.json);
    const other = await post(mine, '/v1/sessions', { ...body, answer_in_chat: true }, k);
    expect(other.status).toBe(409);
    expect(other.json.error).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await storedAnswerInChat(database, mine.workspaceId)).toEqual([false]);
  });

  it('POST /v1/asks stores false, and refuses answer_in_chat true at its pointer creating nothing', async () => {
    const mine = await createWorkspaceWithKey(database.db, { plan: 'pro' });
    const created = await post(mine, '/v1/asks', sampleAskArguments({ max: 3 }));
    expect(created.status).toBe(201);
    const refused = await post(mine, '/v1/asks', { ...sampleAskArguments({ max: 3 }), answer_in_chat: true });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/answer_in_chat' });
    expect(refused.json.error.message).toContain(ASK_REFUSAL);
    expect(await storedAnswerInChat(database, mine.workspaceId)).toEqual([false]);
  });

  it('@sess/client carries answer_in_chat and reads answerInChat back', async () => {
    const mine = await createWorkspaceWithKey(database.db, { plan: 'pro' });
    const client = createSessClient({ origin: base, apiKey: mine.apiKey });
    const created = await client.sessions.create({ interaction: sampleSurface(), answer_in_chat: false });
    expect(created.data.answerInChat).toBe(false);
    expect(await storedAnswerInChat(database, mine.workspaceId)).toEqual([false]);
  });
});

describe.each(BACKENDS)('the MCP create tools on the %s backend', (backend) => {
  let h: McpHarness;
  beforeAll(async () => {
    h = await startMcpHarness({ backend });
  });
  afterAll(async () => h?.close());

  /** A fresh principal in its own workspace, so the workspace's rows are this case's alone. */
  async function principal(): Promise<{ client: Client; workspaceId: string }> {
    const { token, principal: p } = await h.addPrincipal();
    return { client: await h.connect(token, 'modern'), workspaceId: p.workspaceId };
  }

  /** Calls a create tool and returns what the one session row it made stored. */
  const create = async (client: Client, workspaceId: string, name: string, args: Record<string, unknown>) => {
    const before = await storedRows(h.database, workspaceId);
    const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean };
    expect(result.isError, JSON.stringify(structured(result))).toBeFalsy();
    const made = [...(await storedRows(h.database, workspaceId))].filter(([id]) => !before.has(id));
    expect(made).toHaveLength(1);
    return made[0]![1];
  };

  it('sess_request stores answer_in_chat false when given, true by default', async () => {
    const { client, workspaceId } = await principal();
    expect(await create(client, workspaceId, 'sess_request', { interaction: sampleSurface(), answer_in_chat: false })).toBe(
      false,
    );
    expect(await create(client, workspaceId, 'sess_request', { interaction: sampleSurface() })).toBe(true);
  });

  it('sess_ask stores false when given; an Ask stores false', async () => {
    const { client, workspaceId } = await principal();
    const { respondents: _, ...plain } = sampleAskArguments({ max: 3 });
    expect(await create(client, workspaceId, 'sess_ask', { ...plain, answer_in_chat: false })).toBe(false);
    expect(await create(client, workspaceId, 'sess_ask', plain)).toBe(true);
    expect(await create(client, workspaceId, 'sess_ask', sampleAskArguments({ max: 3 }))).toBe(false);
  });

  it('sess_ask with respondents and answer_in_chat true is refused at /answer_in_chat and creates nothing', async () => {
    const { client, workspaceId } = await principal();
    const result = (await client.callTool({
      name: 'sess_ask',
      arguments: { ...sampleAskArguments({ max: 3 }), answer_in_chat: true },
    })) as { isError?: boolean };
    expect(result.isError).toBe(true);
    const { error } = structured<{ error: { code: string; field: string; message: string } }>(result);
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/answer_in_chat' });
    expect(error.message).toContain(ASK_REFUSAL);
    expect(await storedAnswerInChat(h.database, workspaceId)).toEqual([]);
    const listed = structured<{ interactions: unknown[] }>(
      await client.callTool({ name: 'sess_list', arguments: { status: 'all' } }),
    );
    expect(listed.interactions).toEqual([]);
  });
});
