import type { Tx } from '@sess/db';
import { queryRows } from '@sess/db';
import { type SQL, sql } from 'drizzle-orm';
import { isoParam } from '../model/sql-values.ts';
import type { FormsRuntime } from '../runtime/forms-runtime.ts';
import { type Idempotency, resolveIdempotency } from './idempotency-key.ts';
import { replayStored, storedResponse } from './stored-response.ts';

/**
 * What a write returns: its result, and optionally its last statement, not yet run. The result
 * must not depend on that statement's outcome: it goes to the database together with the
 * idempotency key's record, in one round trip (pipelined), so the transaction holds its rows
 * for one round trip less.
 */
export interface Written<T> {
  value: T;
  last?: SQL | undefined;
}

/**
 * Runs `write` in one transaction, at most once per idempotency key. The key row is claimed
 * first (`insert … on conflict do nothing`), so a concurrent request with the same key waits
 * for the first one and then replays its result instead of racing it. An identical replay
 * returns the stored response; the same key with another request is `IDEMPOTENCY_KEY_REUSED`.
 * A refusal (any error) rolls everything back, the key included: nothing changes, and the
 * same request may be sent again. `within` runs it inside the caller's open transaction.
 *
 * A transaction of its own takes one of its workspace's write turns first (the runtime's
 * `workspaceWrites`), so one workspace's writes, however many or however stuck, hold a bounded
 * share of the pool.
 */
export async function runIdempotent<T>(
  runtime: FormsRuntime,
  workspaceId: string,
  idempotency: Idempotency | undefined,
  write: (tx: Tx) => Promise<Written<T>>,
  within?: Tx,
): Promise<{ value: T; replayed: boolean }> {
  const resolved = idempotency && resolveIdempotency(workspaceId, idempotency);
  const run = (tx: Tx): Promise<{ value: T; replayed: boolean }> =>
    resolved ? claimAndWrite(runtime, tx, resolved, write) : writeOnly(tx, write);
  // Inside a caller's transaction the write is a savepoint of it, committed with the caller's rows.
  if (within) return within.transaction(run);
  return runtime.workspaceWrites.run(workspaceId, () => runtime.database.db.transaction(run));
}

async function writeOnly<T>(tx: Tx, write: (tx: Tx) => Promise<Written<T>>): Promise<{ value: T; replayed: boolean }> {
  const { value, last } = await write(tx);
  if (last) await tx.execute(last);
  return { value, replayed: false };
}

async function claimAndWrite<T>(
  runtime: FormsRuntime,
  tx: Tx,
  resolved: ReturnType<typeof resolveIdempotency>,
  write: (tx: Tx) => Promise<Written<T>>,
): Promise<{ value: T; replayed: boolean }> {
  const claimed = await queryRows(
    tx,
    sql`insert into idempotency_keys (workspace_id, scope, key, request_sha256, status, response, created_at)
        values (${resolved.workspaceId}, ${resolved.scope}, ${resolved.key}, ${resolved.requestSha256}, 0, 'null'::jsonb,
                ${isoParam(runtime.now())}::timestamptz)
        on conflict do nothing returning 1 as claimed`,
  );
  if (claimed.length === 0) return { value: await replayStored<T>(runtime.secret, tx, resolved), replayed: true };
  const { value, last } = await write(tx);
  const record = tx.execute(
    sql`update idempotency_keys set status = 200, response = ${JSON.stringify(storedResponse(runtime.secret, resolved, value))}::jsonb
         where workspace_id = ${resolved.workspaceId} and scope = ${resolved.scope} and key = ${resolved.key}`,
  );
  // Both sent before either answer is read (postgres.js pipelines a transaction's statements);
  // should `last` fail, the record fails with it and the transaction rolls back.
  await Promise.all(last ? [tx.execute(last), record] : [record]);
  return { value, replayed: false };
}
