import { createSessClient, isSessClientError, type SessClient, type SessClientError, type SessResult } from '@sess/client';
import type { CreateAskRequest, CreateSessionRequest, SessionView } from '@sess/contract';
import { ERROR_REGISTRY, type ErrorCode, type ErrorDetails, SessError } from '@sess/core';
import { createRemoteKeySet, type RemoteKeySetOptions } from '@sess/receipts';
import type { ReceiptVerification } from '../call.ts';
import { type BackendContext, type InWorkspace, NotAppliedFailure, type SessBackend } from '../ports/sess-backend.ts';

/*
 * The SessBackend over /v1, through @sess/client: the local stdio server and the OpenClaw plugin
 * use it with one API key; a hosted edge gives each principal's key through `credential()`.
 * It does not join units of work, so the tools take the durable path: the create intent is saved
 * before the request, a lost create is CREATE_OUTCOME_UNKNOWN, and a publish or complete is saved
 * before it is sent and replayed by the identical call with the same Idempotency-Key.
 */

/** Options of `createHttpBackend`. */
export interface HttpBackendOptions {
  /** The runtime's API origin (`https://api.sess.si`; plain http only to a loopback host, a local Sess). */
  origin: string;
  /**
   * The API key of a single-key host (stdio, OpenClaw). A principal's own `credential()` (the
   * hosted edge) wins over it; with neither, every call is `NOT_CONFIGURED`.
   */
  apiKey?: string | undefined;
  /** Defaults to the global `fetch`. Tests hand in one that loses answers on purpose. */
  fetch?: typeof globalThis.fetch | undefined;
  /** Deadline of one request in milliseconds (the client's default 30 000); a wait gets its `wait_ms` on top. */
  timeoutMs?: number | undefined;
  /** Put in front of the client's own `User-Agent`. */
  userAgent?: string | undefined;
  /** Read the session statuses of sess_list this many at a time (default 8). */
  listConcurrency?: number | undefined;
  /**
   * The workspace to trust for a runtime that does not send `Sess-Workspace-Id` (ours does); when
   * both are there they must agree. Without either, a call is NOT_CONFIGURED (VERIFICATION_CONTEXT_MISSING).
   */
  expectedWorkspaceId?: string | undefined;
}

/** Options of `createHttpReceipts`. */
export interface HttpReceiptsOptions {
  origin: string;
  /** The receipts' `iss` when it is not the origin (a split deployment); default the origin. */
  issuer?: string | undefined;
  fetch?: typeof globalThis.fetch | undefined;
  keySet?: Omit<RemoteKeySetOptions, 'fetch'> | undefined;
}

/** The JWKS path every Sess runtime serves its receipt keys at. */
const JWKS_PATH = '/.well-known/jwks.json';

/**
 * How the tools verify answers that came over /v1: the runtime's published key set
 * (`/.well-known/jwks.json`, cached, refetched on an unknown `kid` within its cooldown) and the
 * exact issuer. Built once per host and shared by every call, as `ToolDeps.receipts`.
 */
export function createHttpReceipts(options: HttpReceiptsOptions): ReceiptVerification {
  const origin = new URL(options.origin).origin;
  const keySetOptions: RemoteKeySetOptions = { ...options.keySet };
  if (options.fetch) {
    const fetchImpl = options.fetch;
    keySetOptions.fetch = (input, init) => fetchImpl(input, init);
  }
  return { keys: createRemoteKeySet(`${origin}${JWKS_PATH}`, keySetOptions), issuer: options.issuer ?? origin };
}

const numberOf = (value: unknown) => (typeof value === 'number' ? value : undefined);
const isRegistryCode = (code: string | undefined): code is ErrorCode => code !== undefined && Object.hasOwn(ERROR_REGISTRY, code);

function outcomeUnknown(error: SessClientError): SessError {
  return new SessError(
    'OUTCOME_UNKNOWN',
    'The request reached Sess but its answer was lost, so it may or may not have taken effect.',
    {},
    { cause: error },
  );
}

