import { queryRows, type Tx } from '@sess/db';
import { type ApiKeyNoticeForm, createFormsRuntime, createSession, type FormsRuntime } from '@sess/forms';
import {
  createTestDatabase,
  createTestLogger,
  createWorkspace,
  sampleSurface,
  TEST_SECRET,
  type TestDatabase,
} from '@sess/testkit';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

/*
 * forms' `apiKeyNotices` (an API key's create, `notifyOwners`): nobody wants it → the create is
 * the one-statement group commit, unchanged; someone wants it → the create runs in a transaction
 * and the notice is enqueued in that same transaction, so it commits with the form or not at all.
 * The hooks here are apps/server's contract (`wanted`, `enqueue`) answered by the test.
 */

let database: TestDatabase;
let runtime: FormsRuntime;
let workspaceId: string;
const wanting = new Set<string>();
let asked = 0;
let enqueued: Array<{ form: ApiKeyNoticeForm; xid: string }> = [];
let failEnqueue = false;

beforeAll(async () => {
  database = await createTestDatabase();
  runtime = createFormsRuntime({
    database,
    publicUrl: 'http://sess.test',
    secret: TEST_SECRET,
    logger: createTestLogger(),
    apiKeyNotices: {
      async wanted(id) {
        asked += 1;
        return wanting.has(id);
      },
      async enqueue(tx: Tx, form) {
        if (failEnqueue) throw new Error('the outbox refused');
        const [row] = await queryRows<{ xid: string }>(tx, sql`select pg_current_xact_id()::text as xid`);
        enqueued.push({ form, xid: row!.xid });
        return true;
      },
    },
  });
  // No open-session limit: the creates that tell nobody are the group-commit path.
  workspaceId = (await createWorkspace(database.db, { plan: 'enterprise' })).workspaceId;
});
afterAll(async () => {
  await runtime.close();
  await database.destroy();
});
beforeEach(() => {
  wanting.clear();
  asked = 0;
  enqueued = [];
  failEnqueue = false;
});

const ctx = () => ({ runtime, workspaceId, plan: 'enterprise' });
const create = (title: string, idempotencyKey?: string, notifyOwners = true) =>
  createSession({ ctx: ctx(), input: { interaction: sampleSurface(title) }, idempotencyKey, notifyOwners });

/** The transactions that wrote these sessions (rows written by one statement share one). */
async function writers(ids: string[]): Promise<string[]> {
  const rows = await queryRows<{ xid: string }>(
    database.db,
    sql`select distinct xmin::text as xid from form_sessions where id in ${sql.raw(`(${ids.map((id) => `'${id}'`).join(',')})`)}`,
  );
  return rows.map((row) => row.xid);
}

describe('forms apiKeyNotices', () => {
  it('nobody wants it: the creates of one moment still share one statement, notified false, nothing enqueued', async () => {
    const created = await Promise.all(Array.from({ length: 10 }, (_, i) => create(`Form ${i}`, `quiet-${i}`)));
    expect(created.map((c) => c.notified)).toEqual(created.map(() => false));
    expect(await writers(created.map((c) => c.sessionId))).toHaveLength(1);
    expect(enqueued).toEqual([]);
  });

  it('someone wants it: the notice is enqueued in the create’s own transaction, with the title, link and deadline', async () => {
    wanting.add(workspaceId);
    const created = await create('Rotate the keys?', 'told-1');
    expect(created.notified).toBe(true);
    expect(enqueued).toHaveLength(1);
    expect(enqueued[0]!.form).toEqual({
      workspaceId,
      sessionId: created.sessionId,
      title: 'Rotate the keys?',
      url: created.humanUrl,
      expiresAt: new Date(created.expiresAt),
    });
    expect(await writers([created.sessionId])).toEqual([enqueued[0]!.xid]);
    // A replay answers as stored and enqueues nothing more.
    expect(await create('Rotate the keys?', 'told-1')).toEqual(created);
    expect(enqueued).toHaveLength(1);
  });

  it('a create without notifyOwners (the hosted /mcp path writes its own) never asks', async () => {
    wanting.add(workspaceId);
    const created = await create('Not an API key', 'no-flag', false);
    expect(created.notified).toBe(false);
    expect(asked).toBe(0);
    expect(enqueued).toEqual([]);
  });

  it('an enqueue that fails takes the form with it; the same key may be sent again', async () => {
    wanting.add(workspaceId);
    failEnqueue = true;
    await expect(create('Refused', 'again-1')).rejects.toThrow('the outbox refused');
    const [count] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from form_sessions where workspace_id = ${workspaceId}`,
    );
    failEnqueue = false;
    const before = Number(count?.n);
    const created = await create('Refused', 'again-1');
    expect(created.notified).toBe(true);
    const [after] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from form_sessions where workspace_id = ${workspaceId}`,
    );
    expect(Number(after?.n)).toBe(before + 1);
  });
});
