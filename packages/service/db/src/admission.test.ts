import { markDatabaseError, type Timers } from '@sess/core';
import { describe, expect, it } from 'vitest';
import { createBreaker } from './breaker.ts';
import { classifyDatabaseError } from './classify-database-error.ts';
import { createKeyedGate } from './keyed-gate.ts';
import { createPoolGate, DatabaseWaitError } from './pool-gate.ts';

/** Timers that fire only when the test moves their clock (testkit's manual timers fire on demand; these keep a clock). */
function manualTimers() {
  let now = 0;
  let next = 0;
  const pending = new Map<number, { at: number; callback: () => void }>();
  const timers: Timers = {
    setTimeout(callback, ms, ...args) {
      next++;
      pending.set(next, { at: now + ms, callback: () => callback(...args) });
      return next;
    },
    clearTimeout(handle) {
      pending.delete(handle as number);
    },
  };
  return {
    timers,
    pending: () => pending.size,
    advance(ms: number) {
      now += ms;
      for (const [handle, timer] of [...pending].sort((a, b) => a[1].at - b[1].at)) {
        if (timer.at > now) continue;
        pending.delete(handle);
        timer.callback();
      }
    },
  };
}

/** An operation the test ends: `end()` resolves it, `fail(e)` rejects it; `started` says it was called. */
function held<T = string>(value?: T) {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const op = {
    started: false,
    run: () => {
      op.started = true;
      return promise;
    },
    end: () => resolve(value as T),
    fail: (error: unknown) => reject(error),
  };
  return op;
}