/** `api`: Sess's own refusal keeps its registry code and facts; a 5xx is transient, a 429 certainly not applied. */
function apiError(error: SessClientError): SessError {
  if (error.status === 429) {
    return new NotAppliedFailure('Sess is busy just now (rate limited); nothing was changed. Try again in a moment.', {
      cause: error,
    });
  }
  if ((error.status ?? 0) >= 500) {
    return new SessError(
      'SESS_UNAVAILABLE',
      'Sess could not serve this call just now. Try again in a moment.',
      {},
      { cause: error, retryable: true },
    );
  }
  if (!isRegistryCode(error.code)) {
    // A code this build does not know (a newer server): still Sess's refusal, not ours to invent a meaning for.
    return error.retryable
      ? new SessError('SESS_UNAVAILABLE', 'Sess could not serve this call just now. Try again in a moment.', {}, { cause: error })
      : new SessError(
          'SESS_PROTOCOL_ERROR',
          `Sess answered with an unknown error (${error.code ?? 'none'}).`,
          {},
          { cause: error },
        );
  }
  const details: ErrorDetails = {};
  if (error.field !== undefined) details.field = error.field;
  const limit = numberOf(error.limit);
  const length = numberOf(error.length);
  if (limit !== undefined) details.limit = limit;
  if (length !== undefined) details.length = length;
  if (error.reason !== undefined) details.reason = error.reason;
  if (error.currentRevision !== undefined) details.currentRevision = error.currentRevision;
  return new SessError(error.code, error.message, details, { cause: error, retryable: error.retryable });
}

/**
 * Every client failure to the port's error contract (the seed's "Error classes" table):
 * `api` keeps its code; `transport`, `timeout` and a 5xx are `SESS_UNAVAILABLE` (a connection that
 * was never made, `NotAppliedFailure`); `unknown_outcome` is `OUTCOME_UNKNOWN` (what the tools treat
 * as a lost outcome); `aborted` is an AbortError (the wait ends); `configuration` is
 * `NOT_CONFIGURED`; `protocol` is `SESS_PROTOCOL_ERROR` — except after a write the runtime
 * accepted (2xx), where the write happened and only its answer is unusable: outcome unknown.
 */
export function toBackendError(error: unknown, write: boolean): unknown {
  if (!isSessClientError(error)) return error;
  switch (error.kind) {
    case 'api':
      return apiError(error);
    case 'transport':
    case 'timeout':
      if (!error.sent) {
        return new NotAppliedFailure('Sess could not be reached just now; nothing was sent. Try again in a moment.', {
          cause: error,
        });
      }
      return write
        ? outcomeUnknown(error)
        : new SessError('SESS_UNAVAILABLE', 'Sess could not be reached just now. Try again in a moment.', {}, { cause: error });
    case 'unknown_outcome':
      return outcomeUnknown(error);
    case 'aborted':
      return new DOMException('The call was aborted.', 'AbortError');
    case 'configuration':
      // `not_sent`: the client's own checks refused it (a saved publish/complete then blocks, as
      // the seed says); `refused`: Sess turned the key away, and nothing was applied.
      return new SessError(
        'NOT_CONFIGURED',
        'Sess is not configured to serve this call (the API origin or key). The owner must fix the configuration.',
        { reason: error.sent ? 'refused' : 'not_sent' },
        { cause: error },
      );
    case 'protocol':
      if (write && error.status !== undefined && error.status >= 200 && error.status < 300) return outcomeUnknown(error);
      if (error.code === 'VERIFICATION_CONTEXT_MISSING') {
        // The seed: a missing trusted workspace is NOT_CONFIGURED, naming what the owner sets.
        return new SessError(
          'NOT_CONFIGURED',
          'Sess did not name the workspace of this API key, so answers cannot be verified (VERIFICATION_CONTEXT_MISSING). The owner must set the expected workspace id (SESS_EXPECTED_WORKSPACE_ID for sess-mcp).',
          { reason: 'verification_context_missing' },
          { cause: error },
        );
      }
      return new SessError(
        'SESS_PROTOCOL_ERROR',
        'Sess answered something that does not fit its contract.',
        {},
        { cause: error },
      );
    default: {
      const unreachable: never = error.kind;
      return new SessError('SESS_PROTOCOL_ERROR', `unclassified client failure ${String(unreachable)}`);
    }
  }
}

/** A /v1 answer's view, with the workspace the runtime named (`Sess-Workspace-Id`). */
const inWorkspace = <T>(result: SessResult<T>): InWorkspace<T> => ({ ...result.data, workspaceId: result.workspaceId });

/** A write that came back for another workspace than the principal's: it happened, but not where it should have. */
function checkWorkspace(ctx: BackendContext, workspaceId: string): void {
  if (workspaceId !== ctx.workspaceId) {
    throw new SessError(
      'OUTCOME_UNKNOWN',
      'Sess carried out this call in another workspace than the one this connection acts for; the API key belongs to another workspace.',
    );
  }
}

/**
 * An HTTP `SessBackend` over `@sess/client`. Every write carries the tools' Idempotency-Key
 * (publish and complete also `If-Match: "<expected revision>"`); a wait carries the tools' signal
 * (the request deadline, a disconnect, an MCP cancellation), and its HTTP deadline is the client's
 * plus `wait_ms`. Receipts are not verified here: the tools verify every answer themselves
 * (`createHttpReceipts` gives them the runtime's key set).
 */
