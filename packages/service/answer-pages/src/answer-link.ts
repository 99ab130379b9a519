import { escapePointerToken, isSessError, SessError } from '@sess/core';
import { type AnswerWay, bindPasskeyAnswer, type LinkView, openLink, type PasskeyBinding, submitLinkAnswer } from '@sess/forms';
import type { AnswerErrorView } from '@sess/web';
import type { PageViewOptions } from './to-page-view.ts';

/*
 * What an answer to a link comes to, whichever way it came (the answer page's post, or the form
 * inside the agent's chat): one rule for what the person sees next, so the page and the chat can
 * never tell the same refusal differently. Renders nothing and knows no HTTP.
 */

const NOTICES = {
  changed: 'The form changed since you opened it. Nothing was sent: check it and answer again.',
  notSent: 'Your answer was not sent.',
} as const;

/** What the person is shown after an answer, and why it was refused (nothing was written then). */
export type LinkAnswerOutcome =
  /** Accepted: show the link's current state. */
  | { kind: 'accepted' }
  /** The person's mistakes: the form again, at the same revision, with their values and the errors. */
  | { kind: 'invalid'; view: LinkView; errors: AnswerErrorView[]; refused: SessError }
  /**
   * Not taken: the link's current state, with a notice, and the refusal's status (409, 410; 401
   * and 403 when the answerer may not answer this form: the page turns those into sign-in and
   * "for someone else", the chat shows the form with the refusal's message).
   */
  | { kind: 'current'; status: 401 | 403 | 409 | 410; options: Omit<PageViewOptions, 'link'>; refused: SessError };

/** The refusal of an answer with mistakes, as the tools say it: the first mistake, at its pointer. */
function invalidAnswer(errors: readonly AnswerErrorView[]): SessError {
  const first = errors[0];
  const field = first?.field ? `/values/${escapePointerToken(first.field)}` : '/action_id';
  return new SessError('INVALID_ARGUMENTS', first?.message ?? 'The answer was not accepted.', { field, errors });
}

type AnswerInput = { revision: number; actionId?: string | undefined; submitted: Record<string, unknown> };

/**
 * Submits `input` to the link of `token` the given way and says what the person sees next.
 * A failure that is not the person's (the database, a bug) is thrown.
 */
export async function answerLink(
  runtime: Parameters<typeof submitLinkAnswer>[0],
  token: string,
  input: AnswerInput,
  way: AnswerWay,
): Promise<LinkAnswerOutcome> {
  const settled = await settle(runtime, token, input, () => submitLinkAnswer(runtime, token, input, way));
  return 'kind' in settled ? settled : { kind: 'accepted' };
}

/**
 * The binding of a `passkey` form's answer by `userId` (forms' bindPasskeyAnswer: checked,
 * hashed, nothing written), or what the person sees instead: their mistakes, or the link's
 * state, by the same rule as an answer's.
 */
export async function bindPasskeyOutcome(
  runtime: Parameters<typeof submitLinkAnswer>[0],
  token: string,
  input: AnswerInput,
  userId: string,
): Promise<PasskeyBinding | Exclude<LinkAnswerOutcome, { kind: 'accepted' }>> {
  return settle<PasskeyBinding>(runtime, token, input, () => bindPasskeyAnswer(runtime, token, input, userId));
}

/** An attempt's success, or the outcome its refusal comes to (nothing was written then). */
async function settle<T extends { ok: true }>(
  runtime: Parameters<typeof submitLinkAnswer>[0],
  token: string,
  input: AnswerInput,
  attempt: () => Promise<T | { ok: false; errors: AnswerErrorView[] }>,
): Promise<T | Exclude<LinkAnswerOutcome, { kind: 'accepted' }>> {
  try {
    const result = await attempt();
    if (result.ok) return result as T;
    const view = await openLink(runtime, token);
    const refused = invalidAnswer(result.errors);
    if (view.state !== 'open' || view.revision !== input.revision) {
      return { kind: 'current', status: 409, options: {}, refused };
    }
    return { kind: 'invalid', view, errors: result.errors, refused };
  } catch (error) {
    if (!isSessError(error)) throw error;
    switch (error.code) {
      case 'ALREADY_ANSWERED':
        return { kind: 'current', status: 409, options: { alreadyAnswered: true }, refused: error };
      case 'REVISION_MISMATCH':
        return { kind: 'current', status: 409, options: { notice: NOTICES.changed }, refused: error };
      case 'LINK_CLOSED':
        return { kind: 'current', status: 410, options: { notice: NOTICES.notSent }, refused: error };
      case 'INVALID_STATE':
      case 'ANSWER_IN_CHAT_OFF':
        return { kind: 'current', status: 409, options: {}, refused: error };
      // Who may answer (forms' decideAnswerer): nothing was written; the message says what to do.
      case 'SIGN_IN_REQUIRED':
        return { kind: 'current', status: 401, options: { notice: error.message }, refused: error };
      case 'FORM_FOR_SOMEONE_ELSE':
      case 'ANSWERER_NOT_A_PERSON':
      case 'PASSKEY_REQUIRED':
        return { kind: 'current', status: 403, options: { notice: error.message }, refused: error };
      default:
        throw error;
    }
  }
}
