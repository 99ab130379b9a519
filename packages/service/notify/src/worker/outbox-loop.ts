import type { Logger } from '@sess/core';
import type { Db } from '@sess/db';
import { type ClaimedNotice, claimDue, settleBatch } from '../outbox-claims.ts';
import type { NotifySealers } from '../sealers.ts';
import { later, type RowEnd } from './handle-row.ts';

/*
 * The worker's loop. A look for due rows is `wanted` (a wake, a run, or a full claim that may
 * have left some); it claims as many as there is room for, starts each row's handling without
 * waiting for the others, and settles rows as they end: those that end while a settle is being
 * written go together in the next one. A row counts as in flight until it is settled, so a slow
 * push service holds only the rows that wait for it.
 */

/** A wait for the loop to be idle: `from` the rows finished when it began; `failed` a claim's error meanwhile. */
interface IdleWaiter {
  from: number;
  failed?: unknown;
  resolve(finished: number): void;
  reject(error: unknown): void;
}

export interface OutboxLoop {
  /** Looks for due rows now, or once the claim under way ends. */
  wake(): void;
  /** Claims and handles everything due now; resolves as `untilIdle`. */
  runOnce(): Promise<number>;
  /** Resolves once nothing due is left unclaimed and every row in flight is settled, to the rows finished meanwhile. */
  untilIdle(): Promise<number>;
  /** No more claims; `untilIdle` then waits only for the rows in flight. */
  stop(): void;
}

export function createOutboxLoop(options: {
  db: Db;
  sealers: NotifySealers;
  logger: Logger;
  now: () => Date;
  handleRow: (row: ClaimedNotice, at: Date) => Promise<RowEnd>;
  leaseMs: number;
  /** Rows claimed by one statement, at most. */
  batch: number;
  /** Rows in flight at once (claimed, not yet settled). */
  maxInFlight: number;
}): OutboxLoop {
  const { db, logger, now, maxInFlight } = options;
  let stopped = false;
  let wanted = false;
  let claiming = false;
  let settling = false;
  let inFlight = 0;
  let finishedRows = 0;
  const ended: { row: ClaimedNotice; end: RowEnd }[] = [];
  /** Those waiting for the loop to be idle (`runOnce`, `close`). */
  const waiters: IdleWaiter[] = [];

  function pump(): void {
    if (stopped || claiming || !wanted || inFlight >= maxInFlight) {
      if (!claiming && !settling && inFlight === 0 && (stopped || !wanted))
        for (const waiter of waiters.splice(0))
          if (waiter.failed === undefined) waiter.resolve(finishedRows - waiter.from);
          else waiter.reject(waiter.failed);
      return;
    }
    wanted = false;
    claiming = true;
    const at = now();
    const room = Math.min(options.batch, maxInFlight - inFlight);
    claimDue(db, options.sealers, { at, leaseMs: options.leaseMs, batch: room })
      .then(
        (rows) => {
          inFlight += rows.length;
          for (const row of rows) void handle(row, at);
          // A full claim may have left due rows: another look, when there is room.
          if (rows.length === room) wanted = true;
        },
        (error: unknown) => {
          logger.error({ event: 'notify.run_failed', err: error }, 'notification run failed; the poll tries again');
          for (const waiter of waiters) waiter.failed ??= error;
        },
      )
      .finally(() => {
        claiming = false;
        pump();
      });
  }

  async function handle(row: ClaimedNotice, at: Date): Promise<void> {
    const end = await options.handleRow(row, at).catch((error: unknown): RowEnd => {
      // Left leased: another run sends it after the lease.
      logger.error({ event: 'notify.row_failed', outboxId: row.id, kind: row.kind, err: error }, 'notification not processed');
      return later();
    });
    ended.push({ row, end });
    settle();
  }

  /** Deletes the finished rows among those that ended and records their deliveries, in one statement. */
  function settle(): void {
    if (settling || ended.length === 0) return;
    settling = true;
    const rows = ended.splice(0);
    const done = rows.filter(({ end }) => end.end === 'finished').map(({ row }) => ({ id: row.id, attempts: row.attempts }));
    settleBatch(db, {
      done,
      delivered: rows.flatMap(({ row, end }) => end.delivered.map((deviceId) => ({ userId: row.userId, deviceId }))),
      at: now(),
    })
      .then(
        () => {
          finishedRows += done.length;
        },
        // Left leased: sent again after the lease, with the same Topic.
        (error: unknown) => logger.error({ event: 'notify.settle_failed', err: error }, 'notifications not settled'),
      )
      .finally(() => {
        inFlight -= rows.length;
        settling = false;
        settle();
        pump();
      });
  }

  const untilIdle = (): Promise<number> =>
    new Promise((resolve, reject) => {
      waiters.push({ from: finishedRows, resolve, reject });
      pump();
    });

  return {
    wake() {
      if (stopped) return;
      wanted = true;
      pump();
    },
    runOnce() {
      wanted = true;
      return untilIdle();
    },
    untilIdle,
    stop() {
      stopped = true;
    },
  };
}
