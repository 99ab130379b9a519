import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Client } from '@modelcontextprotocol/client';
import { createSessClient } from '@sess/client';
import { newId } from '@sess/core';
import { memberships, queryRows, users, workspaces } from '@sess/db';
import type { FormsRuntime } from '@sess/forms';
import { key } from '@sess/forms/test-helpers';
import { buildApp, loadConfig } from '@sess/server';
import {
  createTestDatabase,
  createTestFormsRuntime,
  createTestLogger,
  createUser,
  createWorkspaceWithKey,
  sampleAskArguments,
  sampleSurface,
  TEST_PUBLIC_URL,
  TEST_SECRET,
  type TestDatabase,
  type TestWorkspace,
} from '@sess/testkit';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type McpHarness, startMcpHarness, structured } from './support/mcp-harness.ts';

/*
 * Who may answer a new form (issue 37), end to end: the floor beats the agent's `assurance` on
 * /v1 (an API key: the workspace's floor; raw HTTP and @sess/client), and on the MCP create tools
 * on both backends: in process (an OAuth person: their own floor; a hosted API key: the
 * workspace's) and over the HTTP backend to a real /v1 (sess-mcp and OpenClaw: the workspace's).
 * Each case reads what the session row stored: assurance and for_user_ids.
 */

type StoredAudience = {
  assurance: string;
  for_user_ids: string[] | null;
};

async function storedRows(database: TestDatabase, workspaceId: string): Promise<Map<string, StoredAudience>> {
  const rows = await queryRows<StoredAudience & { id: string }>(
    database.db,
    sql`select id, assurance, for_user_ids from form_sessions where workspace_id = ${workspaceId}`,
  );
  return new Map(rows.map(({ id, assurance, for_user_ids }) => [id, { assurance, for_user_ids }]));
}

async function setKeyFloor(database: TestDatabase, workspaceId: string, floor: 'link' | 'account') {
  await database.db.update(workspaces).set({ apiKeyAssuranceFloor: floor }).where(eq(workspaces.id, workspaceId));
}

async function owners(database: TestDatabase, workspaceId: string): Promise<string[]> {
  const rows = await queryRows<{ user_id: string }>(
    database.db,
    sql`select user_id from memberships where workspace_id = ${workspaceId} and role = 'owner' order by created_at, user_id`,
  );
  return rows.map((row) => row.user_id);
}

