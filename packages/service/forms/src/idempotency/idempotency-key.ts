import { SessError, sha256CanonicalJson } from '@sess/core';

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
