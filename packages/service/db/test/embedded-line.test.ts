import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createManualTimers, onlyOn } from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPoolGate, DatabaseWaitError, openDatabase } from '../src/index.ts';
import { checkpointIfDue } from '../src/pglite-checkpoints.ts';
import { pgliteBehindGate } from '../src/pglite-line.ts';

/*
 * The embedded database's own parts (issue 33): the line in front of its one connection, its
 * checkpoints, and the lock on its files after a crash. Real PGlite; the gate is the real one.
 */
describe.runIf(onlyOn('db: the embedded database line and checkpoints'))('the embedded database', () => {
  let dir: string;
  // One PGlite for the line and the checkpoint tests (a start is seconds on a loaded machine).
  let pg: PGlite;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sess-embedded-line-'));
    pg = await PGlite.create(join(dir, 'shared'));
  });
  afterAll(async () => {
    await pg.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds a bounded line in arrival order and refuses one more at once, nothing sent', async () => {
    const gate = createPoolGate({ max: 1, waitMs: 60_000, maxWaiting: 3, yieldAfterMs: 0 });
    const lined = pgliteBehindGate(pg, gate);
    await pg.exec('create table seen (n int)');
    let letGo!: () => void;
    const holding = new Promise<void>((resolve) => (letGo = resolve));
    const transaction = lined.transaction(async (tx) => {
      await tx.query('insert into seen values (0)');
      await holding;
    });
    const waiting = [1, 2, 3].map((n) => lined.query(`insert into seen values (${n})`));
    await expect(lined.query('insert into seen values (4)')).rejects.toMatchObject({
      name: 'DatabaseWaitError',
      code: 'POOL_QUEUE_FULL',
    });
    letGo();
    await transaction;
    await Promise.all(waiting);
    expect((await pg.query<{ n: number }>('select n from seen')).rows.map((row) => row.n)).toEqual([0, 1, 2, 3]);
  });

  it('lets the event loop poll for I/O between two operations in line (PGlite runs in this thread)', async () => {
    const order: string[] = [];
    for (const yieldAfterMs of [undefined, 0]) {
      const gate = createPoolGate({ max: 1, waitMs: 60_000, ...(yieldAfterMs === undefined ? {} : { yieldAfterMs }) });
      const first = gate.run('write', async () => {
        order.push('first');
        setImmediate(() => order.push('io'));
      });
      const second = gate.run('write', async () => void order.push('second'));
      await Promise.all([first, second]);
      await new Promise((resolve) => setImmediate(resolve));
      order.push('|');
    }
    // Handed over in microtasks, the second ran before any I/O could; with yieldAfterMs, after it.
    expect(order).toEqual(['first', 'second', 'io', '|', 'first', 'io', 'second', '|']);
  });

  it('a wait in line is bounded: POOL_TIMEOUT, the operation never run', async () => {
    const timers = createManualTimers();
    const gate = createPoolGate({ max: 1, waitMs: 1_000, yieldAfterMs: 0, timers });
    let letGo!: () => void;
    const held = gate.run('write', () => new Promise<void>((resolve) => (letGo = resolve)));
    let ran = false;
    const late = gate.run('read', async () => {
      ran = true;
    });
    timers.fire();
    await expect(late).rejects.toBeInstanceOf(DatabaseWaitError);
    await expect(late).rejects.toMatchObject({ code: 'POOL_TIMEOUT' });
    letGo();
    await held;
    expect(ran).toBe(false);
  });

  it('takes a checkpoint once the WAL since the last one reaches its bound, so a crash replays at most that', async () => {
    const gate = createPoolGate({ max: 1, waitMs: 60_000, yieldAfterMs: 0 });
    await pg.exec('checkpoint; create table filler (body text)');
    // A 2 MB bound here (16 MB in Sess): the same rule, a quarter of a second of writing.
    const bound = 2 * 1024 * 1024;
    expect(await checkpointIfDue(pg, gate, undefined, bound)).toBeLessThan(bound);
    // Rows of random text (no compression) until the WAL since the checkpoint passes the bound.
    const fill =
      "insert into filler select string_agg(md5(random()::text), '') from generate_series(1, 20000) group by (random() * 40)::int";
    let since = 0;
    while (since < bound) {
      await pg.exec(fill);
      since = Number(
        (
          await pg.query<{ since: string }>(
            'select (pg_current_wal_insert_lsn() - (pg_control_checkpoint()).redo_lsn)::text as since',
          )
        ).rows[0]!.since,
      );
    }
    expect(await checkpointIfDue(pg, gate, undefined, bound)).toBeGreaterThanOrEqual(bound);
    const after = Number(
      (
        await pg.query<{ since: string }>(
          'select (pg_current_wal_insert_lsn() - (pg_control_checkpoint()).redo_lsn)::text as since',
        )
      ).rows[0]!.since,
    );
    expect(after).toBeLessThan(bound / 4);
  });

  it("takes over the lock of a process that died, and one holding this process's pid that it did not take", async () => {
    const dataDir = join(dir, 'locks');
    const first = await openDatabase({ dataDir });
    await first.close();
    // A holder that is gone: a process that ran and ended.
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    for (const holder of [gone, process.pid]) {
      writeFileSync(join(dataDir, 'sess.lock'), String(holder));
      const reopened = await openDatabase({ dataDir });
      try {
        // This process now holds it: a second open here is refused.
        await expect(openDatabase({ dataDir })).rejects.toThrow(/in use by process/);
      } finally {
        await reopened.close();
      }
    }
  }, 120_000); // three starts of PGlite: seconds each on a loaded machine
});
