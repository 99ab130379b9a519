import type { Tx } from '@sess/db';
import { queryRows } from '@sess/db';
import { sql } from 'drizzle-orm';
import { isoParam } from '../model/sql-values.ts';
import type { FormsRuntime } from '../runtime/forms-runtime.ts';
import { type Idempotency, resolveIdempotency } from './idempotency-key.ts';
import { replayStored, storedResponse } from './stored-response.ts';

/**
 * Runs `write` in one transaction, at most once per idempotency key. The key row is claimed
 * first (`insert … on conflict do nothing`), so a concurrent request with the same key waits
 * for the first one and then replays its result instead of racing it. An identical replay
 * returns the stored response; the same key with another request is `IDEMPOTENCY_KEY_REUSED`.
 * A refusal (any error) rolls everything back, the key included: nothing changes, and the
 * same request may be sent again. `within` runs it inside the caller's open transaction.
 */
export async function runIdempotent<T>(
  runtime: FormsRuntime,
  workspaceId: string,
  idempotency: Idempotency | undefined,
  write: (tx: Tx) => Promise<T>,
  within?: Tx,
): Promise<{ value: T; replayed: boolean }> {
  // Inside a caller's transaction the write is a savepoint of it, committed with the caller's rows.
  const db = within ?? runtime.database.db;
  if (!idempotency) return { value: await db.transaction(write), replayed: false };
  const resolved = resolveIdempotency(workspaceId, idempotency);
  return db.transaction(async (tx) => {
    const claimed = await queryRows(
      tx,
      sql`insert into idempotency_keys (workspace_id, scope, key, request_sha256, status, response, created_at)
          values (${workspaceId}, ${resolved.scope}, ${resolved.key}, ${resolved.requestSha256}, 0, 'null'::jsonb,
                  ${isoParam(runtime.now())}::timestamptz)
          on conflict do nothing returning 1 as claimed`,
    );
    if (claimed.length === 0) return { value: await replayStored<T>(runtime.secret, tx, resolved), replayed: true };
    const value = await write(tx);
    await tx.execute(
      sql`update idempotency_keys set status = 200, response = ${JSON.stringify(storedResponse(runtime.secret, resolved, value))}::jsonb
           where workspace_id = ${workspaceId} and scope = ${resolved.scope} and key = ${resolved.key}`,
    );
    return { value, replayed: false };
  });
}
