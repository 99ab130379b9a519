import { hashSecret, hmacTag, safeEqual } from '@sess/core';
import { queryRows } from '@sess/db';
import { sql } from 'drizzle-orm';
import type { FormsRuntime } from '../runtime/forms-runtime.ts';
import type { AnswerGate } from './answerer.ts';

/*
 * Named respondents of an Ask (`respondents.people`): each named member has ONE page of the Ask,
 * its row carrying their account. Their page token is derived from the server secret and the
 * respondent's id, not drawn at random, so a person who comes back (another device, a cleared
 * cookie) is sent to the same page: Sess can give the token again without storing it. Only its
 * hash is stored, as for every link.
 */

/** The page token of a named respondent: `r` + 43 base64url characters, as every respondent token. */
export function namedRespondentTokenOf(secret: string, respondentId: string): string {
  return `r${hmacTag(secret, 'sess.named-respondent.v1', [respondentId])}`;
}

/**
 * Who may answer a respondent's page: a named respondent's page is for that one account (at the
 * Ask's level); any other page, as its Ask.
 */
export function respondentGate(session: AnswerGate, respondent: { userId?: string | null | undefined }): AnswerGate {
  if (respondent.userId == null || session.assurance === 'link')
    return { assurance: session.assurance, forUserIds: session.forUserIds };
  return { assurance: session.assurance, forUserIds: [respondent.userId] };
}

/**
 * The page token of `userId`'s page of the Ask `sessionId`, when they have started one (and its
 * stored hash is the derived token's: after a change of the server secret, starting again re-keys
 * it). Reads only.
 */
export async function namedRespondentToken(
  runtime: FormsRuntime,
  sessionId: string,
  userId: string,
): Promise<string | undefined> {
  const [row] = await queryRows<{ id: string; token_hash: string }>(
    runtime.database.db,
    sql`select id, token_hash from ask_respondents where session_id = ${sessionId} and user_id = ${userId}`,
  );
  if (!row) return undefined;
  const token = namedRespondentTokenOf(runtime.secret, row.id);
  return safeEqual(hashSecret(token), row.token_hash) ? token : undefined;
}
