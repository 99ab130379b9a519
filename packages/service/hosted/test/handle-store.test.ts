import { HANDLE_MACHINE, HANDLE_STATES, type HandleState, isUnfinishedHandleState, STORED_SESSION_MACHINE } from '@sess/contract';
import { newId } from '@sess/core';
import { queryRows } from '@sess/db';
import { type HandleBinding, type HandleRecord, MAX_UNFINISHED_PER_PRINCIPAL } from '@sess/interactions';
import { createTestDatabase, createWorkspace, describeHandleStoreContract, TEST_SECRET, type TestDatabase } from '@sess/testkit';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPostgresHandleStore } from '../src/index.ts';

/*
 * The PostgreSQL handle store on both drivers: the shared HandleStore contract
 * (@sess/testkit, handle-store-contract.ts — the file store runs the same suite), then what only
 * this store does: the link and answer sealed in the table, the cap counted in the table, a
 * database gone, and the retention sweep.
 */

let database: TestDatabase;
let binding: HandleBinding;
let otherWorkspaceId: string;
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
  otherWorkspaceId = (await createWorkspace(database.db)).workspaceId;
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

describeHandleStoreContract('PostgreSQL handle store', async () => ({
  bind: (b) => store.bind(b),
  binding: { ...binding, principalId: newId('user') },
  otherWorkspaceId,
}));

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
    await bound.update(r.handle, 1, {
      state: 'answered',
      sealed: {
        humanUrl: 'https://sess.test/s/the-secret-link-token',
        response: {
          eventId: 'evt_1',
          revision: 1,
          actionId: 'approve',
          values: { pin: 'plain-answer-9876' },
          receipt: 'x.y.z',
          answeredAt: now().toISOString(),
        },
      },
    });
    const [sealed] = await queryRows<{ sealed: string }>(
      database.db,
      sql`select sealed from mcp_handles where handle = ${r.handle}`,
    );
    expect(sealed!.sealed).not.toContain('plain-answer-9876');
    await bound.update(r.handle, 2, { state: 'completed', sealed: null });
    const [cleared] = await queryRows<{ sealed: string | null }>(
      database.db,
      sql`select sealed from mcp_handles where handle = ${r.handle}`,
    );
    expect(cleared!.sealed).toBeNull();
  });

  it('an update sets what the patch sets, clears to SQL NULL what it clears, and keeps the rest, whatever shape came before', async () => {
    // Each patch shape is its own prepared statement: run shapes in turn on one row, and the same
    // shape twice, and read the columns back as PostgreSQL holds them.
    const bound = store.bind(binding);
    const r = record(binding, {
      state: 'create_intent',
      intent: { tool: 'sess_request', idempotencyKey: 'k', requestSha256: 'b'.repeat(64) },
    });
    await bound.insert(r);
    const pending = { kind: 'publish' as const, expectedRevision: 1, requestSha256: 'c'.repeat(64), idempotencyKey: 'p' };
    const columns = async () =>
      (
        await queryRows<Record<string, unknown>>(
          database.db,
          sql`select state, version, intent is null as intent_null, pending is null as pending_null, pending,
                     expires_at is null as expires_null, blocked_reason, revision from mcp_handles where handle = ${r.handle}`,
        )
      )[0]!;
    let saved = await bound.update(r.handle, 1, { state: 'waiting', intent: null, expiresAt: '2030-02-01T00:00:00.000Z' });
    expect(saved).toMatchObject({ state: 'waiting', version: 2, expiresAt: '2030-02-01T00:00:00.000Z' });
    expect(saved?.intent).toBeUndefined();
    expect(await columns()).toMatchObject({ state: 'waiting', version: 2, intent_null: true, expires_null: false });
    saved = await bound.update(r.handle, 2, { pending });
    expect(saved?.pending).toEqual(pending);
    expect(await columns()).toMatchObject({ version: 3, pending_null: false, pending, intent_null: true });
    saved = await bound.update(r.handle, 3, { pending: null, revision: 2, expiresAt: null });
    expect(await columns()).toMatchObject({ version: 4, pending_null: true, expires_null: true, revision: 2, state: 'waiting' });
    expect(saved?.expiresAt).toBeUndefined();
    // The same shape again, on another version; a stale version changes nothing.
    expect(await bound.update(r.handle, 3, { pending })).toBeUndefined();
    saved = await bound.update(r.handle, 4, { pending });
    expect(await columns()).toMatchObject({ version: 5, pending, revision: 2 });
    saved = await bound.update(r.handle, 5, { state: 'blocked', blockedReason: 'moved_on', pending: null });
    expect(await columns()).toMatchObject({ version: 6, state: 'blocked', blocked_reason: 'moved_on', pending_null: true });
    expect(saved).toMatchObject({ state: 'blocked', blockedReason: 'moved_on', revision: 2 });
  });

  it('the cap counts the principal’s unfinished rows in the table', async () => {
    const b = { ...binding, principalId: newId('user') };
    const bound = store.bind(b);
    const results = await Promise.allSettled(
      Array.from({ length: MAX_UNFINISHED_PER_PRINCIPAL + 3 }, () => bound.insert(record(b))),
    );
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(3);
    const [count] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from mcp_handles where principal_id = ${b.principalId}`,
    );
    expect(count!.n).toBe(MAX_UNFINISHED_PER_PRINCIPAL);
  });

  it('the cap is the principal’s counter in open_counts, which the triggers keep through every change of a row', async () => {
    const b = { ...binding, principalId: newId('user') };
    const bound = store.bind(b);
    const counter = async () =>
      (
        await queryRows<{ n: number }>(
          database.db,
          sql`select coalesce((select counted from open_counts where key = ${`principal:${b.workspaceId}:${b.principalId}`}), 0)::int as n`,
        )
      )[0]!.n;
    const [waiting, answered, done] = [record(b), record(b, { state: 'answered' }), record(b, { state: 'completed' })];
    for (const r of [waiting, answered, done]) await bound.insert(r);
    expect(await counter()).toBe(2);
    await bound.update(waiting.handle, waiting.version, { state: 'cancelled' });
    expect(await counter()).toBe(1);
    await bound.update(answered.handle, answered.version, { blockedReason: 'unchanged state' });
    expect(await counter()).toBe(1);
    await database.db.execute(sql`delete from mcp_handles where principal_id = ${b.principalId}`);
    expect(await counter()).toBe(0);
  });

  it('the counters’ triggers name the contract’s unfinished handle states and its open session state', async () => {
    for (const state of HANDLE_STATES) {
      const [row] = await queryRows<{ unfinished: boolean }>(
        database.db,
        sql`select sess_unfinished_handle(${state}) as unfinished`,
      );
      expect([state, row!.unfinished]).toEqual([state, isUnfinishedHandleState(state)]);
    }
    expect(STORED_SESSION_MACHINE.initial).toEqual(['open']);
  });

  it('no transition enters a counted state: the counters may take a decrease at COMMIT (migration 0012), never an increase', () => {
    const entering = (machine: typeof HANDLE_MACHINE | typeof STORED_SESSION_MACHINE, counts: (state: string) => boolean) =>
      Object.entries(machine.transitions as Record<string, { from: readonly string[]; to: string }>).flatMap(([event, t]) =>
        t.from.filter((from) => !counts(from) && counts(t.to)).map((from) => `${event}: ${from} -> ${t.to}`),
      );
    expect(entering(HANDLE_MACHINE, (state) => isUnfinishedHandleState(state as HandleState))).toEqual([]);
    expect(entering(STORED_SESSION_MACHINE, (state) => state === 'open')).toEqual([]);
  });

  it('recording an answer skips only its own commit’s WAL flush: the row is saved, the connection keeps synchronous_commit', async () => {
    const b = { ...binding, principalId: newId('user') };
    const bound = store.bind(b);
    const r = record(b);
    await bound.insert(r);
    const saved = await bound.update(r.handle, r.version, { state: 'answered' });
    expect(saved).toMatchObject({ state: 'answered', version: r.version + 1 });
    expect((await bound.get(r.handle))?.state).toBe('answered');
    // Every connection of the pool answers with the server's setting afterwards.
    const settings = await Promise.all(
      Array.from({ length: 12 }, () =>
        queryRows<{ v: string }>(database.db, sql`select current_setting('synchronous_commit') as v`),
      ),
    );
    expect(new Set(settings.map((rows) => rows[0]!.v))).toEqual(new Set(['on']));
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