describe('/v1 (a workspace API key)', () => {
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

  async function post(as: TestWorkspace, path: string, body: unknown) {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${as.apiKey}`, 'content-type': 'application/json', 'idempotency-key': key() },
      body: JSON.stringify(body),
    });
    return { status: response.status, json: await response.json() };
  }

  it("the workspace's API-key floor beats assurance link; the form is for the owners by default", async () => {
    const mine = await createWorkspaceWithKey(database.db, { plan: 'pro' });
    const plain = await post(mine, '/v1/sessions', { interaction: sampleSurface(), assurance: 'link' });
    expect(plain.json.assurance).toBe('link');
    await setKeyFloor(database, mine.workspaceId, 'account');
    const raised = await post(mine, '/v1/sessions', { interaction: sampleSurface(), assurance: 'link' });
    expect(raised.status).toBe(201);
    expect(raised.json.assurance).toBe('account');
    const stored = await storedRows(database, mine.workspaceId);
    expect(stored.get(plain.json.sessionId)).toEqual({ assurance: 'link', for_user_ids: null });
    expect(stored.get(raised.json.sessionId)).toEqual({ assurance: 'account', for_user_ids: [mine.userId] });
  });

  it('names a member by e-mail; a non-member is refused at /for/<i> creating nothing', async () => {
    const mine = await createWorkspaceWithKey(database.db, { plan: 'pro' });
    const member = await createUser(database.db);
    await database.db
      .insert(memberships)
      .values({ id: newId('membership'), workspaceId: mine.workspaceId, userId: member.userId, role: 'member' });
    const outsider = await createUser(database.db);
    const named = await post(mine, '/v1/sessions', { interaction: sampleSurface(), assurance: 'account', for: [member.email] });
    expect(named.status).toBe(201);
    expect(named.json.assurance).toBe('account');
    const refused = await post(mine, '/v1/sessions', {
      interaction: sampleSurface(),
      assurance: 'account',
      for: [outsider.email],
    });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/for/0' });
    expect([...(await storedRows(database, mine.workspaceId)).values()]).toEqual([
      { assurance: 'account', for_user_ids: [member.userId] },
    ]);
  });

  it('an Ask without people takes only link: account is refused at /assurance, and a floor above link refuses it at /respondents; with people it meets that floor', async () => {
    const mine = await createWorkspaceWithKey(database.db, { plan: 'pro' });
    const asked = await post(mine, '/v1/asks', { ...sampleAskArguments({ max: 3 }), assurance: 'account' });
    expect(asked.status).toBe(400);
    expect(asked.json.error).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/assurance' });
    expect(asked.json.error.message).toContain('respondents.people');
    const made = await post(mine, '/v1/asks', sampleAskArguments({ max: 3 }));
    expect(made.json.assurance).toBe('link');
    await setKeyFloor(database, mine.workspaceId, 'account');
    const floored = await post(mine, '/v1/asks', sampleAskArguments({ max: 3 }));
    expect(floored.json.error).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/respondents' });
    expect((await storedRows(database, mine.workspaceId)).size).toBe(1);
    const ownerEmail = (await database.db.select({ email: users.email }).from(users).where(eq(users.id, mine.userId)))[0]!.email;
    const named = await post(mine, '/v1/asks', sampleAskArguments({ people: [ownerEmail] }));
    expect(named.json.assurance).toBe('account');
    expect((await storedRows(database, mine.workspaceId)).size).toBe(2);
  });

  it('@sess/client carries assurance and for, and reads the effective assurance back', async () => {
    const mine = await createWorkspaceWithKey(database.db, { plan: 'pro' });
    const client = createSessClient({ origin: base, apiKey: mine.apiKey });
    const [owner] = await owners(database, mine.workspaceId);
    const ownerEmail = (await database.db.select({ email: users.email }).from(users).where(eq(users.id, owner!)))[0]!.email;
    const created = await client.sessions.create({ interaction: sampleSurface(), assurance: 'account', for: [ownerEmail] });
    expect(created.data.assurance).toBe('account');
    expect([...(await storedRows(database, mine.workspaceId)).values()]).toEqual([
      { assurance: 'account', for_user_ids: [mine.userId] },
    ]);
  });
});

describe.each(BACKENDS)('the MCP create tools on the %s backend', (backend) => {
  let h: McpHarness;
  beforeAll(async () => {
    h = await startMcpHarness({ backend });
  });
  afterAll(async () => h?.close());

  /** Calls a create tool; returns the result's assurance and what the one row it made stored. */
  const create = async (client: Client, workspaceId: string, name: string, args: Record<string, unknown>) => {
    const before = await storedRows(h.database, workspaceId);
    const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean };
    expect(result.isError, JSON.stringify(structured(result))).toBeFalsy();
    const made = [...(await storedRows(h.database, workspaceId))].filter(([id]) => !before.has(id));
    expect(made).toHaveLength(1);
    return { result: structured<{ interaction: { assurance?: string } }>(result).interaction.assurance, stored: made[0]![1] };
  };

  it("a person's connection: their floor beats the agent's link (in process); over HTTP the workspace's key floor does", async () => {
    // A real person, whose principal id is their user id (as an OAuth access token's `sub`).
    const { token, principal } = await h.addPrincipal();
    const person = await createUser(h.database.db, { workspaceId: principal.workspaceId });
    h.setPrincipal(token, { ...principal, principalId: person.userId });
    const client = await h.connect(token, 'modern');
    const { respondents: _, ...plain } = sampleAskArguments({ max: 3 });

    const before = await create(client, principal.workspaceId, 'sess_request', {
      interaction: sampleSurface(),
      assurance: 'link',
    });
    expect(before).toEqual({ result: 'link', stored: { assurance: 'link', for_user_ids: null } });

    if (backend === 'in-process') {
      await h.database.db.update(users).set({ assuranceFloor: 'account' }).where(eq(users.id, person.userId));
      const expected = { result: 'account', stored: { assurance: 'account', for_user_ids: [person.userId] } };
      expect(
        await create(client, principal.workspaceId, 'sess_request', { interaction: sampleSurface(), assurance: 'link' }),
      ).toEqual(expected);
      expect(await create(client, principal.workspaceId, 'sess_ask', plain)).toEqual(expected);
    } else {
      // sess-mcp and OpenClaw call /v1 with the workspace's API key: its floor applies, and the form is for its owners.
      await setKeyFloor(h.database, principal.workspaceId, 'account');
      const forOwners = await owners(h.database, principal.workspaceId);
      const expected = { result: 'account', stored: { assurance: 'account', for_user_ids: forOwners } };
      expect(
        await create(client, principal.workspaceId, 'sess_request', { interaction: sampleSurface(), assurance: 'link' }),
      ).toEqual(expected);
      expect(await create(client, principal.workspaceId, 'sess_ask', plain)).toEqual(expected);
    }
  });

  it("a workspace API key on hosted /mcp: the workspace's floor, for its owners or the member it names", async () => {
    const { token, principal } = await h.addPrincipal();
    if (backend === 'in-process') h.setPrincipal(token, { ...principal, principalId: `api_key:${newId('apiKey')}` });
    const client = await h.connect(token, 'modern');
    await createUser(h.database.db, { workspaceId: principal.workspaceId });
    const member = await createUser(h.database.db);
    await h.database.db
      .insert(memberships)
      .values({ id: newId('membership'), workspaceId: principal.workspaceId, userId: member.userId, role: 'member' });
    await setKeyFloor(h.database, principal.workspaceId, 'account');
    const { respondents: _, ...plain } = sampleAskArguments({ max: 3 });
    expect(
      await create(client, principal.workspaceId, 'sess_request', { interaction: sampleSurface(), assurance: 'link' }),
    ).toEqual({
      result: 'account',
      stored: { assurance: 'account', for_user_ids: await owners(h.database, principal.workspaceId) },
    });
    expect(
      await create(client, principal.workspaceId, 'sess_ask', { ...plain, assurance: 'account', for: [member.email] }),
    ).toEqual({
      result: 'account',
      stored: { assurance: 'account', for_user_ids: [member.userId] },
    });
  });

  it('a non-member in for is refused with its pointer (CREATE_REJECTED, reason INVALID_ARGUMENTS), creating nothing', async () => {
    const { token, principal } = await h.addPrincipal();
    if (backend === 'in-process') h.setPrincipal(token, { ...principal, principalId: `api_key:${newId('apiKey')}` });
    const client = await h.connect(token, 'modern');
    const outsider = await createUser(h.database.db);
    const result = (await client.callTool({
      name: 'sess_request',
      arguments: { interaction: sampleSurface(), assurance: 'account', for: [outsider.email] },
    })) as { isError?: boolean };
    expect(result.isError).toBe(true);
    const { error } = structured<{ error: { code: string; field: string; reason: string; message: string } }>(result);
    expect(error).toMatchObject({ code: 'CREATE_REJECTED', reason: 'INVALID_ARGUMENTS', field: '/for/0' });
    expect(error.message).not.toContain(outsider.email);
    expect((await storedRows(h.database, principal.workspaceId)).size).toBe(0);
  });

  it('sess_ask with respondents but no people and assurance account is refused at /assurance and creates nothing', async () => {
    const { token, principal } = await h.addPrincipal();
    const client = await h.connect(token, 'modern');
    const result = (await client.callTool({
      name: 'sess_ask',
      arguments: { ...sampleAskArguments({ max: 3 }), assurance: 'account' },
    })) as { isError?: boolean };
    expect(result.isError).toBe(true);
    const { error } = structured<{ error: { code: string; field: string; message: string } }>(result);
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/assurance' });
    expect(error.message).toContain('respondents.people');
    expect((await storedRows(h.database, principal.workspaceId)).size).toBe(0);
  });
});
