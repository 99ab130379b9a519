import type { Logger } from '@sess/core';
import { type DbOrTx, isDatabaseUnavailable } from '@sess/db';
import { type CreateCompanion, insertSessionRows, type RowOutcome, type SessionRow } from './session-rows.ts';

/** The most creates one statement carries. */
export const MAX_BATCH = 64;

interface Pending {
  row: SessionRow;
  resolve(outcome: RowOutcome): void;
  reject(error: unknown): void;
}

/** What two creates of one statement must not share: an idempotency key, a gate's counter. */
function exclusiveKeys(row: SessionRow): string[] {
  const keys = row.gates?.map((gate) => `gate\n${gate.key}`) ?? [];
  if (row.claim) keys.push(`claim\n${row.session.workspaceId}\n${row.claim.scope}\n${row.claim.key}`);
  return keys;
}

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
 * Likewise two creates under one gate (a counter of `open_counts`): the second statement waits
 * on the gate's row lock and counts what the first one added.
 */
export class CreateBatcher {
  #queue: Pending[] = [];
  #scheduled = false;

  constructor(
    /** The database the batches run on; a create inside a caller's transaction never comes here. */
    private readonly db: DbOrTx,
    private readonly logger?: Logger,
    /** The runtime's companions (see `CreateCompanion`), written in every batch's statement. */
    private readonly companions: readonly CreateCompanion[] = [],
  ) {}

  /** Stores `row`: not stored when its idempotency key was already taken or a gate had no room. */
  store(row: SessionRow): Promise<RowOutcome> {
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
      const taken = new Set<string>();
      for (const pending of queue) {
        const keys = exclusiveKeys(pending.row);
        if (batch.length >= MAX_BATCH || keys.some((key) => taken.has(key))) rest.push(pending);
        else {
          for (const key of keys) taken.add(key);
          batch.push(pending);
        }
      }
      void this.#run(batch);
      queue = rest;
    }
  }

  async #run(batch: Pending[]): Promise<void> {
    try {
      const outcomes = await insertSessionRows(
        this.db,
        batch.map((p) => p.row),
        this.companions,
      );
      for (const p of batch) p.resolve(outcomes.get(p.row.session.id) ?? { stored: false });
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
            p.resolve((await insertSessionRows(this.db, [p.row], this.companions)).get(p.row.session.id) ?? { stored: false });
          } catch (single) {
            p.reject(single);
          }
        }),
      );
    }
  }
}
