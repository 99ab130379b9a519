import type { AnswerView, SessionView } from '@sess/contract';
import type { ReceiptAssurance } from '@sess/receipts';
import type { AnswerValue, Surface } from '@sess/surface';
import { respondentGate } from '../link/named-respondent.ts';
import { askStarters } from './ask-starters.ts';
import { askState, isDecided, type LinkState, linkState, sessionState } from './derive-state.ts';
import type { AnswerRow, RevisionRow, SessionRow } from './session-row.ts';

/** An accepted answer and an interaction as the agent reads them: @sess/contract's `/v1` views. */
export type { AnswerView, SessionView };

/**
 * The receipt's `respondent` claim of an answer above `link`: read back from the receipt this
 * server signed into the same row (the answer view says what its receipt signs; an agent takes it
 * from the receipt it verifies anyway).
 */
function respondentOfReceipt(receipt: string): string | undefined {
  try {
    const claims: unknown = JSON.parse(Buffer.from(receipt.split('.')[1] ?? '', 'base64url').toString('utf8'));
    const respondent = (claims as { respondent?: unknown } | null)?.respondent;
    return typeof respondent === 'string' ? respondent : undefined;
  } catch {
    return undefined;
  }
}

export function toAnswerView(answer: AnswerRow, surfaceSha256: string, respondentName?: string | null): AnswerView {
  const view: AnswerView = {
    eventId: answer.id,
    revision: answer.revision,
    actionId: answer.actionId,
    values: answer.values,
    answeredAt: answer.answeredAt.toISOString(),
    surfaceSha256,
    answerSha256: answer.answerSha256,
    receipt: answer.receipt,
    via: answer.via,
    assurance: answer.assurance,
  };
  if (answer.viaPrincipalId !== null) view.viaPrincipalId = answer.viaPrincipalId;
  const respondent = answer.assurance === 'link' ? undefined : respondentOfReceipt(answer.receipt);
  if (respondent !== undefined) view.respondent = respondent;
  if (answer.respondentId) {
    view.respondentId = answer.respondentId;
    if (respondentName !== undefined) view.respondentName = respondentName;
  }
  return view;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toSessionView(
  session: SessionRow,
  current: { revision: Pick<RevisionRow, 'surfaceSha256'>; answer: AnswerRow | null },
  now: Date,
  response?: AnswerView | null,
): SessionView {
  return {
    sessionId: session.id,
    kind: 'interaction',
    revision: session.currentRevision,
    state: sessionState(session, current.answer !== null, now),
    createdAt: session.createdAt.toISOString(),
    expiresAt: session.expiresAt.toISOString(),
    deadlineAt: session.deadlineAt.toISOString(),
    horizonAt: iso(session.horizonAt),
    extendable: session.extendable,
    surfaceSha256: current.revision.surfaceSha256,
    completedAt: iso(session.completedAt),
    withdrawnAt: iso(session.withdrawnAt),
    response:
      response !== undefined ? response : current.answer ? toAnswerView(current.answer, current.revision.surfaceSha256) : null,
  };
}

/** The answer a person already gave, as their page shows it. */
export interface LinkAnswer {
  eventId: string;
  actionId: string;
  values: Record<string, AnswerValue>;
  answeredAt: string;
  /**
   * The answer's signed receipt (compact JWS), for the person to keep. The link is the bearer
   * capability, and the receipt holds only ids and hashes of this one answer.
   */
  receipt: string;
  /** Which way it came: `link` (this page) or `chat` (the form inside the agent's chat). */
  via: 'link' | 'chat';
  /** A chat answer only: the OAuth principal whose connector carried it. */
  viaPrincipalId?: string;
  /** How sure Sess was of who answered: `link` (whoever held it), `account` (the signed-in account the form is for). */
  assurance: ReceiptAssurance;
}

/**
 * What the page behind `/s/<token>` shows. Three kinds:
 *
 * - `interaction`: one person's link. `state`:
 *   - `open`: show `surface`; the person may answer revision `revision`;
 *   - `answered`: the current revision has an answer (`answer`); "Sent — waiting for the next
 *     step" (follow it with `waitLink`; a publish moves to `open` at revision + 1);
 *   - `completed`: "Done" (the agent has the answer; `answer` is the last one);
 *   - `withdrawn`: the agent no longer needs an answer;
 *   - `lapsed`: past `deadlineAt` but `canExtend`: offer "Ask for more time" (`extendLink`);
 *   - `expired`: closed for good, nothing was answered.
 * - `ask`: the shared link of an Ask. `state` is `open` (anyone may start: `canStart`), `full`
 *   (every place is taken for now; places of people who let their page expire come back),
 *   `closed` (over: expired or `max` answered) or `withdrawn`. A person who may start gets their
 *   own page with `startRespondent` → redirect to `/s/<respondentToken>`.
 * - `respondent`: one person's page of an Ask, reached by its own token at the same `/s/`
 *   path. `state`: `open`, `completed` (their answer was accepted; `answer`), `expired` (their
 *   time or the Ask's ran out) or `withdrawn`.
 */
export type LinkView = InteractionLinkView | AskLinkView | RespondentLinkView;

interface LinkViewBase {
  sessionId: string;
  /** The form shown (for an Ask, the question every respondent answers). */
  surface: Surface;
  revision: number;
  /** When this link (or respondent page) stops taking answers, as created. */
  expiresAt: string;
  /** The current deadline (moves forward when the person asks for more time). */
  deadlineAt: string;
  /** How sure Sess must be of who answers: above `link` only an account of `forUserIds` answers (`decideAnswerer`). */
  assurance: ReceiptAssurance;
  /** The accounts (user ids) the form is for; null at `link`. Never shown on a page. */
  forUserIds: readonly string[] | null;
}

export interface InteractionLinkView extends LinkViewBase {
  kind: 'interaction';
  state: LinkState;
  /** True when the link may be extended at all (lifetime of 20 hours or less). */
  extendable: boolean;
  /** True when "Ask for more time" should be offered now (state `lapsed`). */
  canExtend: boolean;
  /** Extendable links: the latest possible deadline. */
  horizonAt: string | null;
  /** The answer to the current revision, if any. */
  answer: LinkAnswer | null;
  /** Whether the form may also be answered inside the agent's chat (`answer_in_chat`, set at create). */
  answerInChat: boolean;
}

export interface AskLinkView extends LinkViewBase {
  kind: 'ask';
  state: 'open' | 'full' | 'closed' | 'withdrawn';
  /** True when a new respondent may start now. */
  canStart: boolean;
  /** Whether respondents are asked for their name (the Surface carries the field). */
  askName: boolean;
  /** An Ask that decides, once decided (it is then `closed`): its outcome. */
  decided?: 'approved' | 'rejected';
}

export interface RespondentLinkView extends LinkViewBase {
  kind: 'respondent';
  respondentId: string;
  /** A decided Ask is `expired` for a page not yet answered (`decided` says why). */
  state: 'open' | 'completed' | 'expired' | 'withdrawn';
  answer: LinkAnswer | null;
  /** An Ask that decides, once decided: its outcome. */
  decided?: 'approved' | 'rejected';
}

/** `decided` of an Ask's views, once its decision is made. */
function decidedOf(session: SessionRow): { decided?: 'approved' | 'rejected' } {
  const decision = session.askDecision;
  return isDecided(decision) ? { decided: decision } : {};
}

export function toLinkAnswer(answer: AnswerRow): LinkAnswer {
  const view: LinkAnswer = {
    eventId: answer.id,
    actionId: answer.actionId,
    values: answer.values,
    answeredAt: answer.answeredAt.toISOString(),
    receipt: answer.receipt,
    via: answer.via,
    assurance: answer.assurance,
  };
  if (answer.viaPrincipalId !== null) view.viaPrincipalId = answer.viaPrincipalId;
  return view;
}

export function toInteractionLinkView(
  session: SessionRow,
  revision: RevisionRow,
  answer: AnswerRow | null,
  now: Date,
): InteractionLinkView {
  const state = linkState(session, answer !== null, now);
  return {
    kind: 'interaction',
    sessionId: session.id,
    state,
    revision: session.currentRevision,
    surface: revision.surface,
    expiresAt: session.expiresAt.toISOString(),
    deadlineAt: session.deadlineAt.toISOString(),
    horizonAt: iso(session.horizonAt),
    extendable: session.extendable,
    canExtend: state === 'lapsed',
    answer: answer ? toLinkAnswer(answer) : null,
    answerInChat: session.answerInChat,
    assurance: session.assurance,
    forUserIds: session.forUserIds,
  };
}

/** Places taken in an Ask: answered, plus started pages still running (counted by the caller). */
export function toAskLinkView(session: SessionRow, revision: RevisionRow, activeStarted: number, now: Date): AskLinkView {
  const base = askState(session, now);
  const state: AskLinkView['state'] =
    base === 'withdrawn'
      ? 'withdrawn'
      : base === 'closed'
        ? 'closed'
        : session.askAnswered + activeStarted >= (session.askMax ?? 0)
          ? 'full'
          : 'open';
  return {
    kind: 'ask',
    sessionId: session.id,
    state,
    ...decidedOf(session),
    canStart: state === 'open',
    askName: session.askName === true,
    revision: 1,
    surface: revision.surface,
    expiresAt: session.expiresAt.toISOString(),
    deadlineAt: session.deadlineAt.toISOString(),
    assurance: session.assurance,
    forUserIds: askStarters(session, now),
  };
}

export function toRespondentLinkView(
  session: SessionRow,
  respondent: { id: string; expiresAt: Date; startedAt: Date; userId?: string | null },
  revision: RevisionRow,
  answer: AnswerRow | null,
  now: Date,
): RespondentLinkView {
  let state: RespondentLinkView['state'];
  if (answer) state = 'completed';
  else if (session.state === 'withdrawn') state = 'withdrawn';
  else if (now.getTime() >= respondent.expiresAt.getTime() || session.state !== 'open' || isDecided(session.askDecision))
    state = 'expired';
  else state = 'open';
  return {
    kind: 'respondent',
    sessionId: session.id,
    respondentId: respondent.id,
    state,
    ...decidedOf(session),
    revision: 1,
    surface: revision.surface,
    expiresAt: respondent.expiresAt.toISOString(),
    deadlineAt: respondent.expiresAt.toISOString(),
    answer: answer ? toLinkAnswer(answer) : null,
    // A named respondent's page is theirs alone.
    ...respondentGate(session, respondent),
  };
}
