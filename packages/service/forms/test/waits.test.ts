import { type Database, openDatabase, queryRows } from '@sess/db';
import {
  type FormsRuntime,
  publishSession,
  readSession,
  submitLinkAnswer,
  type WorkspaceContext,
  waitLink,
  withdrawSession,
} from '@sess/forms';
import {
  createTestClock,
  createTestDatabase,
  createTestFormsRuntime,
  createTestLogger,
  createTestSession,
  createWorkspace,
  onlyOn,
  sampleSurface,
  type TestDatabase,
  testDriver,
} from '@sess/testkit';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { key } from '../src/test-helpers.ts';
import { WaiterHub, waitForChange } from '../src/waits/waiter-hub.ts';

const onPostgres = testDriver() === 'postgres';

/*
 * One clock the test moves by hand for the verbs and for the waits' deadlines and expiries, so
 * a wait that returns while it stands still was ended by its event, and "time passing" is an
 * advance that fires the timers that fall due, never a sleep.
 */
const clock = createTestClock(new Date());
const now = clock.now;

let database: TestDatabase;
let runtime: FormsRuntime;
let ctx: WorkspaceContext;

beforeAll(async () => {
  database = await createTestDatabase({ poolMax: 2 });
  runtime = createTestFormsRuntime(database, { now, waitClock: clock });
  ctx = { runtime, workspaceId: (await createWorkspace(database.db, { plan: 'pro' })).workspaceId };
});
afterAll(async () => {
  await runtime.close();
  await database.destroy();
});

async function answer(token: string, revision = 1) {
  const result = await submitLinkAnswer(runtime, token, { revision, actionId: 'approve', submitted: { message: 'ok' } });
  if (!result.ok) throw new Error('refused');
  return result.eventId;
}

/** Resolves once `n` waits are parked in this runtime: each read its session and set its timer. */
async function parked(n: number, r: FormsRuntime = runtime) {
  await expect.poll(() => [r.waiters.size, clock.pending().length], { timeout: 5000, interval: 5 }).toEqual([n, n]);
}

describe('read with wait', () => {
  it('returns at once when the revision is already answered', async () => {
    const s = await createTestSession(runtime, ctx.workspaceId);
    await answer(s.token);
    const view = await readSession({ ctx, sessionId: s.sessionId, waitMs: 45_000 });
    expect(view.state).toBe('answered');
    expect(clock.pending()).toEqual([]);
    expect(runtime.waiters.size).toBe(0);
  });

  it('parks until an answer lands, then returns answered', async () => {
    const s = await createTestSession(runtime, ctx.workspaceId);
    const waiting = readSession({ ctx, sessionId: s.sessionId, waitMs: 30_000 });
    await parked(1);
    expect(clock.pending()).toEqual([30_000]); // parked on its deadline, which the clock never reaches
    const eventId = await answer(s.token);
    const view = await waiting;
    expect(view).toMatchObject({ state: 'answered', response: { eventId } });
    expect(clock.pending()).toEqual([]);
    expect(runtime.waiters.size).toBe(0);
  });

  it('returns waiting at its deadline and frees its waiter', async () => {
    const s = await createTestSession(runtime, ctx.workspaceId);
    let returned = false;
    const waiting = readSession({ ctx, sessionId: s.sessionId, waitMs: 150 }).then((view) => {
      returned = true;
      return view;
    });
    await parked(1);
    clock.advance(149);
    await new Promise(setImmediate); // a turn for anything that did settle
    expect(returned).toBe(false);
    clock.advance(1);
    expect((await waiting).state).toBe('waiting');
    expect(runtime.waiters.size).toBe(0);
  });

  it('is released at once when its signal aborts (a client that went away)', async () => {
    const s = await createTestSession(runtime, ctx.workspaceId);
    const controller = new AbortController();
    const waiting = readSession({ ctx, sessionId: s.sessionId, waitMs: 30_000, signal: controller.signal });
    await parked(1);
    controller.abort();
    expect((await waiting).state).toBe('waiting');
    expect(clock.pending()).toEqual([]);
    expect(runtime.waiters.size).toBe(0);
  });

  it('returns expired when the link expires during the wait (no notification needed)', async () => {
    // Not extendable (over 20 hours), so its deadline is its end.
    const s = await createTestSession(runtime, ctx.workspaceId, { expiresIn: 72_001 });
    clock.advance(72_001_000 - 200);
    const waiting = readSession({ ctx, sessionId: s.sessionId, waitMs: 10_000 });
    await parked(1);
    expect(clock.pending()).toEqual([200]); // the expiry, before the deadline
    clock.advance(200);
    expect((await waiting).state).toBe('expired');
  });

  it('wakes on withdraw and on a publish of the next revision', async () => {
    const s = await createTestSession(runtime, ctx.workspaceId);
    const waiting = readSession({ ctx, sessionId: s.sessionId, waitMs: 30_000 });
    await parked(1);
    await withdrawSession({ ctx, sessionId: s.sessionId });
    expect((await waiting).state).toBe('withdrawn');
  });
});

