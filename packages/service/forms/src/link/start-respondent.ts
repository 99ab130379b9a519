import type { StoredSessionState } from '@sess/contract';
import { hashSecret, newId, SessError } from '@sess/core';
import { queryRows } from '@sess/db';
import { sql } from 'drizzle-orm';
import { askState } from '../model/derive-state.ts';
import { linkClosed, linkNotFound } from '../model/errors.ts';
import { classifyToken, newRespondentToken } from '../model/link-tokens.ts';
import { isoParam, toDate } from '../model/sql-values.ts';
import type { FormsRuntime } from '../runtime/forms-runtime.ts';
import { FORM_EVENTS_CHANNEL } from '../waits/waiter-hub.ts';

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
 * @throws SessError `NOT_FOUND` (unknown token or not an Ask link), `LINK_CLOSED` (the Ask is
 * closed or withdrawn), `ASK_FULL` (every place is taken right now).
 */
export async function startRespondent(runtime: FormsRuntime, askToken: string): Promise<StartedRespondent> {
  if (classifyToken(askToken) !== 'link') throw linkNotFound();
  const hash = hashSecret(askToken);
  const now = runtime.now();
  const at = isoParam(now);
  const respondentToken = newRespondentToken();
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
      ask_respondent_seconds: number | null;
      active: number;
    }>(
      tx,
      sql`select s.id, s.workspace_id, s.kind, s.state, s.closes_at, s.ask_max, s.ask_answered, s.ask_respondent_seconds,
                 (select count(*)::int from ask_respondents p
                   where p.session_id = s.id and p.answered_at is null and p.expires_at > ${at}::timestamptz) as active
            from form_sessions s
           where s.id = ${locked.id}`,
    );
    if (ask?.kind !== 'ask') throw linkNotFound();
    const closesAt = toDate(ask.closes_at);
    const state = askState({ state: ask.state, closesAt, askMax: ask.ask_max, askAnswered: ask.ask_answered }, now);
    if (state !== 'waiting') throw linkClosed(state === 'withdrawn' ? 'withdrawn' : 'closed');
    if (ask.ask_answered + Number(ask.active) >= ask.ask_max) {
      throw new SessError('ASK_FULL', 'Everyone this Ask was meant for has started answering. Try again later.', {
        max: ask.ask_max,
      });
    }
    const own = ask.ask_respondent_seconds ? now.getTime() + ask.ask_respondent_seconds * 1000 : Number.POSITIVE_INFINITY;
    const expiresAt = new Date(Math.min(own, closesAt.getTime()));
    await queryRows(
      tx,
      sql`with p as (
            insert into ask_respondents (id, workspace_id, session_id, token_hash, started_at, expires_at)
            values (${respondentId}, ${ask.workspace_id}, ${ask.id}, ${hashSecret(respondentToken)}, ${at}::timestamptz,
                    ${isoParam(expiresAt)}::timestamptz)
            returning session_id),
          s as (update form_sessions set ask_started = ask_started + 1 where id = ${ask.id} returning id)
          select pg_notify(${FORM_EVENTS_CHANNEL}, ${`${ask.id} 1`}) as notified, (select count(*) from s) as s from p`,
    );
    return { respondentToken, respondentId, expiresAt: expiresAt.toISOString() };
  });
}
