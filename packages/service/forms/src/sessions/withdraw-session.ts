import { STORED_SESSION_MACHINE, type WithdrawnSession, WithdrawSessionRequestSchema } from '@sess/contract';
import { SessError } from '@sess/core';
import { parseArguments } from '@sess/surface';
import { runIdempotent } from '../idempotency/run-idempotent.ts';
import { closeSessionStatement } from './close-session.ts';
import type { WorkspaceContext } from './context.ts';
import { lockSession } from './lock-session.ts';

/** The outcome of a withdraw (@sess/contract's `WithdrawnSessionSchema`). */
export type { WithdrawnSession };

export interface WithdrawSessionInput {
  ctx: WorkspaceContext;
  /** An interaction (`ses_…`) or an Ask (`ask_…`). */
  sessionId: string;
  idempotencyKey?: string | undefined;
  /** `{}` (or nothing). */
  input?: unknown;
}

/**
 * The agent no longer needs the answer (backs `sess_cancel`): the link stops taking answers
 * and the page says the question was withdrawn; waits return `withdrawn`. Idempotent: a
 * withdrawn session stays withdrawn and the same result comes back. Answers already given are
 * kept. Works on an Ask too (it closes for everyone).
 * @throws SessError `NOT_FOUND`, `INVALID_STATE` (already completed), `INVALID_ARGUMENTS`.
 */
export async function withdrawSession(request: WithdrawSessionInput): Promise<WithdrawnSession> {
  const { ctx, sessionId } = request;
  if (request.input !== undefined && request.input !== null) parseArguments(WithdrawSessionRequestSchema, request.input);
  const { runtime } = ctx;
  const { value } = await runIdempotent(
    runtime,
    ctx.workspaceId,
    request.idempotencyKey === undefined
      ? undefined
      : { key: request.idempotencyKey, operation: `sessions.withdraw ${sessionId}`, request: request.input ?? null },
    async (tx) => {
      const now = runtime.now();
      const { session } = await lockSession(tx, ctx.workspaceId, sessionId);
      const withdrawn = STORED_SESSION_MACHINE.next(session.state, 'withdrawn');
      // Withdrawn already: the same result again, without a write. Any other state the transition
      // table does not let withdraw (completed) is a refusal.
      if (withdrawn === undefined && session.state !== 'withdrawn') {
        throw new SessError('INVALID_STATE', `${sessionId} is already ${session.state}; there is nothing to withdraw.`, {
          state: session.state,
        });
      }
      const result: WithdrawnSession = {
        sessionId,
        kind: session.kind,
        state: 'withdrawn',
        revision: session.currentRevision,
        withdrawnAt: (session.withdrawnAt ?? now).toISOString(),
      };
      if (withdrawn === undefined) return { value: result };
      if (withdrawn !== 'withdrawn') throw new Error(`unreachable: withdrawing ${sessionId} leads to ${withdrawn}`);
      const last = closeSessionStatement({
        workspaceId: ctx.workspaceId,
        sessionId,
        state: withdrawn,
        at: now,
        revision: session.currentRevision,
      });
      return { value: result, last };
    },
  );
  return value;
}
