import { SessError, sha256CanonicalJson } from '@sess/core';
import type { DbOrTx, Tx } from '@sess/db';
import { queryRows } from '@sess/db';
import { sql } from 'drizzle-orm';
import { isoParam } from '../model/sql-values.ts';
import type { FormsRuntime } from '../runtime/forms-runtime.ts';
import { openResponse, sealResponse } from './seal-response.ts';

/** How long a key is remembered at least; `deleteExpiredIdempotencyKeys` removes older rows. */
export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 3_600;

/** The namespace keys live in for /v1 (a future MCP backend may use its own). */
export const V1_SCOPE = 'v1';

/** An idempotent write: the key, and everything that makes two requests "the same". */
export interface Idempotency {
  key: string;
  /** Key namespace within the workspace (default `v1`). */
  scope?: string;
  /** The operation and its target, e.g. `publish ses_…`: the same key on another operation is a reuse. */
  operation: string;
  /**
   * What makes two requests the same (body and preconditions, or a digest of them); hashed as
   * canonical JSON, never stored.
   */
  request: unknown;
  /** Store the response sealed (it carries a link). */
  sealed?: boolean;
}

const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

/** Checks an Idempotency-Key: 1–255 visible ASCII characters. */
export function checkIdempotencyKey(key: string): void {
  if (!KEY_SHAPE.test(key)) {
    throw new SessError('INVALID_ARGUMENTS', 'Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID is ideal).', {
      header: 'Idempotency-Key',
    });
  }
}

/** An idempotency key resolved to its row coordinates and the hash of its request. */
export interface ResolvedIdempotency {
  workspaceId: string;
  scope: string;
  key: string;
  requestSha256: string;
  /** Additional data binding a sealed response to its row. */
  aad: string;
  sealed: boolean;
}

/** Checks the key and computes what identifies its request. */
export function resolveIdempotency(workspaceId: string, idempotency: Idempotency): ResolvedIdempotency {
  checkIdempotencyKey(idempotency.key);
  const scope = idempotency.scope ?? V1_SCOPE;
  const requestSha256 = sha256CanonicalJson({ operation: idempotency.operation, request: idempotency.request ?? null });
  return {
    workspaceId,
    scope,
    key: idempotency.key,
    requestSha256,
    aad: `${workspaceId}\n${scope}\n${idempotency.key}`,
    sealed: idempotency.sealed === true,
  };
}

/** The response column's JSON value for a result (sealed when it carries a link). */
export function storedResponse(runtime: FormsRuntime, resolved: ResolvedIdempotency, value: unknown): StoredResponse {
  return resolved.sealed ? { sealed: sealResponse(runtime.secret, resolved.aad, value) } : { value };
}

/** What the `response` column holds: the result, or the result sealed. */
export type StoredResponse = { sealed: string } | { value: unknown };

/**
 * The stored result of a key that is already taken: the same request replays it, another one
 * is `IDEMPOTENCY_KEY_REUSED`.
 */
export async function replayStored<T>(runtime: FormsRuntime, db: DbOrTx, resolved: ResolvedIdempotency): Promise<T> {
  const [row] = await queryRows<{ request_sha256: string; response: unknown }>(
    db,
    sql`select request_sha256, response from idempotency_keys
         where workspace_id = ${resolved.workspaceId} and scope = ${resolved.scope} and key = ${resolved.key}`,
  );
  if (!row || row.request_sha256 !== resolved.requestSha256) {
    throw new SessError(
      'IDEMPOTENCY_KEY_REUSED',
      'This Idempotency-Key was already used for a different request. Use a new key for a new request.',
      { header: 'Idempotency-Key' },
    );
  }
  const stored = row.response as StoredResponse;
  const value = 'sealed' in stored ? openResponse(runtime.secret, resolved.aad, stored.sealed) : stored.value;
  return value as T;
}

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
    if (claimed.length === 0) return { value: await replayStored<T>(runtime, tx, resolved), replayed: true };
    const value = await write(tx);
    await tx.execute(
      sql`update idempotency_keys set status = 200, response = ${JSON.stringify(storedResponse(runtime, resolved, value))}::jsonb
           where workspace_id = ${workspaceId} and scope = ${resolved.scope} and key = ${resolved.key}`,
    );
    return { value, replayed: false };
  });
}
