import type { StoredSessionState } from '@sess/contract';
import type { DecisionRule } from '@sess/core';
import type { ReceiptAssurance } from '@sess/receipts';
import type { AnswerValue, Surface } from '@sess/surface';

/** A session as the verbs see it (one row of `form_sessions`, dates as Date). */
export interface SessionRow {
  id: string;
  workspaceId: string;
  kind: 'interaction' | 'ask';
  state: StoredSessionState;
  currentRevision: number;
  lifetimeSeconds: number;
  extendable: boolean;
  createdAt: Date;
  expiresAt: Date;
  deadlineAt: Date;
  horizonAt: Date | null;
  closesAt: Date;
  completedAt: Date | null;
  withdrawnAt: Date | null;
  askMax: number | null;
  askName: boolean | null;
  askRespondentSeconds: number | null;
  askStarted: number;
  askAnswered: number;
  /** An Ask that decides: its rule and quorum as asked, the counts that decide, the counts so far and the outcome. */
  askDecide: DecisionRule | null;
  askQuorum: number | null;
  askApproveAt: number | null;
  askRejectAt: number | null;
  askApproved: number;
  askRejected: number;
  /** pending until decided; null for an Ask that only collects (and every interaction). */
  askDecision: 'pending' | 'approved' | 'rejected' | null;
  askDecidedAt: Date | null;
  /** The decision receipt, once signed (the first read after the decision). */
  askDecisionReceipt: string | null;
  /** An Ask's backup people (`respondents.escalate.to`) and when they may start. */
  askBackupUserIds: string[] | null;
  askEscalateAt: Date | null;
  /** Whether the person may answer inside the agent's chat (MCP Apps) as well as on the link. */
  answerInChat: boolean;
  /** How sure Sess must be of who answers (`link`, `account`, `passkey`), as created. */
  assurance: ReceiptAssurance;
  /** Above `link`: the accounts (user ids) the form is for; null at `link`. */
  forUserIds: string[] | null;
}

/** The Surface shown at one revision. */
export interface RevisionRow {
  revision: number;
  surface: Surface;
  surfaceSha256: string;
}

/** One accepted answer with its receipt. */
export interface AnswerRow {
  id: string;
  revision: number;
  respondentId: string | null;
  actionId: string;
  values: Record<string, AnswerValue>;
  answerSha256: string;
  receipt: string;
  answeredAt: Date;
  /** Which way the answer came: the link page or the form inside the agent's chat. */
  via: 'link' | 'chat';
  /** A chat answer's OAuth principal; null for a link answer. */
  viaPrincipalId: string | null;
  /** The assurance the answer was given at (`link` for every answer before levels existed). */
  assurance: ReceiptAssurance;
  /** Above `link`: the account that answered; null at `link` (nobody is known). */
  answeredByUserId: string | null;
}

/** An Ask respondent. */
export interface RespondentRow {
  id: string;
  name: string | null;
  startedAt: Date;
  expiresAt: Date;
  answeredAt: Date | null;
  /** A named respondent's account (`respondents.people`); null for an Ask anyone with the link answers. */
  userId: string | null;
}
