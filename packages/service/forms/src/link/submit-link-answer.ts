import { hashSecret, SessError } from '@sess/core';
import { type DbOrTx, queryRows } from '@sess/db';
import { type AnswerError, RESPONDENT_NAME_FIELD, resolveActions } from '@sess/surface';
import { sql } from 'drizzle-orm';
import { isDecided, linkState } from '../model/derive-state.ts';
import { alreadyAnswered, alreadyDecided, answerInChatOff, linkClosed, linkNotFound } from '../model/errors.ts';
import { classifyToken } from '../model/link-tokens.ts';
import type { SessionRow } from '../model/session-row.ts';
import { isoParam, stateAllows } from '../model/sql-values.ts';
import type { FormsRuntime } from '../runtime/forms-runtime.ts';
import { answerWrittenAtMs, FORM_EVENTS_CHANNEL } from '../waits/waiter-hub.ts';
import { type AnswerWay, admitAnswer, answererColumns, LINK_WAY, wayColumns } from './admit-answer.ts';
import { admitAnswerer } from './answerer.ts';
import { respondentGate } from './named-respondent.ts';

/** What the answer page posts. */
export interface SubmitLinkAnswerInput {
  /** The revision the page showed (a hidden field); an answer for an older one is refused. */
  revision: number;
  /** The button pressed (its action id); may be left out when the form has one button. */
  actionId?: string | undefined;
  /** Field name → value, as posted (strings, string lists) or JSON-typed. */
  submitted: Record<string, unknown>;
}

/** The outcome of a submit: accepted (with its event id) or the person's mistakes to show inline. */
export type SubmitLinkAnswerResult = { ok: true; eventId: string; revision: number } | { ok: false; errors: AnswerError[] };

/**
 * Records a person's answer to the link's current revision. The answer is checked with
 * `validateAnswer` against the Surface shown; if it fails, nothing is written and the errors
 * come back for the page. An accepted answer gets an event id and a signed receipt, and every
 * wait on the session is woken (NOTIFY in the same statement, delivered on commit).
 *
 * One answer per revision: the first accepted answer wins atomically (a unique index); a
 * concurrent or later second submit gets `ALREADY_ANSWERED`, whichever way each came (two tabs,
 * or the chat and the phone). For a respondent token, the answer completes that respondent's page.
 *
 * `way` says how it came and who is behind it: the link page (the default; with the signed-in
 * account, if any) or the form inside the agent's chat. Who may answer is `admitAnswerer`'s one
 * rule, checked before anything else about the answer: a form above `link` takes an answer only
 * from an account it is for, and records that account and the level. A
 * chat answer is admitted exactly like a page's (same validation, states, event id and race),
 * and only to a single person's form that allows it: an Ask (its shared link or a respondent's
 * page) and a form created with `answer_in_chat: false` refuse it before anything is written.
 *
 * @throws SessError `NOT_FOUND` (unknown token), `ALREADY_ANSWERED` (this revision, or an older
 * one the page still showed, has its answer), `LINK_CLOSED` with `details.state` (`lapsed`,
 * `expired`, `completed`, `withdrawn`), `REVISION_MISMATCH` (a revision the link never had),
 * `ANSWER_IN_CHAT_OFF` (a chat answer to an Ask or to a form that is answered on its link only),
 * and `admitAnswerer`'s refusals: `SIGN_IN_REQUIRED`, `FORM_FOR_SOMEONE_ELSE`,
 * `ANSWERER_NOT_A_PERSON`, `PASSKEY_REQUIRED`.
 */
export async function submitLinkAnswer(
  runtime: FormsRuntime,
  token: string,
  input: SubmitLinkAnswerInput,
  way: AnswerWay = LINK_WAY,
): Promise<SubmitLinkAnswerResult> {
  const kind = classifyToken(token);
  if (!kind) throw linkNotFound();
  if (kind === 'respondent') {
    // An Ask is answered on its own pages only: its link is for others.
    if (way.via === 'chat') throw answerInChatOff('ask');
    return submitRespondentAnswer(runtime, token, input, way);
  }
  return submitInteractionAnswer(runtime, token, input, way);
}

