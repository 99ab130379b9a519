import { HANDLE_MACHINE } from '@sess/contract';
import { ERROR_REGISTRY, isId, isSessError, SessError } from '@sess/core';
import type { RequestScope } from '../call.ts';
import type { HandlePatch, HandleRecord, HandleStore } from '../ports/handle-store.ts';

/**
 * Loads a handle and re-checks it against the caller's whole binding, whatever the store did:
 * another principal, origin, workspace or app (OAuth client) never learns the handle exists
 * (`HANDLE_NOT_FOUND`); the same app under another grant or grant generation (a Disconnect, or a
 * sign-in that re-issued the grant) gets `BINDING_MISMATCH`.
 */
export async function loadHandle(scope: RequestScope, handle: string): Promise<HandleRecord> {
  const notFound = () =>
    new SessError(
      'HANDLE_NOT_FOUND',
      `No interaction ${handle} here. Use a handle that sess_request or sess_ask returned to you.`,
    );
  if (!isId('handle', handle)) throw notFound();
  const record = await scope.store.get(handle);
  const b = scope.binding;
  if (
    !record ||
    record.workspaceId !== b.workspaceId ||
    record.principalId !== b.principalId ||
    record.origin !== b.origin ||
    record.clientId !== b.clientId
  ) {
    throw notFound();
  }
  if (record.grantId !== b.grantId || record.grantGeneration !== b.grantGeneration) {
    throw new SessError(
      'BINDING_MISMATCH',
      'This interaction belongs to an earlier connection of this app (it was disconnected or signed in again). Start a new interaction.',
    );
  }
  return record;
}

/** The refusal for a handle whose state needs owner review. */
export function blockedError(record: HandleRecord): SessError {
  if (record.state === 'create_intent' || record.state === 'create_unknown') {
    return new SessError(
      'CREATE_OUTCOME_UNKNOWN',
      'It is not known whether this form was created. Do not create it again from here; the person can review it in their Sess account, under Interactions to review.',
    );
  }
  return new SessError(
    'RECOVERY_BLOCKED',
    'This interaction is blocked: the person can review and retire it in their Sess account, under Interactions to review. Start a new interaction if you still need an answer.',
    { reason: record.blockedReason ?? 'blocked' },
  );
}

/**
 * Writes `patch` to the handle if it is still at the version `record` was read at (undefined
 * when another call changed it first). A change of state must be a move of the handle's one
 * transition table (the contract's `HANDLE_MACHINE`); any other is a bug, refused before a write.
 */
export function patchHandle(store: HandleStore, record: HandleRecord, patch: HandlePatch): Promise<HandleRecord | undefined> {
  if (patch.state !== undefined && patch.state !== record.state) HANDLE_MACHINE.assertMove(record.state, patch.state);
  return store.update(record.handle, record.version, patch);
}

/** Applies a patch that must win; a lost compare-and-set means another call changed the handle first. */
export async function updateOrConflict(store: HandleStore, record: HandleRecord, patch: HandlePatch): Promise<HandleRecord> {
  const updated = await patchHandle(store, record, patch);
  if (!updated) {
    throw new SessError(
      'INVALID_STATE',
      'Another call changed this interaction at the same moment. Call sess_response to see where it stands, then try again.',
    );
  }
  return updated;
}

/** How a backend failure is to be treated (see SessBackend's error contract). */
export type BackendFailure =
  | { kind: 'rejected'; error: SessError }
  | { kind: 'unavailable'; error: SessError }
  | { kind: 'protocol'; error: SessError }
  | { kind: 'configuration'; error: SessError }
  | { kind: 'aborted' }
  | { kind: 'unknown'; cause: unknown };

export function classifyBackendError(error: unknown, signal?: AbortSignal): BackendFailure {
  if (signal?.aborted || (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'))) {
    return { kind: 'aborted' };
  }
  if (!isSessError(error)) return { kind: 'unknown', cause: error };
  switch (error.code) {
    case 'SESS_UNAVAILABLE':
    case 'STATE_STORE_ERROR':
    case 'RATE_LIMITED':
    case 'INTERNAL':
    case 'OUTCOME_UNKNOWN':
      return { kind: 'unavailable', error };
    case 'SESS_PROTOCOL_ERROR':
      return { kind: 'protocol', error };
    case 'NOT_CONFIGURED':
    case 'UNAUTHORIZED':
    case 'FORBIDDEN':
      return { kind: 'configuration', error };
    default:
      return ERROR_REGISTRY[error.code].retryable ? { kind: 'unavailable', error } : { kind: 'rejected', error };
  }
}

/** `SESS_UNAVAILABLE`: a read or wait failed and nothing changed. */
export function unavailable(cause?: unknown): SessError {
  return new SessError(
    'SESS_UNAVAILABLE',
    'Sess could not be reached just now. Nothing changed; try again in a moment.',
    {},
    {
      cause,
    },
  );
}

/** `SESS_PROTOCOL_ERROR`: the runtime answered something inconsistent; fails closed, changes nothing. */
export function protocolError(what: string): SessError {
  return new SessError('SESS_PROTOCOL_ERROR', `Sess answered inconsistently (${what}). Nothing was changed or released.`);
}

/** Maps a read failure to the seed's error; `aborted` is the caller's to handle. */
export function readFailure(failure: Exclude<BackendFailure, { kind: 'aborted' }>): SessError {
  switch (failure.kind) {
    case 'protocol':
      return failure.error;
    case 'configuration':
      return new SessError('NOT_CONFIGURED', 'Sess is not configured to serve this call. The owner must fix the configuration.');
    case 'rejected':
      return protocolError(`the runtime refused a read: ${failure.error.code}`);
    case 'unavailable':
      return unavailable(failure.error);
    case 'unknown':
      return unavailable(failure.cause);
  }
}
