import { newId } from '@sess/core';
import { createTestDatabase, onlyOn, type TestDatabase } from '@sess/testkit';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyDatabaseError, type Database, openDatabase, queryRows, type Tx, workspaceOpenKey } from '../src/index.ts';

const onPostgres = onlyOn('db: open_counts locked only inside the commit');

/** A workspace with `n` open sessions (rows as the create statement writes them), their ids. */
async function workspaceWithSessions(db: Database['db'], n: number): Promise<{ workspaceId: string; sessions: string[] }> {
  const workspaceId = newId('workspace');
  await db.execute(sql`insert into workspaces (id, name) values (${workspaceId}, 'Counted')`);
  const sessions = Array.from({ length: n }, () => newId('session'));
  for (const id of sessions) {
    await db.execute(
      sql`insert into form_sessions (id, workspace_id, kind, link_token_hash, lifetime_seconds, extendable,
                                     created_at, expires_at, deadline_at, closes_at)
          values (${id}, ${workspaceId}, 'interaction', ${newId('session')}, 3600, false, now(), now() + interval '1 hour',
                  now() + interval '1 hour', now() + interval '1 hour')`,
    );
  }
  return { workspaceId, sessions };
}

async function counted(db: Database['db'] | Tx, workspaceId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select counted as n from open_counts where key = ${workspaceOpenKey(workspaceId)}`,
  );
  return Number(row?.n);
}

const complete = (tx: Tx, id: string) => tx.execute(sql`update form_sessions set state = 'completed' where id = ${id}`);

/*
 * Migration 0012: a change of state that lowers a workspace's count is applied to its counter in
 * the COMMIT (a deferred constraint trigger), not in the UPDATE, so a transaction does not hold
 * the workspace's counter row across its later round trips.
 */
describe('open_counts: a state change that frees a place is counted at COMMIT', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.destroy());

  it('the counter is unchanged until the commit, lowered once by it, untouched by a rollback', async () => {
    const { workspaceId, sessions } = await workspaceWithSessions(database.db, 3);
    expect(await counted(database.db, workspaceId)).toBe(3);
    await database.db.transaction(async (tx) => {
      await complete(tx, sessions[0]!);
      // A second change of the same row in the same transaction changes no count.
      await tx.execute(sql`update form_sessions set state = 'withdrawn' where id = ${sessions[0]!}`);
      expect(await counted(tx, workspaceId)).toBe(3);
    });
    expect(await counted(database.db, workspaceId)).toBe(2);
    await expect(
      database.db.transaction(async (tx) => {
        await complete(tx, sessions[1]!);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await counted(database.db, workspaceId)).toBe(2);
    // A session completed and then deleted in one transaction is counted off once.
    await database.db.transaction(async (tx) => {
      await complete(tx, sessions[2]!);
      await tx.execute(sql`delete from form_sessions where id = ${sessions[2]!}`);
    });
    expect(await counted(database.db, workspaceId)).toBe(1);
  });
});

describe.runIf(onPostgres)('open_counts on PostgreSQL: the counter row is locked only inside the commit', () => {
  let database: TestDatabase;
  let bounded: Database;
  let other: postgres.Sql;
  beforeAll(async () => {
    database = await createTestDatabase();
    bounded = await openDatabase({ url: database.url!, poolMax: 2, lockTimeoutMs: 300 });
    other = postgres(database.url!, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    await other.end({ timeout: 5 });
    await bounded.close();
    await database.destroy();
  });

  it('between a complete’s UPDATE and its COMMIT another session may lock the counter at once (NOWAIT)', async () => {
    const { workspaceId, sessions } = await workspaceWithSessions(bounded.db, 1);
    await bounded.db.transaction(async (tx) => {
      await complete(tx, sessions[0]!);
      const [row] = await other`select counted from open_counts where key = ${workspaceOpenKey(workspaceId)} for update nowait`;
      expect(row?.counted).toBe(1);
    });
    expect(await counted(bounded.db, workspaceId)).toBe(0);
  });

  it('a COMMIT that waits longer than lock_timeout for the counter fails busy and rolls back: nothing changed', async () => {
    const { workspaceId, sessions } = await workspaceWithSessions(bounded.db, 1);
    let release!: () => void;
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holding = other.begin(async (tx) => {
      await tx`select counted from open_counts where key = ${workspaceOpenKey(workspaceId)} for update`;
      locked();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await isLocked;
    let updated = false;
    const error = await bounded.db
      .transaction(async (tx) => {
        await complete(tx, sessions[0]!);
        updated = true;
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    release();
    await holding;
    expect(updated).toBe(true);
    expect(classifyDatabaseError(error)).toEqual({ kind: 'unavailable', unsent: true, busy: true });
    const [row] = await queryRows<{ state: string }>(bounded.db, sql`select state from form_sessions where id = ${sessions[0]!}`);
    expect(row?.state).toBe('open');
    expect(await counted(bounded.db, workspaceId)).toBe(1);
  });
});