async function submitInteractionAnswer(
  runtime: FormsRuntime,
  token: string,
  input: SubmitLinkAnswerInput,
  way: AnswerWay,
): Promise<SubmitLinkAnswerResult> {
  const now = runtime.now();
  const snapshot = await runtime.queries.sessionByTokenHash(hashSecret(token));
  if (!snapshot) throw linkNotFound();
  const { session, revision } = snapshot;
  if (way.via === 'chat') checkChatAllowed(session);
  const answerer = admitAnswerer(session, way);
  if (session.kind === 'ask') {
    throw new SessError('INVALID_STATE', 'This is the shared link of an Ask: start your own page to answer.', { state: 'ask' });
  }
  checkRevisionOpen(session.currentRevision, input.revision, linkState(session, snapshot.answer !== null, now));

  const admission = await admitAnswer(runtime, { session, revision, revisionNumber: input.revision }, input, now, way, answerer);
  if (!admission.ok) return admission;
  const { eventId, answer, answerSha256, receipt } = admission.admitted;
  const { via, viaPrincipalId } = wayColumns(way);
  const { assurance, answeredByUserId, passkeyCredentialId, assertionSha256 } = answererColumns(answerer);
  const at = isoParam(now);
  // One statement: the guard (still open, still this revision, before the deadline), the insert
  // (first answer wins on the partial unique index) and the NOTIFY (sent only if a row went in),
  // in one of the workspace's write turns.
  const rows = await runtime.workspaceWrites.run(session.workspaceId, () =>
    queryRows<{ id: string }>(
      runtime.database.db,
      sql`with ins as (
          insert into form_answers
            (id, workspace_id, session_id, revision, respondent_id, action_id, values, answer_sha256, receipt, answered_at,
             via, via_principal_id, assurance, answered_by_user_id, passkey_credential_id, assertion_sha256)
          select ${eventId}, s.workspace_id, s.id, ${input.revision}, null, ${answer.actionId}, ${JSON.stringify(answer.values)}::jsonb,
                 ${answerSha256}, ${receipt}, ${at}::timestamptz, ${via}, ${viaPrincipalId}, ${assurance}, ${answeredByUserId},
                 ${passkeyCredentialId}, ${assertionSha256}
            from form_sessions s
           where s.id = ${session.id} and ${stateAllows('s.state', 'answered')} and s.current_revision = ${input.revision}
             and s.deadline_at > ${at}::timestamptz and (${via} = 'link' or s.answer_in_chat)
          on conflict (session_id, revision) where respondent_id is null do nothing
          returning id, session_id, revision)
        select id, pg_notify(${FORM_EVENTS_CHANNEL}, session_id || ' ' || revision || ' ' || ${answerWrittenAtMs()}) as notified from ins`,
    ),
  );
  if (rows.length === 1) {
    runtime.observer?.answered('interaction');
    return { ok: true, eventId, revision: input.revision };
  }

  // Nothing went in: find out why, from a fresh read.
  const fresh = await runtime.queries.sessionByTokenHash(hashSecret(token));
  if (!fresh) throw linkNotFound();
  if (way.via === 'chat') checkChatAllowed(fresh.session);
  checkRevisionOpen(
    fresh.session.currentRevision,
    input.revision,
    linkState(fresh.session, fresh.answer !== null, runtime.now()),
  );
  throw alreadyAnswered(input.revision);
}

/** Refuses a chat answer to an Ask or to a form answered on its link only (`answer_in_chat: false`). */
function checkChatAllowed(session: { kind: 'interaction' | 'ask'; answerInChat: boolean }): void {
  if (session.kind === 'ask') throw answerInChatOff('ask');
  if (!session.answerInChat) throw answerInChatOff('form');
}

/** Refuses an answer for a revision that is not the open current one. */
export function checkRevisionOpen(currentRevision: number, revision: number, state: string): void {
  if (!Number.isSafeInteger(revision) || revision < 1 || revision > currentRevision) {
    throw new SessError('REVISION_MISMATCH', `This link is at revision ${currentRevision}. Reload the page.`, {
      currentRevision,
    });
  }
  // An older revision was answered before the agent published the next one.
  if (revision < currentRevision || state === 'answered') throw alreadyAnswered(revision);
  if (state !== 'open') throw linkClosed(state);
}