/** Lets queued promise callbacks run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

function refused(code = 'ECONNREFUSED'): Error {
  const error = Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code });
  markDatabaseError(error);
  return error;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('pool gate', () => {
  it('lets `max` operations through, then admits the waiting ones in arrival order as slots free', async () => {
    const { timers } = manualTimers();
    const gate = createPoolGate({ max: 2, readReserve: 0, waitMs: 1_000, timers });
    const [a, b, c, d] = [held(), held(), held(), held()];
    const order: string[] = [];
    for (const [name, op] of [
      ['a', a],
      ['b', b],
      ['c', c],
      ['d', d],
    ] as const)
      void gate.run('read', op.run).then(() => order.push(name));
    expect([a.started, b.started, c.started, d.started]).toEqual([true, true, false, false]);
    b.end();
    await settle();
    expect([c.started, d.started]).toEqual([true, false]);
    a.end();
    await settle();
    expect(d.started).toBe(true);
    c.end();
    d.end();
    await settle();
    expect(order).toEqual(['b', 'a', 'c', 'd']);
  });

  it('keeps `readReserve` connections for reads: writes wait, a read arriving after them goes first', async () => {
    const { timers } = manualTimers();
    const gate = createPoolGate({ max: 3, readReserve: 1, waitMs: 1_000, timers });
    const writes = [held(), held(), held()];
    for (const w of writes) void gate.run('write', w.run);
    expect(writes.map((w) => w.started)).toEqual([true, true, false]);
    const read = held();
    void gate.run('read', read.run);
    expect(read.started).toBe(true);
    // The pool is full now: a second read waits behind the waiting write. When the first read
    // ends, the write may still not take a third connection; the read behind it goes first.
    const second = held();
    void gate.run('read', second.run);
    expect(second.started).toBe(false);
    read.end();
    await settle();
    expect([writes[2]!.started, second.started]).toEqual([false, true]);
    writes[0]!.end();
    await settle();
    expect(writes[2]!.started).toBe(true);
  });

  it('a pool of one keeps no reserve: a write runs', async () => {
    const gate = createPoolGate({ max: 1, waitMs: 1_000, timers: manualTimers().timers });
    expect(await gate.run('write', async () => 'done')).toBe('done');
  });

  it('fails a wait longer than waitMs: POOL_TIMEOUT, unavailable and busy, nothing sent, the operation never called', async () => {
    const clock = manualTimers();
    const gate = createPoolGate({ max: 1, waitMs: 500, timers: clock.timers });
    const holder = held();
    void gate.run('write', holder.run);
    const waiter = held();
    const waiting = rejection(gate.run('write', waiter.run));
    clock.advance(499);
    await settle();
    expect(waiter.started).toBe(false);
    clock.advance(1);
    const error = await waiting;
    expect(error).toBeInstanceOf(DatabaseWaitError);
    expect((error as DatabaseWaitError).code).toBe('POOL_TIMEOUT');
    expect(classifyDatabaseError(error)).toEqual({ kind: 'unavailable', unsent: true, busy: true });
    holder.end();
    await settle();
    expect(waiter.started).toBe(false);
  });

  it('bounds the queue: one more than maxWaiting is refused at once (POOL_QUEUE_FULL), without a timer', async () => {
    const clock = manualTimers();
    const gate = createPoolGate({ max: 1, waitMs: 500, maxWaiting: 2, timers: clock.timers });
    void gate.run('write', held().run);
    void gate.run('write', held().run).catch(() => {});
    void gate.run('read', held().run).catch(() => {});
    expect(clock.pending()).toBe(2);
    const error = await rejection(gate.run('read', held().run));
    expect((error as DatabaseWaitError).code).toBe('POOL_QUEUE_FULL');
    expect(classifyDatabaseError(error)).toEqual({ kind: 'unavailable', unsent: true, busy: true });
    expect(clock.pending()).toBe(2);
  });

  it('reports its use and waits (stats, for metrics): in use by kind, waiting, and the totals of waits and refusals', async () => {
    const clock = manualTimers();
    const gate = createPoolGate({ max: 2, readReserve: 1, waitMs: 500, maxWaiting: 2, timers: clock.timers });
    const empty = { max: 2, active: 0, activeWrites: 0, waiting: 0, waited: 0, waitedSeconds: 0 };
    expect(gate.stats()).toEqual({ ...empty, refused: { POOL_TIMEOUT: 0, POOL_QUEUE_FULL: 0 } });
    const [write, read, queued, late] = [held(), held(), held(), held()];
    void gate.run('write', write.run);
    void gate.run('read', read.run);
    const waits = gate.run('write', queued.run);
    const timesOut = rejection(gate.run('read', late.run));
    const full = await rejection(gate.run('read', held().run));
    expect((full as DatabaseWaitError).code).toBe('POOL_QUEUE_FULL');
    expect(gate.stats()).toMatchObject({ active: 2, activeWrites: 1, waiting: 2, waited: 0, refused: { POOL_QUEUE_FULL: 1 } });
    write.end();
    await settle();
    // The queued write took the freed connection; the read behind it times out.
    expect(gate.stats()).toMatchObject({ active: 2, activeWrites: 1, waiting: 1, waited: 1 });
    clock.advance(500);
    expect(((await timesOut) as DatabaseWaitError).code).toBe('POOL_TIMEOUT');
    queued.end();
    read.end();
    await waits;
    await settle();
    const after = gate.stats();
    expect(after).toMatchObject({
      active: 0,
      activeWrites: 0,
      waiting: 0,
      waited: 2,
      refused: { POOL_TIMEOUT: 1, POOL_QUEUE_FULL: 1 },
    });
    expect(after.waitedSeconds).toBeGreaterThanOrEqual(0);
  });
});

describe('keyed gate (writes per workspace)', () => {
  it('runs at most perKey of one key; other keys are not held by it', async () => {
    const gate = createKeyedGate({ perKey: 2, maxWaitingPerKey: 10, waitMs: 1_000, timers: manualTimers().timers });
    const busy = [held(), held(), held()];
    for (const op of busy) void gate.run('workspace-a', op.run);
    expect(busy.map((op) => op.started)).toEqual([true, true, false]);
    const other = held();
    void gate.run('workspace-b', other.run);
    expect(other.started).toBe(true);
    busy[1]!.end();
    await settle();
    expect(busy[2]!.started).toBe(true);
  });

  it('a key waits at most waitMs, and at most maxWaitingPerKey wait: WRITES_BUSY, nothing sent', async () => {
    const clock = manualTimers();
    const gate = createKeyedGate({ perKey: 1, maxWaitingPerKey: 1, waitMs: 2_000, timers: clock.timers });
    const holder = held();
    void gate.run('w', holder.run);
    const waiter = held();
    const waited = rejection(gate.run('w', waiter.run));
    const full = await rejection(gate.run('w', held().run));
    expect((full as DatabaseWaitError).code).toBe('WRITES_BUSY');
    clock.advance(2_000);
    const timedOut = await waited;
    expect((timedOut as DatabaseWaitError).code).toBe('WRITES_BUSY');
    expect(classifyDatabaseError(timedOut)).toEqual({ kind: 'unavailable', unsent: true, busy: true });
    holder.end();
    await settle();
    expect(waiter.started).toBe(false);
    // The slot came back: the next one of that key runs at once.
    const after = held();
    void gate.run('w', after.run);
    expect(after.started).toBe(true);
  });

  it('a failing operation gives its slot back', async () => {
    const gate = createKeyedGate({ perKey: 1, maxWaitingPerKey: 1, waitMs: 1_000, timers: manualTimers().timers });
    await expect(gate.run('w', async () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(await gate.run('w', async () => 'next')).toBe('next');
  });
});

describe('breaker', () => {
  function setup() {
    const clock = manualTimers();
    const probes: Array<ReturnType<typeof held<void>>> = [];
    const breaker = createBreaker({
      probeIntervalMs: 250,
      timers: clock.timers,
      probe: () => {
        const probe = held<void>();
        probes.push(probe);
        return probe.run();
      },
    });
    return { clock, probes, breaker };
  }

  it('stays closed through answers and failures that are not a refused connection', async () => {
    const { breaker, clock } = setup();
    expect(await breaker.guard(async () => 1)).toBe(1);
    const constraint = Object.assign(new Error('duplicate key'), { code: '23505', severity: 'ERROR' });
    markDatabaseError(constraint);
    await expect(breaker.guard(() => Promise.reject(constraint))).rejects.toBe(constraint);
    expect(breaker.isOpen).toBe(false);
    expect(clock.pending()).toBe(0);
  });

  for (const code of ['ECONNREFUSED', 'CONNECT_TIMEOUT', 'ENOTFOUND']) {
    it(`opens on ${code}: calls fail at once (DATABASE_DOWN, nothing sent) without being called`, async () => {
      const { breaker } = setup();
      await expect(breaker.guard(() => Promise.reject(refused(code)))).rejects.toThrow(code);
      expect(breaker.isOpen).toBe(true);
      const call = held();
      const error = await rejection(breaker.guard(call.run));
      expect(call.started).toBe(false);
      expect((error as DatabaseWaitError).code).toBe('DATABASE_DOWN');
      expect(classifyDatabaseError(error)).toEqual({ kind: 'unavailable', unsent: true });
    });
  }

  it('opens on 57P03 (cannot connect now), not on 53300 (too many connections: the open ones still work)', async () => {
    const server = (code: string) => {
      const error = Object.assign(new Error('server'), { code, severity: 'FATAL' });
      markDatabaseError(error);
      return error;
    };
    const full = setup();
    await expect(full.breaker.guard(() => Promise.reject(server('53300')))).rejects.toThrow();
    expect(full.breaker.isOpen).toBe(false);
    const starting = setup();
    await expect(starting.breaker.guard(() => Promise.reject(server('57P03')))).rejects.toThrow();
    expect(starting.breaker.isOpen).toBe(true);
  });

  it('probes one at a time, probeIntervalMs after each failed one; the first success closes it', async () => {
    const { breaker, clock, probes } = setup();
    await breaker.guard(() => Promise.reject(refused())).catch(() => {});
    let closed = false;
    void breaker.whenClosed().then(() => (closed = true));
    expect(probes).toHaveLength(0);
    clock.advance(250);
    expect(probes).toHaveLength(1);
    // While that probe is out, no other starts however long it takes.
    clock.advance(10_000);
    expect(probes).toHaveLength(1);
    probes[0]!.fail(refused());
    await settle();
    clock.advance(249);
    expect(probes).toHaveLength(1);
    clock.advance(1);
    expect(probes).toHaveLength(2);
    expect(breaker.isOpen).toBe(true);
    probes[1]!.end();
    await settle();
    expect(closed).toBe(true);
    expect(breaker.isOpen).toBe(false);
    expect(clock.pending()).toBe(0);
    expect(await breaker.guard(async () => 'through')).toBe('through');
  });

  it('a call in flight that gets its answer while it is open closes it, and the pending probe is dropped', async () => {
    const { breaker, clock, probes } = setup();
    const slow = held('late answer');
    const inFlight = breaker.guard(slow.run);
    await breaker.guard(() => Promise.reject(refused())).catch(() => {});
    expect(breaker.isOpen).toBe(true);
    slow.end();
    expect(await inFlight).toBe('late answer');
    expect(breaker.isOpen).toBe(false);
    clock.advance(1_000);
    expect(probes).toHaveLength(0);
  });

  it('stop() ends the probing', async () => {
    const { breaker, clock, probes } = setup();
    await breaker.guard(() => Promise.reject(refused())).catch(() => {});
    breaker.stop();
    clock.advance(1_000);
    expect(probes).toHaveLength(0);
  });
});
