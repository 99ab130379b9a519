import { isSessError, newId } from '@sess/core';
import { queryRows } from '@sess/db';
import type { HandleBinding, HandleRecord } from '@sess/interactions';
import { createTestDatabase, createWorkspace, TEST_SECRET, type TestDatabase } from '@sess/testkit';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPostgresHandleStore } from '../src/index.ts';

/*
 * The PostgreSQL handle store on both drivers: sealed link and answer data, compare-and-set,
 * workspace scoping, the per-principal cap under concurrency, and the list.
 */

let database: TestDatabase;
let binding: HandleBinding;
let store: ReturnType<typeof createPostgresHandleStore>;
let t = Date.parse('2030-01-01T00:00:00Z');
const now = () => new Date(t);

beforeAll(async () => {
  database = await createTestDatabase();
  store = createPostgresHandleStore({ db: database.db, secret: TEST_SECRET, now });
  binding = {
    origin: 'https://sess.test',
    workspaceId: (await createWorkspace(database.db)).workspaceId,
    principalId: newId('user'),
    clientId: newId('oauthClient'),
    grantId: newId('oauthGrant'),
    grantGeneration: 1,
  };
});
afterAll(async () => database?.destroy());

function record(b: HandleBinding, overrides: Partial<HandleRecord> = {}): HandleRecord {
  t += 1000;
  const at = new Date(t).toISOString();
  return {
    ...b,
    handle: newId('handle'),
    kind: 'interaction',
    state: 'waiting',
    version: 1,
    revision: 1,
    title: 'Approve this commit?',
    sessionId: newId('session'),
    surfaceSha256: 'a'.repeat(64),
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

describe('PostgreSQL handle store', () => {
  it('seals the link and the answer at rest and removes them when asked', async () => {
    const bound = store.bind(binding);
    const r = record(binding, { humanUrl: 'https://sess.test/s/the-secret-link-token' });
    await bound.insert(r);
    const [row] = await queryRows<Record<string, unknown>>(
      database.db,
      sql`select * from mcp_handles where handle = ${r.handle}`,
    );
    expect(JSON.stringify(row)).not.toContain('the-secret-link-token');
    expect((await bound.get(r.handle))?.humanUrl).toBe('https://sess.test/s/the-secret-link-token');
    const answered = await bound.update(r.handle, 1, {
      state: 'answered',
      sealed: {
        humanUrl: 'https://sess.test/s/the-secret-link-token',
        response: {
          eventId: 'evt_1',
          revision: 1,
          actionId: 'approve',
          values: { pin: '9876' },
          receipt: 'x.y.z',
          answeredAt: now().toISOString(),
        },
      },
    });
    expect(answered?.response?.values).toEqual({ pin: '9876' });
    const [sealed] = await queryRows<{ sealed: string }>(
      database.db,
      sql`select sealed from mcp_handles where handle = ${r.handle}`,
    );
    expect(sealed!.sealed).not.toContain('9876');
    const completed = await bound.update(r.handle, 2, { state: 'completed', sealed: null });
    expect(completed).toMatchObject({ state: 'completed', version: 3 });
    expect(completed?.humanUrl).toBeUndefined();
    expect(completed?.response).toBeUndefined();
  });

  it('compare-and-set: an update at a stale version changes nothing', async () => {
    const bound = store.bind(binding);
    const r = record(binding);
    await bound.insert(r);
    expect(await bound.update(r.handle, 1, { state: 'answered' })).toMatchObject({ version: 2 });
    expect(await bound.update(r.handle, 1, { state: 'blocked' })).toBeUndefined();
    expect((await bound.get(r.handle))?.state).toBe('answered');
  });

  it('removeIntent deletes only a create_intent at its version, in the binding workspace', async () => {
    const bound = store.bind(binding);
    const intent = record(binding, { state: 'create_intent', sessionId: undefined });
    await bound.insert(intent);
    const elsewhere = store.bind({ ...binding, workspaceId: (await createWorkspace(database.db)).workspaceId });
    expect(await elsewhere.removeIntent(intent.handle, 1)).toBe(false);
    expect(await bound.removeIntent(intent.handle, 2)).toBe(false);
    expect(await bound.get(intent.handle)).toBeDefined();
    expect(await bound.removeIntent(intent.handle, 1)).toBe(true);
    expect(await bound.get(intent.handle)).toBeUndefined();
    // Anything past the intent is kept, whatever its version.
    const waiting = record(binding);
    await bound.insert(waiting);
    expect(await bound.removeIntent(waiting.handle, 1)).toBe(false);
    expect((await bound.get(waiting.handle))?.state).toBe('waiting');
  });

  it('reads are scoped to the binding workspace', async () => {
    const r = record(binding);
    await store.bind(binding).insert(r);
    const otherWorkspace = { ...binding, workspaceId: (await createWorkspace(database.db)).workspaceId };
    expect(await store.bind(otherWorkspace).get(r.handle)).toBeUndefined();
    expect(await store.bind(otherWorkspace).update(r.handle, 1, { state: 'blocked' })).toBeUndefined();
  });

  it('at most 100 unfinished per principal, exact under concurrent inserts; finished ones do not count', async () => {
    const b = { ...binding, principalId: newId('user') };
    const bound = store.bind(b);
    for (let i = 0; i < 95; i++) await bound.insert(record(b));
    await bound.insert(record(b, { state: 'completed' }));
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => bound.insert(record(b))));
    const refused = results.filter((r) => r.status === 'rejected');
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    for (const r of refused) {
      const reason = (r as PromiseRejectedResult).reason;
      expect(isSessError(reason) && reason.code).toBe('STATE_STORE_FULL');
    }
    const [count] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from mcp_handles where principal_id = ${b.principalId} and state <> 'completed'`,
    );
    expect(count!.n).toBe(100);
  });

  it('lists the binding’s own handles newest first, with a cursor and a status filter', async () => {
    const b = { ...binding, principalId: newId('user') };
    const bound = store.bind(b);
    const made: HandleRecord[] = [];
    for (let i = 0; i < 5; i++) {
      const r = record(b, { title: `Q${i}`, state: i === 0 ? 'cancelled' : 'waiting' });
      made.push(r);
      await bound.insert(r);
    }
    await store.bind({ ...b, grantGeneration: 2 }).insert(record({ ...b, grantGeneration: 2 }, { title: 'newer grant' }));
    const first = await bound.list({ status: 'open', limit: 2 });
    expect(first.records.map((r) => r.title)).toEqual(['Q4', 'Q3']);
    const second = await bound.list({ status: 'open', limit: 2, cursor: first.nextCursor! });
    expect(second.records.map((r) => r.title)).toEqual(['Q2', 'Q1']);
    expect(second.nextCursor).toBeUndefined();
    expect((await bound.list({ status: 'cancelled', limit: 10 })).records.map((r) => r.title)).toEqual(['Q0']);
    await expect(bound.list({ status: 'all', limit: 10, cursor: 'garbage' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENTS',
    });
  });

  it('a store whose database is gone answers STATE_STORE_ERROR, retryable', async () => {
    const gone = await createTestDatabase();
    const broken = createPostgresHandleStore({ db: gone.db, secret: TEST_SECRET }).bind(binding);
    await gone.destroy();
    await expect(broken.get(newId('handle'))).rejects.toMatchObject({ code: 'STATE_STORE_ERROR', retryable: true });
  });
});

describe('retention sweep of finished handles', () => {
  const DAY = 86_400_000;
  const sweepAt = Date.parse('2031-06-01T00:00:00Z');
  const aged = (b: HandleBinding, state: HandleRecord['state'], days: number) => {
    const at = new Date(sweepAt - days * DAY).toISOString();
    return record(b, { state, createdAt: at, updatedAt: at });
  };
  const present = async (handles: string[]) =>
    (
      await queryRows<{ handle: string }>(
        database.db,
        sql`select handle from mcp_handles where handle in (${sql.join(
          handles.map((h) => sql`${h}`),
          sql`, `,
        )}) order by handle`,
      )
    ).map((row) => row.handle);

  /** A store whose own sweep has already run, so inserting through it sweeps nothing. */
  async function seeder() {
    const s = createPostgresHandleStore({ db: database.db, secret: TEST_SECRET, now: () => new Date(sweepAt) });
    await s.sweepIfDue();
    return s;
  }

  it('deletes handles finished more than 30 days ago, never an unfinished one (blocked included)', async () => {
    const b = { ...binding, principalId: newId('user') };
    const bound = (await seeder()).bind(b);
    const old = [aged(b, 'completed', 31), aged(b, 'cancelled', 45), aged(b, 'expired', 90), aged(b, 'closed', 31)];
    const kept = [aged(b, 'completed', 29), aged(b, 'blocked', 400), aged(b, 'create_unknown', 400), aged(b, 'waiting', 400)];
    for (const r of [...old, ...kept]) await bound.insert(r);

    const sweeper = createPostgresHandleStore({ db: database.db, secret: TEST_SECRET, now: () => new Date(sweepAt) });
    await sweeper.sweepIfDue();
    expect(await present([...old, ...kept].map((r) => r.handle))).toEqual(kept.map((r) => r.handle).sort());
    // Not again within the hour.
    expect(sweeper.sweepIfDue()).toBeUndefined();
  });

  it('rides on creates: the first insert of a process starts a sweep', async () => {
    const b = { ...binding, principalId: newId('user') };
    const stale = aged(b, 'completed', 60);
    await (await seeder()).bind(b).insert(stale);
    const fresh = createPostgresHandleStore({ db: database.db, secret: TEST_SECRET, now: () => new Date(sweepAt) });
    await fresh.bind(b).insert(aged(b, 'waiting', 0));
    await vi.waitFor(async () => expect(await present([stale.handle])).toEqual([]));
  });
});
