import type { StoredSessionState } from '@sess/contract';
import { hashSecret, newId, SessError, safeEqual } from '@sess/core';
import { queryRows, type Tx } from '@sess/db';
import type { ReceiptAssurance } from '@sess/receipts';
import { sql } from 'drizzle-orm';
import { askStarters } from '../model/ask-starters.ts';
import { askState, isDecided } from '../model/derive-state.ts';
import { alreadyDecided, linkClosed, linkNotFound } from '../model/errors.ts';
import { classifyToken, newRespondentToken } from '../model/link-tokens.ts';
import type { SessionRow } from '../model/session-row.ts';
import { isoParam, toDate } from '../model/sql-values.ts';
import type { FormsRuntime } from '../runtime/forms-runtime.ts';
import { FORM_EVENTS_CHANNEL } from '../waits/waiter-hub.ts';
import { admitAnswerer } from './answerer.ts';
import { namedRespondentTokenOf } from './named-respondent.ts';

/** A new respondent page of an Ask. */
export interface StartedRespondent {
  /** The respondent page's own token: send the browser to `/s/<respondentToken>` (the same page route). */
  respondentToken: string;
  respondentId: string;
  /** When this person's page stops taking answers. */
  expiresAt: string;
}

/**
 * Gives the person who opened an Ask's shared link their own respondent page. The cap is exact:
 * the Ask row is locked, the places taken (answered + started pages not yet expired) counted
 * and the respondent inserted in ONE transaction, so concurrent starts can never overshoot
 * `max`. A respondent page lasts `respondent_expires_in` from its start (or until the Ask's
 * deadline, whichever is first); an unanswered page that expires gives its place back.
 *
 * The page should remember the respondent token for this browser (e.g. a cookie scoped to the
 * Ask link) and send a returning browser back to it instead of starting another.
 *
 * An Ask with named respondents (above `link`) starts a page only for `userId`, the signed-in
 * account, when the Ask is for it; that page is theirs alone, one per person (a returning person
 * gets the same page and token back, whichever browser). `userId` is ignored for other Asks.
 * @throws SessError `NOT_FOUND` (unknown token or not an Ask link), `LINK_CLOSED` (the Ask is
 * closed or withdrawn), `ASK_FULL` (every place is taken right now), and for named respondents
 * `SIGN_IN_REQUIRED` or `FORM_FOR_SOMEONE_ELSE` (nothing written).
 */
