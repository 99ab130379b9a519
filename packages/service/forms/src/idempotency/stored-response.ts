import { SessError } from '@sess/core';
import type { DbOrTx } from '@sess/db';
import { queryRows } from '@sess/db';
import { sql } from 'drizzle-orm';
import type { ResolvedIdempotency } from './idempotency-key.ts';
import { openResponse, sealResponse } from './seal-response.ts';

/** The response column's JSON value for a result (sealed when it carries a link). */
export function storedResponse(secret: string, resolved: ResolvedIdempotency, value: unknown): StoredResponse {
  return resolved.sealed ? { sealed: sealResponse(secret, resolved.aad, value) } : { value };
}

/** What the `response` column holds: the result, or the result sealed. */
export type StoredResponse = { sealed: string } | { value: unknown };

/**
 * The stored result of a key that is already taken: the same request replays it, another one
 * is `IDEMPOTENCY_KEY_REUSED`.
 */
export async function replayStored<T>(secret: string, db: DbOrTx, resolved: ResolvedIdempotency): Promise<T> {
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
  const value = 'sealed' in stored ? openResponse(secret, resolved.aad, stored.sealed) : stored.value;
  return value as T;
}
