import { SessError } from '@sess/core';
import type { AskArguments, Surface } from '@sess/surface';
import type { HandleRecord } from './handle-store.ts';

/*
 * How the tools reach the Sess runtime. Two implementations fit behind it: the in-process one
 * (@sess/hosted, over @sess/forms in the same database) and an HTTP one over /v1. Both return
 * what the runtime says — views and answers with their receipts — and nothing here trusts them:
 * the tools verify every receipt and re-read progress before they release an answer.
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

/** An accepted answer as the runtime reports it, with the receipt it signed. */
export interface AnswerView {
  eventId: string;
  revision: number;
  actionId: string;
  values: Record<string, unknown>;
  /** Compact JWS; verified by the tools before anything is released. */
  receipt: string;
  /** ISO 8601. */
  answeredAt: string;
  /** Only on an Ask answer. */
  respondentId?: string;
}

/**
 * A session's state as the port has it, from the runtime's view (forms' in process, /v1's over
 * HTTP: the same contract shape). The runtime says `waiting` (or `answered`) for a link past its
 * deadline that the person can still extend; that is the port's `lapsed`. The one place this is
 * decided, for both backends.
 */
export function portSessionState(
  view: { state: string; deadlineAt: string; horizonAt: string | null },
  now: Date,
): SessionView['state'] {
  switch (view.state) {
    case 'waiting':
    case 'answered':
      return view.horizonAt !== null && Date.parse(view.deadlineAt) <= now.getTime() ? 'lapsed' : 'open';
    case 'completed':
    case 'withdrawn':
    case 'expired':
      return view.state;
    default:
      throw new SessError('SESS_PROTOCOL_ERROR', `Sess named an unknown session state ${JSON.stringify(view.state)}.`);
  }
}

/** An answer as a backend reads it (forms' view or /v1's), as the port has it. */
export function toAnswerView(answer: {
  eventId: string;
  revision: number;
  actionId: string;
  values: unknown;
  receipt: string;
  answeredAt: string;
  respondentId?: string | null | undefined;
}): AnswerView {
  const view: AnswerView = {
    eventId: answer.eventId,
    revision: answer.revision,
    actionId: answer.actionId,
    values: answer.values as Record<string, unknown>,
    receipt: answer.receipt,
    answeredAt: answer.answeredAt,
  };
  if (answer.respondentId) view.respondentId = answer.respondentId;
  return view;
}

/**
 * A session (one link, one person) at its current revision. `state` is the runtime's:
 * `open` (taking answers), `lapsed` (past its deadline but still extendable by the person),
 * `completed`, `withdrawn`, or `expired` (closed for good without completion).
 */
export interface SessionView {
  sessionId: string;
  workspaceId: string;
  state: 'open' | 'lapsed' | 'completed' | 'withdrawn' | 'expired';
  revision: number;
  /** SHA-256 of the current revision's Surface, as the runtime stored it. */
  surfaceSha256: string;
  /** ISO 8601: when the link stops taking answers, as created. */
  expiresAt: string;
  /**
   * The answer to the revision the read asked about (the current one for writes), if one was
   * accepted. When the session has moved past that revision, `revision` says so.
   */
  answer?: AnswerView;
}

/** A session just created: the view plus the link, which only a create returns. */
export interface CreatedSession extends SessionView {
  humanUrl: string;
  /**
   * True when the runtime will itself send the link to the person (a push to their device, or
   * an e-mail), committed with the create. A backend that cannot know leaves it out (false).
   */
  notified?: boolean;
}

/** An Ask (many respondents, one revision): whether answers may still come, counts, each answer. */
export interface AskView {
  askId: string;
  workspaceId: string;
  state: 'open' | 'closed';
  surfaceSha256: string;
  expiresAt: string;
  counts: { started: number; answered: number; max: number };
  answers: Array<AnswerView & { respondentId: string; name?: string }>;
}

export interface CreatedAsk extends AskView {
  humanUrl: string;
  /**
   * As `CreatedSession.notified`, and false for every backend today: an Ask's link goes to the
   * people the agent shares it with (its owner is told of its answers or its close instead).
   */
  notified?: boolean;
}

/** The outcome of a withdraw (an interaction or an Ask). */
export interface WithdrawnView {
  sessionId: string;
  state: 'withdrawn';
  revision: number;
}

/** A session's status for `sess_list`, without answer data. */
export interface SessionSummary {
  sessionId: string;
  state: SessionView['state'];
  revision: number;
  expiresAt: string;
  /** True when the current revision has an answer the agent has not read yet. */
  answered: boolean;
}

/** What `createSession` takes. */
export interface CreateSessionInput {
  surface: Surface;
  expiresIn?: number;
  idempotencyKey: string;
  /** When given, `hashSurface(surface)`: the caller has it, so a backend need not hash again. */
  surfaceSha256?: string;
}

/** What `createAsk` takes: sess_ask's arguments (with `respondents`). */
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
  createSession(ctx: BackendContext, input: CreateSessionInput): Promise<CreatedSession>;
  /**
   * Creates an Ask from sess_ask's arguments (with `respondents`); the runtime builds the Surface
   * with @sess/surface's `toSurface`, so its hash is the one the adapter computed.
   */
  createAsk(ctx: BackendContext, input: CreateAskInput): Promise<CreatedAsk>;
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
  ): Promise<CreatedSession | CreatedAsk>;
  /**
   * Reads a session. With `waitMs` > 0 and no answer yet at `revision`, waits until one arrives,
   * the session changes or `waitMs` passes; `signal` ends the wait at once (then it resolves with
   * the current view or rejects with an AbortError — either is fine).
   */
  readSession(
    ctx: BackendContext,
    input: { sessionId: string; revision: number; waitMs: number; signal?: AbortSignal },
  ): Promise<SessionView>;
  readAsk(ctx: BackendContext, input: { askId: string }): Promise<AskView>;
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
  ): Promise<SessionView>;
  /** Closes the link to new answers at `expectedRevision` (If-Match, idempotent by key). */
  complete(
    ctx: BackendContext,
    input: { sessionId: string; expectedRevision: number; responseEventId: string; idempotencyKey: string },
  ): Promise<SessionView>;
  /** The agent no longer needs the answer: the link stops taking answers and says so. Idempotent. */
  withdraw(ctx: BackendContext, input: { sessionId: string; idempotencyKey: string }): Promise<WithdrawnView>;
  /** Current status of several sessions of the caller's workspace (missing ones are left out). */
  listSessions(ctx: BackendContext, input: { sessionIds: string[] }): Promise<SessionSummary[]>;
}
