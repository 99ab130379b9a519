import { SessError } from '@sess/core';
import { sessionNotFound } from '../model/errors.ts';
import { MAX_WAIT_MS } from '../model/lifetimes.ts';
import { readRevisionAnswer } from '../model/queries.ts';
import { type SessionView, toAnswerView, toSessionView } from '../model/views.ts';
import { type WaitSpec, waitForChange } from '../waits/waiter-hub.ts';
import type { WorkspaceContext } from './context.ts';
import { withRespondentEmail } from './respondent-email.ts';

export interface ReadSessionInput {
  ctx: WorkspaceContext;
  sessionId: string;
  /** The revision the caller is waiting on (default: the current one). */
  revision?: number | undefined;
  /** 0–45,000 ms: park until the revision is answered, completed, expired or withdrawn, or it moves on. */
  waitMs?: number | undefined;
  /** Ends the wait at once (the HTTP request's signal). */
  signal?: AbortSignal | undefined;
}

async function readOnce(ctx: WorkspaceContext, sessionId: string): Promise<SessionView> {
  const { runtime } = ctx;
  const snapshot = await runtime.queries.sessionById(ctx.workspaceId, sessionId);
  if (!snapshot) throw sessionNotFound(sessionId);
  if (snapshot.session.kind !== 'interaction') {
    throw new SessError('INVALID_STATE', `${sessionId} is an Ask; read it with GET /v1/asks/${sessionId}.`, { kind: 'ask' });
  }
  return toSessionView(snapshot.session, snapshot, runtime.now());
}

/** When a waiting view becomes expired by the clock alone. */
function closesAt(view: SessionView): Date {
  return new Date(view.horizonAt ?? view.deadlineAt);
}

/**
 * Reads an interaction (one indexed query), optionally waiting. With `waitMs` it returns at
 * once when the revision is answered, completed, expired or withdrawn, or has moved on;
 * otherwise it parks in the in-process waiter map (no database connection held) until the
 * session changes on any replica, the link expires, `waitMs` passes or `signal` aborts, and
 * re-reads once per wake. `revision` older than the current one returns that revision's answer
 * in `response` (an answered revision never changes).
 * An answer above `link` read by the workspace's own API key carries `respondentEmail`
 * (respondent-email.ts).
 * @throws SessError `NOT_FOUND` (also for another workspace's session), `INVALID_STATE` (an
 * Ask), `REVISION_MISMATCH` (a revision the session does not have yet), `INVALID_ARGUMENTS`.
 */
export function readSession(input: ReadSessionInput): Promise<SessionView> {
  // A promise chain, not an async frame: a parked wait holds this for up to 45 s.
  return readSessionView(input).then((view) => withRespondentEmail(input.ctx, view));
}

async function readSessionView(input: ReadSessionInput): Promise<SessionView> {
  const { ctx, sessionId } = input;
  const waitMs = input.waitMs ?? 0;
  if (!Number.isSafeInteger(waitMs) || waitMs < 0 || waitMs > MAX_WAIT_MS) {
    throw new SessError('INVALID_ARGUMENTS', `wait_ms must be a whole number from 0 to ${MAX_WAIT_MS}.`, {
      field: '/wait_ms',
      limit: MAX_WAIT_MS,
    });
  }
  if (input.revision !== undefined && (!Number.isSafeInteger(input.revision) || input.revision < 1)) {
    throw new SessError('INVALID_ARGUMENTS', 'revision must be a whole number of at least 1.', { field: '/revision' });
  }
  const view = await readOnce(ctx, sessionId);
  const revision = input.revision ?? view.revision;
  if (revision > view.revision) {
    throw new SessError(
      'REVISION_MISMATCH',
      `The session is at revision ${view.revision}; revision ${revision} does not exist yet.`,
      {
        currentRevision: view.revision,
      },
    );
  }
  if (revision < view.revision) {
    const older = await readRevisionAnswer(ctx.runtime.database.db, sessionId, revision);
    return { ...view, response: older?.answer ? toAnswerView(older.answer, older.revision.surfaceSha256) : null };
  }
  if (view.state !== 'waiting' || waitMs === 0 || input.signal?.aborted) return view;
  await ctx.runtime.start();
  // Returned, not awaited: this frame ends here instead of staying parked with the wait.
  return waitForChange(ctx.runtime.waiters, new RevisionWait(ctx, sessionId, revision, waitMs, input.signal)).then((settled) =>
    settled.revision === revision ? settled : withRevisionAnswer(ctx, sessionId, settled, revision),
  );
}

/**
 * A wait on one revision of a session: done once it is no longer waiting or has moved on. One
 * object with methods, not a spec of closures: a parked wait holds it for up to 45 s.
 */
class RevisionWait implements WaitSpec<SessionView> {
  readonly now: () => Date;

  constructor(
    private readonly ctx: WorkspaceContext,
    readonly sessionId: string,
    private readonly revision: number,
    readonly waitMs: number,
    readonly signal: AbortSignal | undefined,
  ) {
    this.now = ctx.runtime.now;
  }

  read(): Promise<SessionView> {
    return readOnce(this.ctx, this.sessionId);
  }

  isDone(view: SessionView): boolean {
    return view.state !== 'waiting' || view.revision !== this.revision;
  }

  nextTimeChange(view: SessionView): Date | null {
    return view.state === 'waiting' ? closesAt(view) : null;
  }
}

/** It moved on while we waited (a publish after an answer we missed): the view with our revision's answer. */
async function withRevisionAnswer(
  ctx: WorkspaceContext,
  sessionId: string,
  settled: SessionView,
  revision: number,
): Promise<SessionView> {
  const older = await readRevisionAnswer(ctx.runtime.database.db, sessionId, revision);
  return { ...settled, response: older?.answer ? toAnswerView(older.answer, older.revision.surfaceSha256) : null };
}
