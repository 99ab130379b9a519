import { CompleteSessionRequestSchema, STORED_SESSION_MACHINE } from '@sess/contract';
import { parseArguments } from '@sess/surface';
import { runIdempotent } from '../idempotency/run-idempotent.ts';
import { type SessionView, toAnswerView } from '../model/views.ts';
import { closeSessionStatement } from './close-session.ts';
import type { WorkspaceContext } from './context.ts';
import { lockSession } from './lock-session.ts';
import { checkExpectedRevision, checkRevisionWrite } from './revision-write.ts';

export interface CompleteSessionInput {
  ctx: WorkspaceContext;
  sessionId: string;
  /** The revision the agent acts on (If-Match). */
  expectedRevision: number;
  idempotencyKey: string;
  /** `{ response_event_id }`. */
  input: unknown;
}

/**
 * Closes the link to new answers and keeps what was given; the person's page shows "Done".
 * Same preconditions as publish (answer event of the expected revision). Allowed after the
 * link's end too: an answer accepted in time can always be completed.
 * @throws SessError as `publishSession` (except expiry).
 */
export async function completeSession(request: CompleteSessionInput): Promise<SessionView> {
  const { ctx, sessionId, expectedRevision, idempotencyKey } = request;
  checkExpectedRevision(expectedRevision);
  const responseEventId = parseArguments(CompleteSessionRequestSchema, request.input).response_event_id;
  const { runtime } = ctx;
  const { value } = await runIdempotent(
    runtime,
    ctx.workspaceId,
    {
      key: idempotencyKey,
      operation: `sessions.complete ${sessionId}`,
      request: { expectedRevision, body: request.input },
    },
    async (tx) => {
      const now = runtime.now();
      const locked = await lockSession(tx, ctx.workspaceId, sessionId);
      checkRevisionWrite(locked, expectedRevision, responseEventId, 'complete');
      const completed = STORED_SESSION_MACHINE.next(locked.session.state, 'completed');
      if (completed !== 'completed') throw new Error(`unreachable: completing ${sessionId} leads to ${completed}`);
      const s = locked.session;
      const view: SessionView = {
        sessionId,
        kind: 'interaction',
        revision: expectedRevision,
        state: 'completed',
        createdAt: s.createdAt.toISOString(),
        expiresAt: s.expiresAt.toISOString(),
        deadlineAt: s.deadlineAt.toISOString(),
        horizonAt: s.horizonAt?.toISOString() ?? null,
        extendable: s.extendable,
        surfaceSha256: locked.surfaceSha256,
        completedAt: now.toISOString(),
        withdrawnAt: null,
        response: locked.answer ? toAnswerView(locked.answer, locked.surfaceSha256) : null,
      };
      const last = closeSessionStatement({
        workspaceId: ctx.workspaceId,
        sessionId,
        state: completed,
        at: now,
        revision: expectedRevision,
      });
      return { value: view, last };
    },
  );
  return value;
}