describe('waitLink (the answer page)', () => {
  it('follows an answered page to the next form when the agent publishes', async () => {
    const s = await createTestSession(runtime, ctx.workspaceId);
    const eventId = await answer(s.token);
    const waiting = waitLink(runtime, s.token, { revision: 1, state: 'answered', waitMs: 30_000 });
    await parked(1);
    await publishSession({
      ctx,
      sessionId: s.sessionId,
      expectedRevision: 1,
      idempotencyKey: key(),
      input: { response_event_id: eventId, interaction: sampleSurface('Next step') },
    });
    const view = await waiting;
    expect(view).toMatchObject({ kind: 'interaction', state: 'open', revision: 2 });
    expect(view.surface.title).toBe('Next step');
  });

  it('returns at once when the page is behind, and after waitMs when nothing changes', async () => {
    const s = await createTestSession(runtime, ctx.workspaceId);
    expect(await waitLink(runtime, s.token, { revision: 1, state: 'answered', waitMs: 30_000 })).toMatchObject({ state: 'open' });
    const idle = waitLink(runtime, s.token, { revision: 1, waitMs: 100 });
    await parked(1);
    clock.advance(100);
    expect(await idle).toMatchObject({ state: 'open' });
    expect(runtime.waiters.size).toBe(0);
  });
});

describe('letting the oldest waits go (a process near its connection limit)', () => {
  it('releases the oldest first: they return still waiting, the younger stay parked and still get their answer', async () => {
    const [first, second, third] = await Promise.all([1, 2, 3].map(() => createTestSession(runtime, ctx.workspaceId)));
    const settled: string[] = [];
    const waitFor = (name: string, wait: Promise<{ state: string }>) =>
      wait.then((view) => {
        settled.push(name);
        return view;
      });
    // Parked one after the other, so their age order is known.
    const oldest = waitFor('first', readSession({ ctx, sessionId: first!.sessionId, waitMs: 30_000 }));
    await parked(1);
    const page = waitFor('second', waitLink(runtime, second!.token, { revision: 1, waitMs: 30_000 }));
    await parked(2);
    const youngest = waitFor('third', readSession({ ctx, sessionId: third!.sessionId, waitMs: 30_000 }));
    await parked(3);

    expect(runtime.releaseOldestWaits(2)).toBe(2);
    expect((await oldest).state).toBe('waiting');
    expect((await page).state).toBe('open');
    expect([...settled].sort()).toEqual(['first', 'second']);
    expect(runtime.waiters.size).toBe(1);

    const eventId = await answer(third!.token);
    expect(await youngest).toMatchObject({ state: 'answered', response: { eventId } });
    expect(settled.at(-1)).toBe('third');
    expect(runtime.releaseOldestWaits(5)).toBe(0);
  });

  it('a wait let go while its read is under way returns that read’s value when it lands, without parking', async () => {
    const hub = new WaiterHub(database.bus, createTestLogger());
    let land: (value: string) => void = () => {};
    let reads = 0;
    const waiting = waitForChange(hub, {
      sessionId: 'ses_release_during_read',
      read: () => {
        reads++;
        return new Promise<string>((resolve) => {
          land = resolve;
        });
      },
      isDone: () => false,
      nextTimeChange: () => null,
      waitMs: 30_000,
      now,
    });
    expect(hub.size).toBe(1);
    expect(hub.releaseOldest(1)).toBe(1);
    land('still waiting');
    expect(await waiting).toBe('still waiting');
    expect(reads).toBe(1);
    expect(hub.size).toBe(0);
    await hub.close();
  });
});

