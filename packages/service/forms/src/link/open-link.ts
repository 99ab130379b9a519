import { hashSecret } from '@sess/core';
import { queryRows } from '@sess/db';
import { sql } from 'drizzle-orm';
import { linkNotFound } from '../model/errors.ts';
import { classifyToken } from '../model/link-tokens.ts';
import type { SessionSnapshot } from '../model/queries.ts';
import { isoParam } from '../model/sql-values.ts';
import { type LinkView, toAskLinkView, toInteractionLinkView, toRespondentLinkView } from '../model/views.ts';
import type { FormsRuntime } from '../runtime/forms-runtime.ts';

/** Started respondent pages of an Ask that still hold a place (not answered, not expired). */
export async function countActiveRespondents(runtime: FormsRuntime, sessionId: string, now: Date): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    runtime.database.db,
    sql`select count(*)::int as n from ask_respondents
        where session_id = ${sessionId} and answered_at is null and expires_at > ${isoParam(now)}::timestamptz`,
  );
  return Number(row?.n ?? 0);
}

/** Builds the view of a session link from its snapshot. */
export async function viewOfSession(runtime: FormsRuntime, snapshot: SessionSnapshot, now: Date): Promise<LinkView> {
  const { session, revision, answer } = snapshot;
  if (session.kind === 'ask') {
    const active = session.state === 'open' ? await countActiveRespondents(runtime, session.id, now) : 0;
    return toAskLinkView(session, revision, active, now);
  }
  return toInteractionLinkView(session, revision, answer, now);
}

/**
 * What the page at `/s/<token>` shows: the link's kind, state, current revision and Surface,
 * deadlines, and the answer of the current revision if any (see `LinkView`). One indexed
 * query (an Ask's shared link adds a count of running respondent pages). Expiry is computed
 * with the runtime's clock; nothing is written.
 * @throws SessError `NOT_FOUND` for a token that is unknown or malformed.
 */
export async function openLink(runtime: FormsRuntime, token: string): Promise<LinkView> {
  const kind = classifyToken(token);
  if (!kind) throw linkNotFound();
  const hash = hashSecret(token);
  const now = runtime.now();
  if (kind === 'respondent') {
    const snapshot = await runtime.queries.respondentByTokenHash(hash);
    if (!snapshot) throw linkNotFound();
    return toRespondentLinkView(snapshot.session, snapshot.respondent, snapshot.revision, snapshot.answer, now);
  }
  const snapshot = await runtime.queries.sessionByTokenHash(hash);
  if (!snapshot) throw linkNotFound();
  return viewOfSession(runtime, snapshot, now);
}
