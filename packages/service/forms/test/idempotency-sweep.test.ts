import { queryRows } from '@sess/db';
import { createFormsRuntime, createSession, deleteExpiredIdempotencyKeys, type FormsRuntime } from '@sess/forms';
import {
  createTestDatabase,
  createTestLogger,
  createWorkspace,
  sampleSurface,
  TEST_SECRET,
  type TestDatabase,
} from '@sess/testkit';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { key } from '../src/test-helpers.ts';

/*
 * Idempotency keys are remembered for 24 hours, then swept: by a chunked delete that creates
 * start at most hourly per process (nothing to schedule, nothing to stop).
 */

const HOUR = 3_600_000;
let database: TestDatabase;
let workspaceId: string;
const runtimes: FormsRuntime[] = [];

function runtimeAt(at: number): FormsRuntime {
  const runtime = createFormsRuntime({
    database,
    publicUrl: 'http://sess.test',
    secret: TEST_SECRET,
    logger: createTestLogger(),
    now: () => new Date(at),
  });
  runtimes.push(runtime);
  return runtime;
}

async function keysOf(keys: string[]): Promise<string[]> {
  const rows = await queryRows<{ key: string }>(
    database.db,
    sql`select key from idempotency_keys where workspace_id = ${workspaceId}
          and key in (${sql.join(
            keys.map((k) => sql`${k}`),
            sql`, `,
          )}) order by key`,
  );
  return rows.map((row) => row.key);
}

beforeAll(async () => {
  database = await createTestDatabase();
  workspaceId = (await createWorkspace(database.db, { plan: 'enterprise' })).workspaceId;
});
afterAll(async () => {
  await Promise.all(runtimes.map((runtime) => runtime.close()));
  await database.destroy();
});

describe('idempotency key sweep', () => {
  it('deletes every key older than 24 hours, a chunk at a time, and keeps the younger ones', async () => {
    const at = Date.parse('2032-03-01T12:00:00Z');
    await database.db.execute(sql`
      insert into idempotency_keys (workspace_id, scope, key, request_sha256, status, response, created_at)
      select ${workspaceId}, 'v1', 'stale-' || n, repeat('a', 64), 201, 'null'::jsonb,
             ${new Date(at - 25 * HOUR).toISOString()}::timestamptz - n * interval '1 second'
        from generate_series(1, 5003) as n`);
    await database.db.execute(sql`
      insert into idempotency_keys (workspace_id, scope, key, request_sha256, status, response, created_at)
      values (${workspaceId}, 'v1', 'young-1', repeat('a', 64), 201, 'null'::jsonb, ${new Date(at - 23 * HOUR).toISOString()}::timestamptz),
             (${workspaceId}, 'v1', 'young-2', repeat('a', 64), 201, 'null'::jsonb, ${new Date(at).toISOString()}::timestamptz)`);

    // More than one chunk (5,000) of stale keys: all go, in one call.
    expect(await deleteExpiredIdempotencyKeys(database.db, new Date(at))).toBe(5003);
    const [left] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from idempotency_keys where workspace_id = ${workspaceId} and key like 'stale-%'`,
    );
    expect(Number(left?.n)).toBe(0);
    expect(await keysOf(['young-1', 'young-2'])).toEqual(['young-1', 'young-2']);
  });

  it('runs when a create comes, at most once an hour, and a key past its window may be used again', async () => {
    const day1 = Date.parse('2032-04-01T09:00:00Z');
    const before = runtimeAt(day1);
    await before.sweepIfDue(); // this process has swept: its creates below sweep nothing
    const old = key();
    const first = await createSession({
      ctx: { runtime: before, workspaceId, plan: 'enterprise' },
      input: { interaction: sampleSurface() },
      idempotencyKey: old,
    });
    expect(await keysOf([old])).toEqual([old]);

    // A day and an hour later, another process's first create starts a sweep.
    const after = runtimeAt(day1 + 25 * HOUR);
    const young = key();
    await createSession({
      ctx: { runtime: after, workspaceId, plan: 'enterprise' },
      input: { interaction: sampleSurface() },
      idempotencyKey: young,
    });
    await vi.waitFor(async () => expect(await keysOf([old, young])).toEqual([young]));
    expect(after.sweepIfDue()).toBeUndefined();

    // The forgotten key now makes a new session instead of replaying the first.
    const again = await createSession({
      ctx: { runtime: after, workspaceId, plan: 'enterprise' },
      input: { interaction: sampleSurface() },
      idempotencyKey: old,
    });
    expect(again.sessionId).not.toBe(first.sessionId);
  });
});
