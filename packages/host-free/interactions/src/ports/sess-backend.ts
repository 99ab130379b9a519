import type { AskView, CreatedAsk, CreatedSession, SessionView, WithdrawnSession } from '@sess/contract';
import { SessError } from '@sess/core';
import type { AskArguments, AssuranceChoice, Surface } from '@sess/surface';
import type { HandleRecord } from './handle-store.ts';

/*
 * How the tools reach the Sess runtime. Two implementations fit behind it: the in-process one
 * (@sess/hosted, over @sess/forms in the same database) and an HTTP one over /v1. Both return
 * what the runtime says — @sess/contract's views, answers with their receipts — and nothing here
 * trusts them: the tools verify every receipt and re-read progress before they release an answer.
 * The port has no view types of its own: what a view's state means to the tools is decided once,
 * in the verbs, for both backends.
 *
 * Failures are thrown as `SessError` with a registry code: a deterministic refusal keeps its own
 * code (`PLAN_LIMIT_REACHED`, `INVALID_ARGUMENTS`, `REVISION_MISMATCH`, `LINK_CLOSED`, …), a
 * transient one is `SESS_UNAVAILABLE`, a runtime that answered nonsense `SESS_PROTOCOL_ERROR`.
 * Anything else thrown is treated as "the outcome is not known".
 */

/** Who the call is for: the authenticated principal's workspace and identity. */
export interface BackendContext {
  workspaceId: string;
  principalId: string;
  /** A credential for a remote runtime (never the MCP bearer token). The in-process backend ignores it. */
  credential?: () => Promise<string>;
}

/**
 * A view as the runtime answered it (@sess/contract's `/v1` types, the same in process and over
 * HTTP), with the workspace the runtime says it acted in: the tools check it against the
 * principal's before they trust anything in the view.
 */
export type InWorkspace<T> = T & { workspaceId: string };

/** What `createSession` takes. */
export interface CreateSessionInput {
  surface: Surface;
  expiresIn?: number;
  /** sess_request's `answer_in_chat`: false forbids answering in the agent's chat; absent means true. */
  answerInChat?: boolean;
  /** sess_request's `assurance` (absent: link); the runtime raises it to the maker's floor. */
  assurance?: AssuranceChoice;
  /** sess_request's `for`: members by e-mail (a workspace API key's form only). */
  for?: string[];
  idempotencyKey: string;
  /** When given, `hashSurface(surface)`: the caller has it, so a backend need not hash again. */
  surfaceSha256?: string;
}

/** What `createAsk` takes: sess_ask's arguments (with `respondents`; an Ask is never answered in the chat). */
export interface CreateAskInput {
  ask: AskArguments;
  idempotencyKey: string;
}

/**
 * A create written with its handle record (`createWithHandle`) that failed with its outcome in
 * question: `committed` is `false` when nothing of it can have landed (its statement never
 * reached the database), `'unknown'` when the commit may have happened (the connection was lost
 * with the commit in flight).
 */
export class CommitFailure extends SessError {
  constructor(
    readonly committed: false | 'unknown',
    options: { cause?: unknown } = {},
  ) {
    super(
      'SESS_UNAVAILABLE',
      committed === false
        ? 'Sess cannot reach its database just now; nothing was changed. Try again in a moment.'
        : 'Sess lost its database connection during this call, so it may or may not have taken effect.',
      {},
      { ...options, retryable: true },
    );
  }
}

/**
 * A write the runtime certainly did not carry out: the request never reached it (the connection
 * was refused) or it was turned away before any work was done (a rate limit). A bare
 * `SESS_UNAVAILABLE` after a write may hide a commit whose answer was lost, so the tools treat it
 * as outcome-unknown; this one lets a create drop its intent, and a first publish or complete
 * its saved request: nothing changed anywhere, and the call may simply be made again later.
 */
export class NotAppliedFailure extends SessError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('SESS_UNAVAILABLE', message, {}, { cause: options.cause, retryable: true });
  }
}

/** The runtime operations the tools need, and nothing more. */
export interface SessBackend {
  /** The runtime's API origin (the in-process backend names the server's own public origin). */
  readonly origin: string;
  createSession(ctx: BackendContext, input: CreateSessionInput): Promise<InWorkspace<CreatedSession>>;
  /**
   * Creates an Ask from sess_ask's arguments (with `respondents`); the runtime builds the Surface
   * with @sess/surface's `toSurface`, so its hash is the one the adapter computed.
   */
  createAsk(ctx: BackendContext, input: CreateAskInput): Promise<InWorkspace<CreatedAsk>>;
  /**
   * Present on a backend that keeps the handle records itself (the hosted one, in the same
   * database): creates the session (or, for an Ask's input, the Ask) and inserts the handle
   * record `toRecord` makes of it, together, so a create is never outcome-unknown. The
   * principal's `MAX_UNFINISHED_PER_PRINCIPAL` is checked with it (`STATE_STORE_FULL`, nothing
   * created). A failure of the write itself is `CommitFailure` (whether it may have committed)
   * or another `SessError`; no idempotency record is written (there is no lost outcome to replay).
   */
  createWithHandle?(
    ctx: BackendContext,
    input: CreateSessionInput | CreateAskInput,
    toRecord: (created: CreatedSession | CreatedAsk) => HandleRecord,
  ): Promise<InWorkspace<CreatedSession> | InWorkspace<CreatedAsk>>;
  /**
   * Reads a session. With `waitMs` > 0 and no answer yet at `revision`, waits until one arrives,
   * the session changes or `waitMs` passes; `signal` ends the wait at once (then it resolves with
   * the current view or rejects with an AbortError — either is fine).
   */
  readSession(
    ctx: BackendContext,
    input: { sessionId: string; revision: number; waitMs: number; signal?: AbortSignal },
  ): Promise<InWorkspace<SessionView>>;
  readAsk(ctx: BackendContext, input: { askId: string }): Promise<InWorkspace<AskView>>;
  /**
   * Shows the next Surface at `expectedRevision + 1` (If-Match on the revision, idempotent by key).
   * `humanUrl` is the link the person holds, when the caller kept it: a runtime that notifies
   * tells the person of the follow-up through it (the runtime stores only the link's hash).
   */
  publish(
    ctx: BackendContext,
    input: {
      sessionId: string;
      expectedRevision: number;
      responseEventId: string;
      surface: Surface;
      idempotencyKey: string;
      humanUrl?: string;
    },
  ): Promise<InWorkspace<SessionView>>;
  /** Closes the link to new answers at `expectedRevision` (If-Match, idempotent by key). */
  complete(
    ctx: BackendContext,
    input: { sessionId: string; expectedRevision: number; responseEventId: string; idempotencyKey: string },
  ): Promise<InWorkspace<SessionView>>;
  /** The agent no longer needs the answer: the link stops taking answers and says so. Idempotent. */
  withdraw(ctx: BackendContext, input: { sessionId: string; idempotencyKey: string }): Promise<WithdrawnSession>;
  /**
   * One short line on where an interaction stands, for a polled task's `statusMessage` ("opened
   * 14:02", "2 of 3 answered"). Optional: the event timeline fills it; without it the tools say
   * what the read itself shows. Never a link, a token or an answer.
   */
  statusLine?(ctx: BackendContext, input: { sessionId?: string; askId?: string }): Promise<string | undefined>;
  /** Several sessions of the caller's workspace as a read without waiting sees them (at most 50; missing ones are left out). */
  listSessions(ctx: BackendContext, input: { sessionIds: string[] }): Promise<SessionView[]>;
}
