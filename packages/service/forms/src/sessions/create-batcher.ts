import type { Logger } from '@sess/core';
import { type DbOrTx, isDatabaseUnavailable, workspaceOpenKey } from '@sess/db';
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
  const keys = row.gates?.map((gate) => `counter\n${gate.key}`) ?? [];
  if (row.claim) keys.push(`claim\n${row.session.workspaceId}\n${row.claim.scope}\n${row.claim.key}`);
  return keys;
}

/**
 * What a statement holds until its commit: its gates and its idempotency keys, and the counter
 * of its workspace's open sessions, which the insert trigger of `form_sessions` updates in every
 * create (see `open_counts`). A second statement needing any of them would only wait in the
 * database for the first to commit.
 */
function heldKeys(row: SessionRow): string[] {
  return [...exclusiveKeys(row), `counter\n${workspaceOpenKey(row.session.workspaceId)}`];
}

/**
 * Group commit for creates that need no transaction (a plan without an open-session limit):
 * the creates that arrive in one turn of the event loop go to the database as ONE statement
 * and one commit. Under load that turns tens of round trips, socket writes and WAL flushes into
 * one; alone, a create waits only for the end of the current turn (`setImmediate`).
 *
 * A batch is all or nothing in the database, but not for its callers: if the statement fails,
 * each create is retried alone, so one bad create cannot fail the others — unless the database
 * could not be reached, which fails them all at once. A batch never waits for a counter another
 * transaction holds: the creates that need it are sent again, per workspace, in a statement that
 * waits (and fails after the database's lock_timeout if it is held that long). Two creates claiming
 * the same idempotency key never share a statement: the second goes in another one, where the
 * key's unique index makes it wait for the first to commit, find the key taken and replay it.
 * Likewise two creates under one gate (a counter of `open_counts`): the second statement waits
 * on the gate's row lock and counts what the first one added.
 *
 * And a create whose workspace (or gate, or key) has a statement in flight waits here, not in
 * the database: every create statement locks its workspace's counter row until it commits, so a
 * second statement of that workspace could only queue behind the first, holding a pooled
 * connection. The creates that arrive meanwhile go together in one statement once it is done.
 */
export class CreateBatcher {
  #queue: Pending[] = [];
  #scheduled = false;
  /**
   * The keys the statements in flight hold (`heldKeys`). No two statements in flight share one:
   * a create needing a held key waits, so a statement's keys are its own until it is done.
   */
  #held = new Set<string>();

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
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => this.#flush());
  }

  #flush(): void {
    this.#scheduled = false;
    let queue = this.#queue;
    this.#queue = [];
    const waiting: Pending[] = [];
    while (queue.length > 0) {
      const batch: Pending[] = [];
      const rest: Pending[] = [];
      const taken = new Set<string>();
      for (const pending of queue) {
        if (heldKeys(pending.row).some((key) => this.#held.has(key))) {
          waiting.push(pending); // sent when the statement holding its key is done
          continue;
        }
        const keys = exclusiveKeys(pending.row);
        if (batch.length >= MAX_BATCH || keys.some((key) => taken.has(key))) rest.push(pending);
        else {
          for (const key of keys) taken.add(key);
          batch.push(pending);
        }
      }
      if (batch.length > 0) this.#send(batch);
      queue = rest;
    }
    this.#queue = waiting.concat(this.#queue);
  }

  #send(batch: Pending[]): void {
    const keys = batch.flatMap((p) => heldKeys(p.row));
    for (const key of keys) this.#held.add(key);
    void this.#run(batch).finally(() => {
      for (const key of keys) this.#held.delete(key);
      if (this.#queue.length > 0) this.#schedule();
    });
  }

  async #run(batch: Pending[]): Promise<void> {
    // A statement of several creates skips counters another transaction holds, so one workspace
    // whose counter is held (a lock, another replica's statement in its commit) delays no other
    // workspace's creates; its own are sent again, together, in a statement that waits (at most
    // the database's lock_timeout) while its keys stay held here.
    const busy = await this.#settle(batch, batch.length > 1);
    const byWorkspace = new Map<string, Pending[]>();
    for (const p of busy) {
      const group = byWorkspace.get(p.row.session.workspaceId) ?? [];
      group.push(p);
      byWorkspace.set(p.row.session.workspaceId, group);
    }
    await Promise.all([...byWorkspace.values()].map((group) => this.#settle(group, false)));
  }

  /** Sends `batch` as one statement and settles each create, but those left out `busy`, which it returns. */
  async #settle(batch: Pending[], skipLocked: boolean): Promise<Pending[]> {
    const busy: Pending[] = [];
    try {
      const outcomes = await insertSessionRows(
        this.db,
        batch.map((p) => p.row),
        this.companions,
        { skipLocked },
      );
      for (const p of batch) {
        const outcome = outcomes.get(p.row.session.id) ?? { stored: false };
        if (outcome.busy) busy.push(p);
        else p.resolve(outcome);
      }
      return busy;
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return busy;
      }
      // A database out of reach fails every create alike: retrying each alone would only knock
      // again, once per create. So does a lock or statement timeout: a statement that skips held
      // counters timed out on a lock every create of it waits for, one workspace's statement on
      // that workspace's counter; retrying each alone would hold a connection per create for as
      // long again. (The log line carries the error's codes, never the rows.)
      if (isDatabaseUnavailable(error)) {
        this.logger?.warn({ event: 'forms.create_batch_unavailable', size: batch.length, err: error }, 'database unavailable');
        for (const p of batch) p.reject(error);
        return busy;
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
      return busy;
    }
  }
}
