import { newId, newSecret } from '@sess/core';
import { classifyDatabaseError, type Database, openDatabase, queryRows, workspaceOpenKey } from '@sess/db';
import { createFormsRuntime, createSession, type FormsRuntime, readSession } from '@sess/forms';
import { hashSurface } from '@sess/surface';
import {
  createTestDatabase,
  createTestLogger,
  createWorkspace,
  onlyOn,
  sampleSurface,
  TEST_SECRET,
  type TestDatabase,
} from '@sess/testkit';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateBatcher, MAX_BATCH } from '../src/sessions/create-batcher.ts';
import type { CreateCompanion, SessionRow } from '../src/sessions/session-rows.ts';
import { key, refusal } from '../src/test-helpers.ts';

let database: TestDatabase;
let runtime: FormsRuntime;
let workspaceId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  runtime = createFormsRuntime({
    database,
    publicUrl: 'http://sess.test',
    secret: TEST_SECRET,
    logger: createTestLogger(),
  });
  workspaceId = (await createWorkspace(database.db, { plan: 'enterprise' })).workspaceId;
});
afterAll(async () => {
  await runtime.close();
  await database.destroy();
});

function row(overrides: { workspaceId?: string; claimKey?: string } = {}): SessionRow {
  const now = new Date();
  const expiresAt = new Date(now.getTime() + 3_600_000);
  const surface = sampleSurface();
  return {
    session: {
      id: newId('session'),
      workspaceId: overrides.workspaceId ?? workspaceId,
      kind: 'interaction',
      token: newSecret(),
      lifetimeSeconds: 3600,
      times: { createdAt: now, expiresAt, deadlineAt: expiresAt, horizonAt: null, closesAt: expiresAt, extendable: false },
      surface,
      surfaceSha256: hashSurface(surface),
      answerInChat: true,
      audience: { assurance: 'link', forUserIds: null },
    },
    claim: overrides.claimKey
      ? { scope: 'test', key: overrides.claimKey, requestSha256: 'a'.repeat(64), response: { value: 1 } }
      : undefined,
  };
}

/** The transactions that wrote these sessions (rows written by one statement share one). */
async function writers(ids: string[]): Promise<number> {
  const [result] = await queryRows<{ n: number }>(
    database.db,
    sql`select count(distinct xmin::text)::int as n from form_sessions where id in ${sql.raw(`(${ids.map((id) => `'${id}'`).join(',')})`)}`,
  );
  return Number(result?.n);
}