async function submitRespondentAnswer(
  runtime: FormsRuntime,
  token: string,
  input: SubmitLinkAnswerInput,
  way: AnswerWay,
): Promise<SubmitLinkAnswerResult> {
  const now = runtime.now();
  const snapshot = await runtime.queries.respondentByTokenHash(hashSecret(token));
  if (!snapshot) throw linkNotFound();
  const { session, respondent, revision } = snapshot;
  // A named respondent's page is answered by that person alone.
  const answerer = admitAnswerer(respondentGate(session, respondent), way);
  checkRespondentOpen(snapshot.answer !== null, session.state, respondent.expiresAt, input.revision, now);

  const place = { session, revision, revisionNumber: 1, respondentId: respondent.id };
  const admission = await admitAnswer(runtime, place, input, now, way, answerer);
  if (!admission.ok) return admission;
  const { eventId, answer, answerSha256, receipt } = admission.admitted;
  const { assurance, answeredByUserId } = answererColumns(answerer);
  const name = session.askName ? String(answer.values[RESPONDENT_NAME_FIELD] ?? '') || null : null;
  const at = isoParam(now);
  // An Ask that decides counts Approve and Reject by the button's intent.
  const intent = resolveActions(revision.surface).find((action) => action.id === answer.actionId)?.intent;
  const approves = intent === 'approve' ? 1 : 0;
  const rejects = intent === 'reject' ? 1 : 0;
  const record = (db: DbOrTx) =>
    queryRows<{
      id: string;
      session_id: string;
      workspace_id: string;
      answered: number;
      max: number;
      decision: SessionRow['askDecision'];
    }>(
      db,
      // `ask` locks the Ask's row first and reads it as it is now (not as the statement's snapshot
      // saw it): answers to one Ask are accepted one at a time, so the cap, the counts and the
      // decision are exact, and an answer after the deciding one is refused (nothing is written).
      sql`with ask as (
          select s.id, s.state, s.ask_decision from form_sessions s
           where s.id = ${session.id}
             for update),
        ins as (
          insert into form_answers
            (id, workspace_id, session_id, revision, respondent_id, action_id, values, answer_sha256, receipt, answered_at,
             via, via_principal_id, assurance, answered_by_user_id)
          select ${eventId}, p.workspace_id, p.session_id, 1, p.id, ${answer.actionId}, ${JSON.stringify(answer.values)}::jsonb,
                 ${answerSha256}, ${receipt}, ${at}::timestamptz, 'link', null, ${assurance}, ${answeredByUserId}
            from ask_respondents p join ask s on s.id = p.session_id
           where p.id = ${respondent.id} and p.answered_at is null and p.expires_at > ${at}::timestamptz and ${stateAllows('s.state', 'answered')}
             and s.ask_decision is distinct from 'approved' and s.ask_decision is distinct from 'rejected'
          on conflict (respondent_id) where respondent_id is not null do nothing
          returning id, session_id, respondent_id, workspace_id),
        r as (update ask_respondents set answered_at = ${at}::timestamptz, name = ${name}
               where id in (select respondent_id from ins) returning id),
        c as (update form_sessions set ask_answered = ask_answered + 1,
                     ask_approved = ask_approved + ${approves}, ask_rejected = ask_rejected + ${rejects},
                     ask_decision = case when ask_decision is distinct from 'pending' then ask_decision
                                         when ask_approved + ${approves} >= ask_approve_at then 'approved'
                                         when ask_rejected + ${rejects} >= ask_reject_at then 'rejected'
                                         else 'pending' end,
                     ask_decided_at = case when ask_decision = 'pending'
                                            and (ask_approved + ${approves} >= ask_approve_at or ask_rejected + ${rejects} >= ask_reject_at)
                                           then ${at}::timestamptz else ask_decided_at end
               where id in (select session_id from ins) returning id, ask_answered, ask_max, ask_decision)
        select ins.id, ins.session_id, ins.workspace_id, pg_notify(${FORM_EVENTS_CHANNEL}, ins.session_id || ' 1 ' || ${answerWrittenAtMs()}) as notified,
               (select count(*) from r) as r, c.ask_answered as answered, c.ask_max as max, c.ask_decision as decision
          from ins join c on c.id = ins.session_id`,
    );
  const hook = runtime.onAskAnswer;
  // With a hook, the answer and what the hook writes commit together; without one, one statement.
  const rows = await runtime.workspaceWrites.run(session.workspaceId, () =>
    hook
      ? runtime.database.db.transaction(async (tx) => {
          const written = await record(tx);
          const row = written[0];
          if (row) {
            const answered = Number(row.answered);
            const max = Number(row.max);
            const decided = isDecided(row.decision);
            await hook(tx, {
              sessionId: row.session_id,
              workspaceId: row.workspace_id,
              answered,
              max,
              closed: answered >= max || decided,
            });
          }
          return written;
        })
      : record(runtime.database.db),
  );
  if (rows.length === 1) {
    runtime.observer?.answered('ask');
    return { ok: true, eventId, revision: 1 };
  }

  const fresh = await runtime.queries.respondentByTokenHash(hashSecret(token));
  if (!fresh) throw linkNotFound();
  checkRespondentOpen(fresh.answer !== null, fresh.session.state, fresh.respondent.expiresAt, input.revision, runtime.now());
  const decision = fresh.session.askDecision;
  if (isDecided(decision)) throw alreadyDecided(decision);
  throw alreadyAnswered(1);
}

function checkRespondentOpen(answered: boolean, state: string, expiresAt: Date, revision: number, now: Date): void {
  if (revision !== 1)
    throw new SessError('REVISION_MISMATCH', 'This page is at revision 1. Reload the page.', { currentRevision: 1 });
  if (answered) throw alreadyAnswered(1);
  if (state === 'withdrawn') throw linkClosed('withdrawn');
  if (state !== 'open' || now.getTime() >= expiresAt.getTime()) throw linkClosed('expired');
}
