import type { Client } from '@modelcontextprotocol/client';
import { queryRows } from '@sess/db';
import { createTestSession, createWorkspace } from '@sess/testkit';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpHarness, startMcpHarness, structured } from './support/mcp-harness.ts';

/*
 * The hosted create is one group-committed statement (session, revision and handle record) that
 * checks its caps by locking one counter row each (open_counts, kept by triggers). These races
 * show the caps stay exact: 200 creates at once against each cap, through the real MCP client,
 * the real forms runtime and the real handle store — and nothing half-written is left behind.
 */

const ask = { question: 'Ok?', fields: [{ name: 'ok', label: 'Ok?', type: 'boolean' }] };
const RACERS = 200;

let h: McpHarness;
beforeAll(async () => {
  h = await startMcpHarness();
});
afterAll(async () => h?.close());

async function codesOf(results: Array<Awaited<ReturnType<Client['callTool']>>>): Promise<Record<string, number>> {
  const codes: Record<string, number> = {};
  for (const result of results) {
    const code = result.isError ? String((structured(result) as { error?: { code?: string } }).error?.code) : 'ok';
    codes[code] = (codes[code] ?? 0) + 1;
  }
  return codes;
}

async function countOf(query: ReturnType<typeof sql>): Promise<number> {
  const [row] = await queryRows<{ n: number }>(h.database.db, query);
  return Number(row?.n ?? 0);
}

async function counted(key: string): Promise<number> {
  return countOf(sql`select coalesce((select counted from open_counts where key = ${key}), 0)::int as n`);
}

describe('exact caps under 200 concurrent creates', () => {
  it('one principal: exactly 100 unfinished interactions; the other 100 get STATE_STORE_FULL and leave nothing', async () => {
    const { workspaceId } = await createWorkspace(h.database.db, { plan: 'enterprise' });
    const { token, principal } = await h.addPrincipal({ workspaceId });
    const clients = await Promise.all(Array.from({ length: 4 }, () => h.connect(token, 'modern')));
    const results = await Promise.all(
      Array.from({ length: RACERS }, (_, i) => clients[i % clients.length]!.callTool({ name: 'sess_ask', arguments: ask })),
    );
    expect(await codesOf(results)).toEqual({ ok: 100, STATE_STORE_FULL: 100 });
    expect(await countOf(sql`select count(*)::int as n from mcp_handles where workspace_id = ${workspaceId}`)).toBe(100);
    // No session without its handle: the refused creates wrote nothing.
    expect(await countOf(sql`select count(*)::int as n from form_sessions where workspace_id = ${workspaceId}`)).toBe(100);
    expect(await counted(`principal:${workspaceId}:${principal.principalId}`)).toBe(100);
    for (const c of clients) await c.close();
  });

  it("a free workspace: exactly its plan's 100 open sessions across four principals; the rest get PLAN_LIMIT_REACHED", async () => {
    const { workspaceId } = await createWorkspace(h.database.db, { plan: 'free' });
    const principals = await Promise.all(Array.from({ length: 4 }, () => h.addPrincipal({ workspaceId })));
    const clients = await Promise.all(principals.map((p) => h.connect(p.token, 'modern')));
    const results = await Promise.all(
      Array.from({ length: RACERS }, (_, i) => clients[i % clients.length]!.callTool({ name: 'sess_ask', arguments: ask })),
    );
    expect(await codesOf(results)).toEqual({ ok: 100, PLAN_LIMIT_REACHED: 100 });
    expect(await countOf(sql`select count(*)::int as n from form_sessions where workspace_id = ${workspaceId}`)).toBe(100);
    expect(await countOf(sql`select count(*)::int as n from mcp_handles where workspace_id = ${workspaceId}`)).toBe(100);
    expect(await counted(`workspace:${workspaceId}`)).toBe(100);
    for (const c of clients) await c.close();
  });

  it('a free workspace whose links closed for good: the counter still says 100, an exact count admits exactly 100 more', async () => {
    const { workspaceId } = await createWorkspace(h.database.db, { plan: 'free' });
    // 100 stored-open sessions whose links close for good in 60 s (not extendable past it).
    for (let i = 0; i < 100; i++) await createTestSession(h.runtime, workspaceId, { expiresIn: 60 });
    expect(await counted(`workspace:${workspaceId}`)).toBe(100);
    const principals = await Promise.all(Array.from({ length: 4 }, () => h.addPrincipal({ workspaceId })));
    const clients = await Promise.all(principals.map((p) => h.connect(p.token, 'modern')));
    const refused = await clients[0]!.callTool({ name: 'sess_ask', arguments: ask });
    expect(await codesOf([refused])).toEqual({ PLAN_LIMIT_REACHED: 1 });
    h.clock.advance(8 * 86_400_000);
    const results = await Promise.all(
      Array.from({ length: RACERS }, (_, i) => clients[i % clients.length]!.callTool({ name: 'sess_ask', arguments: ask })),
    );
    expect(await codesOf(results)).toEqual({ ok: 100, PLAN_LIMIT_REACHED: 100 });
    const open = await countOf(
      sql`select count(*)::int as n from form_sessions
           where workspace_id = ${workspaceId} and state = 'open' and closes_at > ${h.clock.now().toISOString()}::timestamptz`,
    );
    expect(open).toBe(100);
    for (const c of clients) await c.close();
  });

  it('the counters follow every change of state: a cancel frees a place at once, on both counters', async () => {
    const { workspaceId } = await createWorkspace(h.database.db, { plan: 'free' });
    const { token, principal } = await h.addPrincipal({ workspaceId });
    const c = await h.connect(token, 'modern');
    const made = structured(await c.callTool({ name: 'sess_ask', arguments: ask })) as { interaction: { handle: string } };
    expect(await counted(`workspace:${workspaceId}`)).toBe(1);
    expect(await counted(`principal:${workspaceId}:${principal.principalId}`)).toBe(1);
    expect((await c.callTool({ name: 'sess_cancel', arguments: { handle: made.interaction.handle } })).isError).toBeFalsy();
    expect(await counted(`workspace:${workspaceId}`)).toBe(0);
    expect(await counted(`principal:${workspaceId}:${principal.principalId}`)).toBe(0);
    await c.close();
  });
});
