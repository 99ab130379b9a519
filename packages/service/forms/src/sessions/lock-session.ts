import type { StoredSessionState } from '@sess/contract';
import type { Tx } from '@sess/db';
import { queryRows } from '@sess/db';
import type { ReceiptAssurance } from '@sess/receipts';
import type { AnswerValue } from '@sess/surface';
import { sql } from 'drizzle-orm';
import { sessionNotFound } from '../model/errors.ts';
import type { AnswerRow, SessionRow } from '../model/session-row.ts';
import { toDate } from '../model/sql-values.ts';

interface RawLocked {
  id: string;
  workspace_id: string;
  kind: 'interaction' | 'ask';
  state: StoredSessionState;
  current_revision: number;
  lifetime_seconds: number;
  extendable: boolean;
  created_at: string;
  expires_at: string;
  deadline_at: string;
  horizon_at: string | null;
  closes_at: string;
  completed_at: string | null;
  withdrawn_at: string | null;
  ask_max: number | null;
  ask_name: boolean | null;
  ask_respondent_seconds: number | null;
  ask_started: number;
  ask_answered: number;
  ask_decide: SessionRow['askDecide'];
  ask_quorum: number | null;
  ask_approve_at: number | null;
  ask_reject_at: number | null;
  ask_approved: number;
  ask_rejected: number;
  ask_decision: SessionRow['askDecision'];
  ask_decided_at: string | null;
  ask_decision_receipt: string | null;
  ask_backup_user_ids: string[] | null;
  ask_escalate_at: string | null;
  answer_in_chat: boolean;
  assurance: ReceiptAssurance;
  for_user_ids: string[] | null;
  surface_sha256: string;
  a_id: string | null;
  a_action_id: string | null;
  a_values: Record<string, AnswerValue> | null;
  a_answer_sha256: string | null;
  a_receipt: string | null;
  a_answered_at: string | null;
  a_via: 'link' | 'chat' | null;
  a_via_principal_id: string | null;
  a_assurance: ReceiptAssurance | null;
  a_answered_by_user_id: string | null;
  [key: string]: unknown;
}

/** A session locked for a write, with its current revision's Surface hash and answer. */
export interface LockedSession {
  session: SessionRow;
  surfaceSha256: string;
  answer: AnswerRow | null;
}

/**
 * Locks one session of one workspace (`for update`) for the rest of the transaction, so
 * publish, complete and withdraw on the same session run one after another.
 * @throws SessError `NOT_FOUND` (also for another workspace's session).
 */
export async function lockSession(tx: Tx, workspaceId: string, sessionId: string): Promise<LockedSession> {
  const [raw] = await queryRows<RawLocked>(
    tx,
    sql`select s.id, s.workspace_id, s.kind, s.state, s.current_revision, s.lifetime_seconds, s.extendable,
               s.created_at, s.expires_at, s.deadline_at, s.horizon_at, s.closes_at, s.completed_at, s.withdrawn_at,
               s.ask_max, s.ask_name, s.ask_respondent_seconds, s.ask_started, s.ask_answered, s.answer_in_chat,
               s.ask_decide, s.ask_quorum, s.ask_approve_at, s.ask_reject_at, s.ask_approved, s.ask_rejected,
               s.ask_decision, s.ask_decided_at, s.ask_decision_receipt, s.ask_backup_user_ids, s.ask_escalate_at,
               s.assurance, s.for_user_ids,
               r.surface_sha256,
               a.id as a_id, a.action_id as a_action_id, a.values as a_values, a.answer_sha256 as a_answer_sha256,
               a.receipt as a_receipt, a.answered_at as a_answered_at, a.via as a_via, a.via_principal_id as a_via_principal_id,
               a.assurance as a_assurance, a.answered_by_user_id as a_answered_by_user_id
          from form_sessions s
          join form_revisions r on r.session_id = s.id and r.revision = s.current_revision
          left join form_answers a on a.session_id = s.id and a.revision = s.current_revision and a.respondent_id is null
         where s.id = ${sessionId} and s.workspace_id = ${workspaceId}
           for update of s`,
  );
  if (!raw) throw sessionNotFound(sessionId);
  const session: SessionRow = {
    id: raw.id,
    workspaceId: raw.workspace_id,
    kind: raw.kind,
    state: raw.state,
    currentRevision: raw.current_revision,
    lifetimeSeconds: raw.lifetime_seconds,
    extendable: raw.extendable,
    createdAt: toDate(raw.created_at),
    expiresAt: toDate(raw.expires_at),
    deadlineAt: toDate(raw.deadline_at),
    horizonAt: raw.horizon_at === null ? null : toDate(raw.horizon_at),
    closesAt: toDate(raw.closes_at),
    completedAt: raw.completed_at === null ? null : toDate(raw.completed_at),
    withdrawnAt: raw.withdrawn_at === null ? null : toDate(raw.withdrawn_at),
    askMax: raw.ask_max,
    askName: raw.ask_name,
    askRespondentSeconds: raw.ask_respondent_seconds,
    askStarted: raw.ask_started,
    askAnswered: raw.ask_answered,
    askDecide: raw.ask_decide,
    askQuorum: raw.ask_quorum,
    askApproveAt: raw.ask_approve_at,
    askRejectAt: raw.ask_reject_at,
    askApproved: raw.ask_approved,
    askRejected: raw.ask_rejected,
    askDecision: raw.ask_decision,
    askDecidedAt: raw.ask_decided_at === null ? null : toDate(raw.ask_decided_at),
    askDecisionReceipt: raw.ask_decision_receipt,
    askBackupUserIds: raw.ask_backup_user_ids,
    askEscalateAt: raw.ask_escalate_at === null ? null : toDate(raw.ask_escalate_at),
    answerInChat: raw.answer_in_chat,
    assurance: raw.assurance,
    forUserIds: raw.for_user_ids,
  };
  const answer: AnswerRow | null =
    raw.a_id === null
      ? null
      : {
          id: raw.a_id,
          revision: raw.current_revision,
          respondentId: null,
          actionId: raw.a_action_id ?? '',
          values: raw.a_values ?? {},
          answerSha256: raw.a_answer_sha256 ?? '',
          receipt: raw.a_receipt ?? '',
          answeredAt: toDate(raw.a_answered_at),
          via: raw.a_via ?? 'link',
          viaPrincipalId: raw.a_via_principal_id,
          assurance: raw.a_assurance ?? 'link',
          answeredByUserId: raw.a_answered_by_user_id,
        };
  return { session, surfaceSha256: raw.surface_sha256, answer };
}
