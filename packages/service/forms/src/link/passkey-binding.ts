import { hashSecret, SessError } from '@sess/core';
import type { AcceptedAnswer, AnswerError, Surface } from '@sess/surface';
import { linkState } from '../model/derive-state.ts';
import { linkNotFound } from '../model/errors.ts';
import { classifyToken } from '../model/link-tokens.ts';
import type { FormsRuntime } from '../runtime/forms-runtime.ts';
import { checkAnswer } from './admit-answer.ts';
import { decideAnswerer } from './answerer.ts';
import { checkRevisionOpen, type SubmitLinkAnswerInput } from './submit-link-answer.ts';

/** What a passkey answer ceremony is bound to: this answer of this revision of this form, and nothing else. */
export interface PasskeyBinding {
  ok: true;
  /** `"<sessionId> <revision> <answerSha256>"`: the string the challenge is issued for and checked against. */
  boundTo: string;
  /** The Surface the answer is to, and the answer as it will be stored (for the confirm step's summary). */
  surface: Surface;
  answer: AcceptedAnswer;
}

/**
 * The binding of a `passkey` form's answer, before anything is written: the same checks an
 * answer gets (the form is open at this revision, `userId` is an account it is for, the values
 * are valid) and the same hash the stored answer and its receipt will carry (admit-answer's
 * `checkAnswer`), so a ceremony for this binding approves exactly the answer that goes in.
 * Writes nothing. The person's mistakes come back as errors, like a submit's.
 *
 * @throws SessError as `submitLinkAnswer` would (`NOT_FOUND`, `LINK_CLOSED`, `ALREADY_ANSWERED`,
 * `REVISION_MISMATCH`, `FORM_FOR_SOMEONE_ELSE`, …); `INVALID_STATE` when the form does not
 * take a passkey (at `link` or `account` the answer goes in without one).
 */
export async function bindPasskeyAnswer(
  runtime: FormsRuntime,
  token: string,
  input: SubmitLinkAnswerInput,
  userId: string,
): Promise<PasskeyBinding | { ok: false; errors: AnswerError[] }> {
  // An Ask is never made at `passkey` (refused at create): a respondent page never needs one.
  const kind = classifyToken(token);
  if (!kind) throw linkNotFound();
  if (kind === 'respondent') throw notPasskeyForm();
  const snapshot = await runtime.queries.sessionByTokenHash(hashSecret(token));
  if (!snapshot) throw linkNotFound();
  const { session, revision } = snapshot;
  const decided = decideAnswerer(session, { via: 'link', userId });
  // The one rule: only the right account, lacking just the ceremony, gets one.
  if (decided.ok) throw notPasskeyForm();
  if (decided.refusal.code !== 'PASSKEY_REQUIRED') throw decided.refusal;
  if (session.kind === 'ask') throw notPasskeyForm();
  checkRevisionOpen(session.currentRevision, input.revision, linkState(session, snapshot.answer !== null, runtime.now()));
  const checked = checkAnswer(revision.surface, input);
  if (!checked.ok) return checked;
  return {
    ok: true,
    boundTo: `${session.id} ${input.revision} ${checked.answerSha256}`,
    surface: revision.surface,
    answer: checked.answer,
  };
}

function notPasskeyForm(): SessError {
  return new SessError('INVALID_STATE', 'This form is not answered with a passkey. Reload the page.', { state: 'no_passkey' });
}