export async function startRespondent(runtime: FormsRuntime, askToken: string, userId?: string): Promise<StartedRespondent> {
  if (classifyToken(askToken) !== 'link') throw linkNotFound();
  const hash = hashSecret(askToken);
  const now = runtime.now();
  const at = isoParam(now);
  const respondentId = newId('respondent');
  return runtime.database.db.transaction(async (tx) => {
    // Lock first, then read in a second statement: in READ COMMITTED a new statement takes a new
    // snapshot, so the count sees every start committed by whoever held the lock before us.
    const [locked] = await queryRows<{ id: string }>(
      tx,
      sql`select id from form_sessions where link_token_hash = ${hash} and kind = 'ask' for update`,
    );
    if (!locked) throw linkNotFound();
    const [ask] = await queryRows<{
      id: string;
      workspace_id: string;
      kind: string;
      state: StoredSessionState;
      closes_at: string;
      ask_max: number;
      ask_answered: number;
      ask_decision: SessionRow['askDecision'];
      ask_backup_user_ids: string[] | null;
      ask_escalate_at: string | null;
      ask_respondent_seconds: number | null;
      assurance: ReceiptAssurance;
      for_user_ids: string[] | null;
      active: number;
    }>(
      tx,
      sql`select s.id, s.workspace_id, s.kind, s.state, s.closes_at, s.ask_max, s.ask_answered, s.ask_decision, s.ask_backup_user_ids, s.ask_escalate_at,
                 s.ask_respondent_seconds,
                 s.assurance, s.for_user_ids,
                 (select count(*)::int from ask_respondents p
                   where p.session_id = s.id and p.answered_at is null and p.expires_at > ${at}::timestamptz) as active
            from form_sessions s
           where s.id = ${locked.id}`,
    );
    if (ask?.kind !== 'ask') throw linkNotFound();
    // Named respondents: only an account the Ask is for starts a page (the one rule; the answer
    // itself meets the Ask's full level), and a person who has one gets it back.
    const named = ask.assurance !== 'link';
    const person = named
      ? admitAnswerer(
          {
            assurance: 'account',
            forUserIds: askStarters(
              {
                forUserIds: ask.for_user_ids,
                askBackupUserIds: ask.ask_backup_user_ids,
                askEscalateAt: ask.ask_escalate_at === null ? null : toDate(ask.ask_escalate_at),
              },
              now,
            ),
          },
          { via: 'link', userId },
        ).userId
      : null;
    const closesAt = toDate(ask.closes_at);
    const own = ask.ask_respondent_seconds ? now.getTime() + ask.ask_respondent_seconds * 1000 : Number.POSITIVE_INFINITY;
    const expiresAt = new Date(Math.min(own, closesAt.getTime()));
    const state = askState(
      { state: ask.state, closesAt, askMax: ask.ask_max, askAnswered: ask.ask_answered, askDecision: ask.ask_decision },
      now,
    );
    if (person !== null) {
      const returning = await returningRespondent(runtime, tx, ask.id, person, { open: state === 'waiting', now, expiresAt });
      if (returning) return returning;
    }
    if (isDecided(ask.ask_decision)) throw alreadyDecided(ask.ask_decision);
    if (state !== 'waiting') throw linkClosed(state === 'withdrawn' ? 'withdrawn' : 'closed');
    if (ask.ask_answered + Number(ask.active) >= ask.ask_max) {
      throw new SessError('ASK_FULL', 'Everyone this Ask was meant for has started answering. Try again later.', {
        max: ask.ask_max,
      });
    }
    const respondentToken = person !== null ? namedRespondentTokenOf(runtime.secret, respondentId) : newRespondentToken();
    await queryRows(
      tx,
      sql`with p as (
            insert into ask_respondents (id, workspace_id, session_id, token_hash, started_at, expires_at, user_id)
            values (${respondentId}, ${ask.workspace_id}, ${ask.id}, ${hashSecret(respondentToken)}, ${at}::timestamptz,
                    ${isoParam(expiresAt)}::timestamptz, ${person})
            returning session_id),
          s as (update form_sessions set ask_started = ask_started + 1 where id = ${ask.id} returning id)
          select pg_notify(${FORM_EVENTS_CHANNEL}, ${`${ask.id} 1`}) as notified, (select count(*) from s) as s from p`,
    );
    return { respondentToken, respondentId, expiresAt: expiresAt.toISOString() };
  });
}

/**
 * A named person's page of the Ask, when they have one: sent back to it, never given a second
 * place. An unanswered page whose own time ran out while the Ask is still open runs again from
 * now (it held no place while lapsed, and the person is counted once). Its stored hash follows the
 * derived token (re-keyed after a change of the server secret). Runs under the Ask's row lock.
 */
async function returningRespondent(
  runtime: FormsRuntime,
  tx: Tx,
  sessionId: string,
  userId: string,
  at: { open: boolean; now: Date; expiresAt: Date },
): Promise<StartedRespondent | undefined> {
  const [row] = await queryRows<{ id: string; token_hash: string; expires_at: string; answered_at: string | null }>(
    tx,
    sql`select id, token_hash, expires_at, answered_at from ask_respondents where session_id = ${sessionId} and user_id = ${userId}`,
  );
  if (!row) return undefined;
  const token = namedRespondentTokenOf(runtime.secret, row.id);
  const lapsed = row.answered_at === null && toDate(row.expires_at).getTime() <= at.now.getTime() && at.open;
  const expiresAt = lapsed ? at.expiresAt : toDate(row.expires_at);
  const tokenHash = hashSecret(token);
  if (lapsed || !safeEqual(tokenHash, row.token_hash)) {
    await queryRows(
      tx,
      sql`update ask_respondents set token_hash = ${tokenHash}, expires_at = ${isoParam(expiresAt)}::timestamptz
           where id = ${row.id} returning id`,
    );
  }
  return { respondentToken: token, respondentId: row.id, expiresAt: expiresAt.toISOString() };
}