describe('CreateBatcher', () => {
  it('stores the creates of one moment with one statement', async () => {
    const batcher = new CreateBatcher(database.db);
    const rows = Array.from({ length: 20 }, () => row());
    expect((await Promise.all(rows.map((r) => batcher.store(r)))).map((o) => o.stored)).toEqual(rows.map(() => true));
    expect(await writers(rows.map((r) => r.session.id))).toBe(1);
    const [revisions] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from form_revisions where session_id in ${sql.raw(`(${rows.map((r) => `'${r.session.id}'`).join(',')})`)}`,
    );
    expect(Number(revisions?.n)).toBe(20);
  });

  it(`splits more than ${MAX_BATCH} creates into statements of at most ${MAX_BATCH}`, async () => {
    const batcher = new CreateBatcher(database.db);
    const rows = Array.from({ length: MAX_BATCH + 5 }, () => row());
    await Promise.all(rows.map((r) => batcher.store(r)));
    expect(await writers(rows.map((r) => r.session.id))).toBe(2);
  });

  it('keeps a failing create from failing its neighbours: each is retried alone', async () => {
    const batcher = new CreateBatcher(database.db);
    const good = Array.from({ length: 5 }, () => row());
    const bad = row({ workspaceId: 'ws_does_not_exist' }); // a foreign-key violation
    const results = await Promise.allSettled([...good, bad].map((r) => batcher.store(r)));
    expect(results.slice(0, 5).map((r) => r.status)).toEqual(Array(5).fill('fulfilled'));
    expect(results[5]?.status).toBe('rejected');
    expect(await writers(good.map((r) => r.session.id))).toBe(5);
    const [badRows] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from form_sessions where id = ${bad.session.id}`,
    );
    expect(Number(badRows?.n)).toBe(0);
  });

  it('logs a failed batch by its codes only, never the rows (other tenants’ forms and link tokens)', async () => {
    const lines: string[] = [];
    const batcher = new CreateBatcher(
      database.db,
      createTestLogger({ level: 'warn', destination: { write: (l) => lines.push(l) } }),
    );
    const good = Array.from({ length: 3 }, () => row());
    const bad = row({ workspaceId: 'ws_does_not_exist' });
    await Promise.allSettled([...good, bad].map((r) => batcher.store(r)));
    const text = lines.join('');
    expect(JSON.parse(lines[0]!)).toMatchObject({ event: 'forms.create_batch_failed', err: { database: true } });
    for (const r of [...good, bad]) {
      expect(text).not.toContain(r.session.token);
      expect(text).not.toContain(r.session.id);
    }
    expect(text).not.toContain('Approve this commit?');
  });

  it('fails every create of a batch at once while the database is out of reach (no retry each alone)', async () => {
    const gone = await createTestDatabase();
    const lines: string[] = [];
    const batcher = new CreateBatcher(gone.db, createTestLogger({ level: 'warn', destination: { write: (l) => lines.push(l) } }));
    await gone.destroy();
    const results = await Promise.allSettled(Array.from({ length: 4 }, () => batcher.store(row())));
    expect(results.map((r) => r.status)).toEqual(Array(4).fill('rejected'));
    expect(lines.map((l) => JSON.parse(l).event)).toEqual(['forms.create_batch_unavailable']);
  });

  it('sends the creates of a workspace that arrive while its statement is in flight together, once it is done', async () => {
    const batcher = new CreateBatcher(database.db);
    const ws = (await createWorkspace(database.db, { plan: 'enterprise' })).workspaceId;
    await batcher.store(row({ workspaceId: ws })); // its counter row exists from here on
    // Fault injection: another transaction holds the workspace's counter row, so the next
    // statement of this workspace stays in flight until it lets go.
    let release!: () => void;
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holding = database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from open_counts where key = ${workspaceOpenKey(ws)} for update`);
      locked();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await isLocked;
    const first = row({ workspaceId: ws });
    const stored = [batcher.store(first)];
    await new Promise((resolve) => setTimeout(resolve, 30)); // the first statement is sent, and waits
    const later = Array.from({ length: 6 }, () => row({ workspaceId: ws }));
    for (const [i, r] of later.entries()) {
      stored.push(batcher.store(r));
      if (i === 2) await new Promise((resolve) => setTimeout(resolve, 10)); // two more turns of the loop
    }
    const elsewhere = batcher.store(row());
    // Another workspace does not wait behind it (PGlite's one connection is the holder's meanwhile).
    if (database.driver === 'postgres') expect((await elsewhere).stored).toBe(true);
    release();
    await holding;
    expect((await elsewhere).stored).toBe(true);
    expect((await Promise.all(stored)).map((o) => o.stored)).toEqual(Array(7).fill(true));
    expect(await writers(later.map((r) => r.session.id))).toBe(1);
    expect(await writers([first.session.id, later[0]!.session.id])).toBe(2);
  });

  it('lets exactly one of two creates with one idempotency key store its session', async () => {
    const batcher = new CreateBatcher(database.db);
    const claimKey = key();
    const [first, second] = [row({ claimKey }), row({ claimKey })];
    // They go in separate statements; on PostgreSQL either may commit first.
    expect((await Promise.all([batcher.store(first), batcher.store(second)])).map((o) => o.stored).sort()).toEqual([false, true]);
    const [sessions] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from form_sessions where id in (${first.session.id}, ${second.session.id})`,
    );
    expect(Number(sessions?.n)).toBe(1);
  });

  it('writes a companion added to the list after its first create in the next create (the statement is built again)', async () => {
    const companions: CreateCompanion[] = [];
    const batcher = new CreateBatcher(database.db, undefined, companions);
    expect(await batcher.store(row())).toEqual({ stored: true, written: [] });
    companions.push({ name: 'seen', insert: sql`select a.id as session_id from admitted a` });
    expect(await batcher.store(row())).toEqual({ stored: true, written: ['seen'] });
    expect(await batcher.store(row())).toEqual({ stored: true, written: ['seen'] });
  });
});

