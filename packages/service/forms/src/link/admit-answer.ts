import { newId } from '@sess/core';
import { type AcceptedAnswer, type AnswerError, hashAnswer, type Surface, validateAnswer } from '@sess/surface';
import { signAnswerReceipt } from '../model/receipt.ts';
import type { FormsRuntime } from '../runtime/forms-runtime.ts';
import { type Answerer, type AnswerWay, respondentOf } from './answerer.ts';

export type { AnswerWay } from './answerer.ts';

/** What an answer is admitted against: the session and revision shown, and whose answer it is. */
export interface AnswerPlace {
  session: { id: string; workspaceId: string };
  revision: { surface: Surface; surfaceSha256: string };
  /** The revision's number the receipt pins (an Ask's page is always 1). */
  revisionNumber: number;
  /** The respondent of an Ask; left out for an interaction's one answer. */
  respondentId?: string;
}

/** The way of every answer posted on the link page. */
export const LINK_WAY: AnswerWay = Object.freeze({ via: 'link' });

/** The answer row's two columns for a way (`form_answers.via`, `via_principal_id`). */
export function wayColumns(way: AnswerWay): { via: 'link' | 'chat'; viaPrincipalId: string | null } {
  return way.via === 'chat' ? { via: 'chat', viaPrincipalId: way.principalId } : { via: 'link', viaPrincipalId: null };
}

/** The answer row's columns of who answered (`form_answers.assurance`, `answered_by_user_id`, and at `passkey` its proof). */
export function answererColumns(answerer: Answerer): {
  assurance: Answerer['assurance'];
  answeredByUserId: string | null;
  passkeyCredentialId: string | null;
  assertionSha256: string | null;
} {
  const passkey = answerer.assurance === 'passkey';
  return {
    assurance: answerer.assurance,
    answeredByUserId: answerer.userId,
    passkeyCredentialId: passkey ? answerer.credentialId : null,
    assertionSha256: passkey ? answerer.assertionSha256 : null,
  };
}

/**
 * An answer checked against the Surface shown, typed, and hashed as it will be stored and
 * signed: the one rule, for an answer about to be admitted and for the passkey ceremony's
 * binding (which must name the very hash the receipt will carry).
 */
export function checkAnswer(
  surface: Surface,
  input: { actionId?: string | undefined; submitted: Record<string, unknown> },
): { ok: true; answer: AcceptedAnswer; answerSha256: string } | { ok: false; errors: AnswerError[] } {
  const checked = validateAnswer(surface, { actionId: input.actionId, values: input.submitted });
  if (!checked.ok) return { ok: false, errors: checked.errors };
  const answer = { actionId: checked.actionId, values: checked.values };
  return { ok: true, answer, answerSha256: hashAnswer(answer) };
}

/** An answer ready to insert: its event id, the typed answer, its hash and its signed receipt. */
export interface AdmittedAnswer {
  eventId: string;
  answer: AcceptedAnswer;
  answerSha256: string;
  receipt: string;
}

/**
 * Admits a submitted answer: validates it against the Surface shown, hashes it and signs its
 * receipt, with the way it came and who answered (as `admitAnswerer` decided). Every way of answering a link (the page, the chat) goes through
 * here, so an answer is checked, hashed and signed by one rule. Writes nothing; the caller's
 * statement decides whether it goes in.
 */
export async function admitAnswer(
  runtime: FormsRuntime,
  place: AnswerPlace,
  input: { actionId?: string | undefined; submitted: Record<string, unknown> },
  now: Date,
  way: AnswerWay,
  answerer: Answerer,
): Promise<{ ok: true; admitted: AdmittedAnswer } | { ok: false; errors: AnswerError[] }> {
  const checked = checkAnswer(place.revision.surface, input);
  if (!checked.ok) return checked;

  const eventId = newId('answer');
  const { answer, answerSha256 } = checked;
  const receipt = await signAnswerReceipt(runtime, {
    workspaceId: place.session.workspaceId,
    sessionId: place.session.id,
    revision: place.revisionNumber,
    eventId,
    surfaceSha256: place.revision.surfaceSha256,
    answerSha256,
    ...(place.respondentId !== undefined ? { respondentId: place.respondentId } : {}),
    ...(way.via === 'chat' ? { via: 'chat', viaPrincipalId: way.principalId } : { via: 'link' }),
    assurance: answerer.assurance,
    ...(answerer.userId !== null && answerer.assurance !== 'link'
      ? { respondent: respondentOf(runtime.secret, place.session.workspaceId, answerer.userId) }
      : {}),
    ...(answerer.assurance === 'passkey'
      ? { passkeyCredentialId: answerer.credentialId, assertionSha256: answerer.assertionSha256 }
      : {}),
    issuedAt: now,
  });
  return { ok: true, admitted: { eventId, answer, answerSha256, receipt } };
}