describe('parked waits hold no database connection', () => {
  it('50 waits park on a pool of 2 while other queries still run; connections stay ≤ pool + 1', async () => {
    const sessions = await Promise.all(Array.from({ length: 50 }, () => createTestSession(runtime, ctx.workspaceId)));
    const waits = sessions.map((s) => readSession({ ctx, sessionId: s.sessionId, waitMs: 30_000 }));
    await parked(50);
    // If a parked wait held a connection, a pool of 2 would be exhausted and this would hang.
    const read = await readSession({ ctx, sessionId: sessions[0]!.sessionId });
    expect(read.state).toBe('waiting');
    if (onPostgres) {
      const [row] = await queryRows<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and backend_type = 'client backend'`,
      );
      expect(Number(row?.n)).toBeLessThanOrEqual(2 + 1);
    }
    // One answer after another: 50 at once in one workspace queue for its write turns, and on a
    // loaded machine (PGlite runs every statement in one line) the last may wait past their 2 s
    // bound (WRITES_BUSY), which is the gate working, not what this test is about.
    const eventIds: string[] = [];
    for (const s of sessions) eventIds.push(await answer(s.token));
    const views = await Promise.all(waits);
    expect(views.map((v) => v.response?.eventId)).toEqual(eventIds);
    expect(runtime.waiters.size).toBe(0);
  });
});

describe.runIf(onlyOn('forms: waits across replicas'))('across replicas (PostgreSQL)', () => {
  let replica: Database;
  let replicaRuntime: FormsRuntime;
  beforeAll(async () => {
    replica = await openDatabase({ url: database.url!, poolMax: 2 });
    replicaRuntime = createTestFormsRuntime(replica, { now, waitClock: clock });
  });
  afterAll(async () => {
    await replicaRuntime.close();
    await replica.close();
  });

  it('an answer on one replica wakes a wait parked on another', async () => {
    const s = await createTestSession(runtime, ctx.workspaceId);
    const waiting = readSession({
      ctx: { runtime: replicaRuntime, workspaceId: ctx.workspaceId },
      sessionId: s.sessionId,
      waitMs: 30_000,
    });
    await parked(1, replicaRuntime);
    const eventId = await answer(s.token);
    // The clock stands still: only the notification from the other replica can end the wait.
    expect(await waiting).toMatchObject({ state: 'answered', response: { eventId } });
  });

  it('when the listening connection is lost, every waiter re-reads after the bus reconnects', async () => {
    const s = await createTestSession(runtime, ctx.workspaceId);
    const waiting = readSession({
      ctx: { runtime: replicaRuntime, workspaceId: ctx.workspaceId },
      sessionId: s.sessionId,
      waitMs: 30_000,
    });
    await parked(1, replicaRuntime);
    // An answer whose notification is never sent (as if it was lost while the listener was down).
    await database.db.execute(
      sql`insert into form_answers (id, workspace_id, session_id, revision, action_id, values, answer_sha256, receipt, answered_at)
          values ('evt_lost', ${ctx.workspaceId}, ${s.sessionId}, 1, 'approve', '{}'::jsonb, ${'0'.repeat(64)}, 'x.y.z', now())`,
    );
    const killed = await queryRows<{ killed: boolean }>(
      database.db,
      sql`select pg_terminate_backend(pid) as killed from pg_stat_activity
           where application_name = 'sess-listen' and datname = current_database()`,
    );
    expect(killed.length).toBeGreaterThan(0);
    expect(await waiting).toMatchObject({ state: 'answered', response: { eventId: 'evt_lost' } });
  });
});
