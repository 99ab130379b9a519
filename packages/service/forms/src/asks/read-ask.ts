import type { AskDecision, AskView } from '@sess/contract';
import { askRespondents, formAnswers, formRevisions, formSessions, queryRows } from '@sess/db';
import { DECISION_ACTIONS } from '@sess/surface';
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import { askState } from '../model/derive-state.ts';
import { askNotFound } from '../model/errors.ts';
import { answerColumns } from '../model/queries.ts';
import { signDecisionReceipt } from '../model/receipt.ts';
import type { AnswerRow, SessionRow } from '../model/session-row.ts';
import { toAnswerView } from '../model/views.ts';
import type { WorkspaceContext } from '../sessions/context.ts';

/** An Ask as the agent reads it (@sess/contract's `AskViewSchema`). */
export type { AskView };

/**
 * Reads an Ask once (no waiting, as the seed's sess_response on an Ask): whether it is open,
 * its counts, and every answer with its receipt (bounded by `max` ≤ 1,000).
 * @throws SessError `NOT_FOUND` (unknown, another workspace's, or not an Ask).
 */
export async function readAsk({ ctx, askId }: { ctx: WorkspaceContext; askId: string }): Promise<AskView> {
  const { runtime } = ctx;
  // The Ask's row, its Surface hash and its answers in one statement (one snapshot): the counts
  // and the decision are always those of the answers returned with them.
  const rows = await runtime.database.db
    .select({ s: formSessions, surfaceSha256: formRevisions.surfaceSha256, a: answerColumns, name: askRespondents.name })
    .from(formSessions)
    .innerJoin(formRevisions, and(eq(formRevisions.sessionId, formSessions.id), eq(formRevisions.revision, 1)))
    .leftJoin(formAnswers, and(eq(formAnswers.sessionId, formSessions.id), isNotNull(formAnswers.respondentId)))
    .leftJoin(askRespondents, eq(askRespondents.id, formAnswers.respondentId))
    .where(and(eq(formSessions.id, askId), eq(formSessions.workspaceId, ctx.workspaceId)))
    .orderBy(asc(formAnswers.answeredAt), asc(formAnswers.id));
  const session = rows[0]?.s as SessionRow | undefined;
  if (session?.kind !== 'ask') throw askNotFound(askId);
  const revision = { surfaceSha256: rows[0]!.surfaceSha256 };
  const state = askState(session, runtime.now());
  const answers = rows.flatMap(({ a, name }) => (a === null ? [] : [{ answer: a as AnswerRow, name }]));
  const decision = decisionOf(session, state);
  if (decision && (decision.outcome === 'approved' || decision.outcome === 'rejected'))
    decision.receipt = session.askDecisionReceipt ?? (await signDecisionOnce(ctx, session, revision.surfaceSha256, answers));
  return {
    askId,
    kind: 'ask',
    state,
    open: state === 'waiting',
    counts: { started: session.askStarted, answered: session.askAnswered, max: session.askMax ?? 0 },
    createdAt: session.createdAt.toISOString(),
    expiresAt: session.expiresAt.toISOString(),
    surfaceSha256: revision.surfaceSha256,
    answers: answers.map(({ answer, name }) =>
      toAnswerView(answer, revision.surfaceSha256, session.askName ? (name ?? null) : undefined),
    ),
    ...(decision ? { decision } : {}),
    ...(session.askEscalateAt !== null && session.askBackupUserIds !== null
      ? {
          escalation: {
            at: session.askEscalateAt.toISOString(),
            backups: session.askBackupUserIds.length,
            escalated: runtime.now().getTime() >= session.askEscalateAt.getTime(),
          },
        }
      : {}),
  };
}

/**
 * The decision of an Ask made with `respondents.decide`: as the answers' statements counted it,
 * and `undecided` once the Ask can take no more answers without one (expired, withdrawn).
 */
export function decisionOf(session: SessionRow, state: AskView['state']): AskDecision | undefined {
  if (session.askDecide === null || session.askApproveAt === null || session.askRejectAt === null) return undefined;
  const stored = session.askDecision ?? 'pending';
  return {
    rule: session.askDecide,
    quorum: session.askQuorum,
    outcome: stored === 'pending' && state !== 'waiting' ? 'undecided' : stored,
    approved: session.askApproved,
    rejected: session.askRejected,
    approveAt: session.askApproveAt,
    rejectAt: session.askRejectAt,
    decidedAt: session.askDecidedAt?.toISOString() ?? null,
  };
}

/**
 * The decision receipt of a decided Ask, signed on its first read and kept: a decided Ask takes
 * no more answers, so the answers read with the decision are all it will ever count. Two first
 * reads at once keep the one stored first.
 */
async function signDecisionOnce(
  ctx: WorkspaceContext,
  session: SessionRow,
  surfaceSha256: string,
  answers: ReadonlyArray<{ answer: AnswerRow }>,
): Promise<string> {
  const { runtime } = ctx;
  const receipt = await signDecisionReceipt(runtime, {
    workspaceId: session.workspaceId,
    askId: session.id,
    surfaceSha256,
    rule: session.askDecide!,
    quorum: session.askQuorum,
    max: session.askMax ?? 0,
    outcome: session.askDecision as 'approved' | 'rejected',
    decidedAt: session.askDecidedAt!,
    answers: answers.map(({ answer }) => ({ eventId: answer.id, answerSha256: answer.answerSha256, intent: intentOf(answer) })),
    issuedAt: runtime.now(),
  });
  const [kept] = await queryRows<{ receipt: string }>(
    runtime.database.db,
    sql`with stored as (
          update form_sessions set ask_decision_receipt = ${receipt}
           where id = ${session.id} and workspace_id = ${session.workspaceId} and ask_decision_receipt is null
          returning ask_decision_receipt)
        select ask_decision_receipt as receipt from stored
        union all
        select ask_decision_receipt from form_sessions
         where id = ${session.id} and not exists (select 1 from stored)`,
  );
  return kept?.receipt ?? receipt;
}

/** The intent of a deciding Ask's answer: its button is one of DECISION_ACTIONS (the form has no other). */
function intentOf(answer: AnswerRow): 'approve' | 'reject' {
  const intent = DECISION_ACTIONS.find((action) => action.id === answer.actionId)?.intent;
  if (intent !== 'approve' && intent !== 'reject')
    throw new Error(`a deciding Ask's answer ${answer.id} has no Approve or Reject`);
  return intent;
}
