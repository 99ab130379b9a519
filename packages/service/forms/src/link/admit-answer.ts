import { newId } from '@sess/core';
import { type AcceptedAnswer, type AnswerError, hashAnswer, type Surface, validateAnswer } from '@sess/surface';
import { signAnswerReceipt } from '../model/receipt.ts';
import type { FormsRuntime } from '../runtime/forms-runtime.ts';

/** What an answer is admitted against: the session and revision shown, and whose answer it is. */
export interface AnswerPlace {
  session: { id: string; workspaceId: string };
  revision: { surface: Surface; surfaceSha256: string };
  /** The revision's number the receipt pins (an Ask's page is always 1). */
  revisionNumber: number;
  /** The respondent of an Ask; left out for an interaction's one answer. */
  respondentId?: string;
}

/**
 * Which way an answer came: the link page, or the form inside the agent's chat (MCP Apps),
 * posted through the connector of OAuth principal `principalId`. Signed into the receipt and
 * stored with the answer.
 */
export type AnswerWay = { via: 'link' } | { via: 'chat'; principalId: string };

/** The way of every answer posted on the link page. */
export const LINK_WAY: AnswerWay = Object.freeze({ via: 'link' });

/** The answer row's two columns for a way (`form_answers.via`, `via_principal_id`). */
export function wayColumns(way: AnswerWay): { via: 'link' | 'chat'; viaPrincipalId: string | null } {
  return way.via === 'chat' ? { via: 'chat', viaPrincipalId: way.principalId } : { via: 'link', viaPrincipalId: null };
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
 * receipt, with the way it came. Every way of answering a link (the page, the chat) goes through
 * here, so an answer is checked, hashed and signed by one rule. Writes nothing; the caller's
 * statement decides whether it goes in.
 */
export async function admitAnswer(
  runtime: FormsRuntime,
  place: AnswerPlace,
  input: { actionId?: string | undefined; submitted: Record<string, unknown> },
  now: Date,
  way: AnswerWay,
): Promise<{ ok: true; admitted: AdmittedAnswer } | { ok: false; errors: AnswerError[] }> {
  const checked = validateAnswer(place.revision.surface, { actionId: input.actionId, values: input.submitted });
  if (!checked.ok) return { ok: false, errors: checked.errors };

  const eventId = newId('answer');
  const answer = { actionId: checked.actionId, values: checked.values };
  const answerSha256 = hashAnswer(answer);
  const receipt = await signAnswerReceipt(runtime, {
    workspaceId: place.session.workspaceId,
    sessionId: place.session.id,
    revision: place.revisionNumber,
    eventId,
    surfaceSha256: place.revision.surfaceSha256,
    answerSha256,
    ...(place.respondentId !== undefined ? { respondentId: place.respondentId } : {}),
    ...(way.via === 'chat' ? { via: 'chat', viaPrincipalId: way.principalId } : { via: 'link' }),
    issuedAt: now,
  });
  return { ok: true, admitted: { eventId, answer, answerSha256, receipt } };
}
