import type { AskDecision, AskView } from '@sess/contract';
import { askRespondents, formAnswers, formSessions } from '@sess/db';
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { askState } from '../model/derive-state.ts';
import { askNotFound } from '../model/errors.ts';
import { answerColumns } from '../model/queries.ts';
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
  const snapshot = await runtime.queries.sessionById(ctx.workspaceId, askId);
  if (snapshot?.session.kind !== 'ask') throw askNotFound(askId);
  const { revision } = snapshot;
  // The Ask's row and its answers in one statement (one snapshot): the counts and the decision
  // are always those of the answers returned with them.
  const rows = await runtime.database.db
    .select({ s: formSessions, a: answerColumns, name: askRespondents.name })
    .from(formSessions)
    .leftJoin(formAnswers, and(eq(formAnswers.sessionId, formSessions.id), isNotNull(formAnswers.respondentId)))
    .leftJoin(askRespondents, eq(askRespondents.id, formAnswers.respondentId))
    .where(and(eq(formSessions.id, askId), eq(formSessions.workspaceId, ctx.workspaceId)))
    .orderBy(asc(formAnswers.answeredAt), asc(formAnswers.id));
  const session = rows[0]?.s as SessionRow | undefined;
  if (!session) throw askNotFound(askId);
  const state = askState(session, runtime.now());
  const decision = decisionOf(session, state);
  return {
    askId,
    kind: 'ask',
    state,
    open: state === 'waiting',
    counts: { started: session.askStarted, answered: session.askAnswered, max: session.askMax ?? 0 },
    createdAt: session.createdAt.toISOString(),
    expiresAt: session.expiresAt.toISOString(),
    surfaceSha256: revision.surfaceSha256,
    answers: rows.flatMap(({ a, name }) =>
      a === null ? [] : [toAnswerView(a as AnswerRow, revision.surfaceSha256, session.askName ? (name ?? null) : undefined)],
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
