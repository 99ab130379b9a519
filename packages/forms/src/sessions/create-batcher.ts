import type { Logger } from '@sess/core';
import { type DbOrTx, isDatabaseUnavailable } from '@sess/db';
import { insertSessionRows, type SessionRow } from './session-rows.ts';

/** The most creates one statement carries. */
export const MAX_BATCH = 64;

interface Pending {
  row: SessionRow;
  resolve(stored: boolean): void;
  reject(error: unknown): void;
}

const claimOf = (row: SessionRow) => (row.claim ? `${row.session.workspaceId}\n${row.claim.scope}\n${row.claim.key}` : undefined);

/**
 * Group commit for creates that need no transaction (a plan without an open-session limit):
 * the creates that arrive in one turn of the event loop go to the database as ONE statement
 * and one commit. Under load that turns tens of round trips, socket writes and WAL flushes into
 * one; alone, a create waits only for the end of the current turn (`setImmediate`).
 *
 * A batch is all or nothing in the database, but not for its callers: if the statement fails,
 * each create is retried alone, so one bad create cannot fail the others — unless the database
 * could not be reached, which fails them all at once. Two creates claiming
 * the same idempotency key never share a statement: the second goes in another one, where the
 * key's unique index makes it wait for the first to commit, find the key taken and replay it.
 */
export class CreateBatcher {
  #queue: Pending[] = [];
  #scheduled = false;

  constructor(
    /** The database the batches run on; a create inside a caller's transaction never comes here. */
    private readonly db: DbOrTx,
    private readonly logger?: Logger,
  ) {}

  /** Stores `row`; false when its idempotency key was already taken (nothing was stored). */
  store(row: SessionRow): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ row, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  #flush(): void {
    this.#scheduled = false;
    let queue = this.#queue;
    this.#queue = [];
    while (queue.length > 0) {
      const batch: Pending[] = [];
      const rest: Pending[] = [];
      const claims = new Set<string>();
      for (const pending of queue) {
        const claim = claimOf(pending.row);
        if (batch.length >= MAX_BATCH || (claim !== undefined && claims.has(claim))) rest.push(pending);
        else {
          if (claim !== undefined) claims.add(claim);
          batch.push(pending);
        }
      }
      void this.#run(batch);
      queue = rest;
    }
  }

  async #run(batch: Pending[]): Promise<void> {
    try {
      const stored = await insertSessionRows(
        this.db,
        batch.map((p) => p.row),
      );
      for (const p of batch) p.resolve(stored.has(p.row.session.id));
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      // A database out of reach fails every create alike: retrying each alone would only knock
      // again, once per create. (The log line carries the error's codes, never the rows.)
      if (isDatabaseUnavailable(error)) {
        this.logger?.warn({ event: 'forms.create_batch_unavailable', size: batch.length, err: error }, 'database unavailable');
        for (const p of batch) p.reject(error);
        return;
      }
      this.logger?.warn({ event: 'forms.create_batch_failed', size: batch.length, err: error }, 'retrying each create alone');
      await Promise.all(
        batch.map(async (p) => {
          try {
            p.resolve((await insertSessionRows(this.db, [p.row])).has(p.row.session.id));
          } catch (single) {
            p.reject(single);
          }
        }),
      );
    }
  }
}