describe.runIf(onlyOn('forms: CreateBatcher with a held counter'))(
  'CreateBatcher on PostgreSQL: a workspace whose counter another session holds',
  () => {
    let bounded: Database;
    let other: postgres.Sql;
    beforeAll(async () => {
      bounded = await openDatabase({ url: database.url!, poolMax: 4, lockTimeoutMs: 500 });
      other = postgres(database.url!, { max: 1, onnotice: () => {} });
    });
    afterAll(async () => {
      await other.end({ timeout: 5 });
      await bounded.close();
    });

    it('delays none of the others that share its statement: they are stored while its creates wait, then fail busy', async () => {
      const held = (await createWorkspace(bounded.db, { plan: 'enterprise' })).workspaceId;
      const free = (await createWorkspace(bounded.db, { plan: 'enterprise' })).workspaceId;
      const batcher = new CreateBatcher(bounded.db);
      await batcher.store(row({ workspaceId: held })); // its counter row exists from here on
      let release!: () => void;
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const holding = other.begin(async (tx) => {
        await tx`select counted from open_counts where key = ${workspaceOpenKey(held)} for update`;
        locked();
        await new Promise<void>((resolve) => (release = resolve));
      });
      await isLocked;
      const waiting = [row({ workspaceId: held }), row({ workspaceId: held })];
      const others = [row({ workspaceId: free }), row({ workspaceId: free }), row()];
      const settled: string[] = [];
      const blocked = waiting.map((r) =>
        batcher.store(r).then(
          () => settled.push('held stored'),
          (error: unknown) => {
            settled.push('held failed');
            return error;
          },
        ),
      );
      // One moment: one statement for all five, the held workspace's left out of it.
      const stored = await Promise.all(others.map((r) => batcher.store(r)));
      expect(stored.map((o) => o.stored)).toEqual([true, true, true]);
      expect(settled).toEqual([]);
      const errors = await Promise.all(blocked);
      expect(settled).toEqual(['held failed', 'held failed']);
      for (const error of errors) expect(classifyDatabaseError(error)).toEqual({ kind: 'unavailable', unsent: true, busy: true });
      release();
      await holding;
      const [count] = await queryRows<{ n: number }>(
        bounded.db,
        sql`select count(*)::int as n from form_sessions where workspace_id = ${held}`,
      );
      expect(count?.n).toBe(1);
      // Released: its creates go through again, and its counter counts exactly what is open.
      expect((await Promise.all(waiting.map((r) => batcher.store(r)))).map((o) => o.stored)).toEqual([true, true]);
      const [counter] = await queryRows<{ counted: number }>(
        bounded.db,
        sql`select counted from open_counts where key = ${workspaceOpenKey(held)}`,
      );
      expect(counter?.counted).toBe(3);
    });
  },
);

describe('createSession through the batcher', () => {
  it('answers 50 concurrent creates, each with its own link, and replays a repeated key exactly', async () => {
    const ctx = { runtime, workspaceId, plan: 'enterprise' };
    const k = key();
    const created = await Promise.all([
      ...Array.from({ length: 50 }, (_, i) =>
        createSession({ ctx, input: { interaction: sampleSurface(`Q${i}`) }, idempotencyKey: key() }),
      ),
      createSession({ ctx, input: { interaction: sampleSurface('Same') }, idempotencyKey: k }),
      createSession({ ctx, input: { interaction: sampleSurface('Same') }, idempotencyKey: k }),
    ]);
    expect(new Set(created.map((c) => c.humanUrl)).size).toBe(51);
    expect(created[51]).toEqual(created[50]);
    for (const c of created.slice(0, 3)) {
      expect(await readSession({ ctx, sessionId: c.sessionId })).toMatchObject({ state: 'waiting', revision: 1 });
    }
    expect(
      await refusal(createSession({ ctx, input: { interaction: sampleSurface('Other') }, idempotencyKey: k })),
    ).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
  });
});