export function createHttpBackend(options: HttpBackendOptions): SessBackend {
  const listConcurrency = Math.max(1, options.listConcurrency ?? 8);
  const base = {
    origin: options.origin,
    fetch: options.fetch,
    timeoutMs: options.timeoutMs,
    userAgent: options.userAgent ?? 'sess-interactions',
    expectedWorkspaceId: options.expectedWorkspaceId,
  };
  // Checks the origin (and the key, when one is configured) once, at construction.
  const shared = options.apiKey !== undefined ? createSessClient({ ...base, apiKey: options.apiKey }) : undefined;
  const origin = shared?.origin ?? new URL(options.origin).origin;

  /** The client for this call: the principal's own credential, else the host's key. */
  function clientFor(ctx: BackendContext): SessClient {
    if (ctx.credential) return createSessClient({ ...base, credential: ctx.credential });
    if (shared) return shared;
    throw new SessError('NOT_CONFIGURED', 'No Sess API key is configured for this connection. The owner must set one.');
  }

  /** Runs one client call under the port's error contract. */
  async function call<T>(write: boolean, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw toBackendError(error, write);
    }
  }

  return {
    origin,

    async createSession(ctx, input) {
      const client = clientFor(ctx);
      const body: CreateSessionRequest = { interaction: input.surface as CreateSessionRequest['interaction'] };
      if (input.expiresIn !== undefined) body.expires_in = input.expiresIn;
      if (input.answerInChat !== undefined) body.answer_in_chat = input.answerInChat;
      if (input.assurance !== undefined) body.assurance = input.assurance;
      if (input.for !== undefined) body.for = input.for;
      const result = await call(true, () => client.sessions.create(body, { idempotencyKey: input.idempotencyKey }));
      checkWorkspace(ctx, result.workspaceId);
      // `notified`: the server told the workspace's owners who chose so (a session an API key created).
      return inWorkspace(result);
    },

    async createAsk(ctx, input) {
      const client = clientFor(ctx);
      const result = await call(true, () =>
        client.asks.create(input.ask as CreateAskRequest, { idempotencyKey: input.idempotencyKey }),
      );
      checkWorkspace(ctx, result.workspaceId);
      return inWorkspace(result);
    },

    async readSession(ctx, input) {
      const client = clientFor(ctx);
      const result = await call(false, () =>
        client.sessions.read(input.sessionId, { revision: input.revision, wait_ms: input.waitMs }, { signal: input.signal }),
      );
      return inWorkspace(result);
    },

    async readAsk(ctx, input) {
      const client = clientFor(ctx);
      return inWorkspace(await call(false, () => client.asks.read(input.askId)));
    },

    async publish(ctx, input) {
      const client = clientFor(ctx);
      const result = await call(true, () =>
        client.sessions.publish(
          input.sessionId,
          {
            expected_revision: input.expectedRevision,
            response_event_id: input.responseEventId,
            interaction: input.surface as CreateSessionRequest['interaction'],
          },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
      checkWorkspace(ctx, result.workspaceId);
      return inWorkspace(result);
    },

    async complete(ctx, input) {
      const client = clientFor(ctx);
      const result = await call(true, () =>
        client.sessions.complete(
          input.sessionId,
          { expected_revision: input.expectedRevision, response_event_id: input.responseEventId },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
      checkWorkspace(ctx, result.workspaceId);
      return inWorkspace(result);
    },

    async withdraw(ctx, input) {
      const client = clientFor(ctx);
      const result = await call(true, () => client.sessions.withdraw(input.sessionId, { idempotencyKey: input.idempotencyKey }));
      checkWorkspace(ctx, result.workspaceId);
      return result.data;
    },

    async listSessions(ctx, input) {
      // /v1 lists by status, not by id: read each (at most 50, a few at a time). Best effort, as the port says.
      const client = clientFor(ctx);
      const ids = input.sessionIds.slice(0, 50);
      const out: Array<SessionView | undefined> = new Array(ids.length);
      let next = 0;
      await Promise.all(
        Array.from({ length: Math.min(listConcurrency, ids.length) }, async () => {
          while (next < ids.length) {
            const i = next++;
            try {
              out[i] = (await client.sessions.read(ids[i]!, { wait_ms: 0 })).data;
            } catch {
              out[i] = undefined;
            }
          }
        }),
      );
      return out.filter((view): view is SessionView => view !== undefined);
    },
  };
}
