import { hmacTag, isId, SessError } from '@sess/core';
import type { ReceiptAssurance } from '@sess/receipts';

/*
 * May this answerer answer this form? The one rule, for every way an answer comes (the answer
 * page's post and the form inside the agent's chat) and for the page that decides whether to show
 * the form at all. A form at `link` is answered by whoever holds the link, as before; above it,
 * only an account the form is for (`form_sessions.for_user_ids`) answers, and the answer records
 * that account.
 */

/**
 * Which way an answer came, and who is behind it:
 * - `link`: the answer page; `userId` is the account whose browser session came with the post
 *   (left out when none did: the link alone), and `passkey` the answer ceremony that account
 *   passed for this very answer (verified by @sess/accounts' verifyAnswerAssertion against the
 *   binding `"<sessionId> <revision> <answerSha256>"`), when the page took one;
 * - `chat`: the form inside the agent's chat, posted through the connector of principal
 *   `principalId`. An OAuth principal is the person it was granted by (its id is their user
 *   id); a workspace API key's principal (`api_key:…`) is no person.
 */
export type AnswerWay =
  | { via: 'link'; userId?: string | undefined; passkey?: PasskeyProof | undefined }
  | { via: 'chat'; principalId: string };

/** A verified answer assertion: the passkey that signed, and the SHA-256 of the assertion (both go in the receipt). */
export interface PasskeyProof {
  credentialId: string;
  assertionSha256: string;
}

/** What a form asks of its answerer (`form_sessions.assurance`, `for_user_ids`). */
export interface AnswerGate {
  assurance: ReceiptAssurance;
  /** The accounts (user ids) the form is for; null or empty above `link` means nobody may answer. */
  forUserIds: readonly string[] | null;
}

/**
 * Who an admitted answer is recorded as: the level it meets, the account behind it (none at
 * `link`) and, at `passkey`, the ceremony's proof.
 */
export type Answerer =
  | { assurance: 'link' | 'account'; userId: string | null }
  | ({ assurance: 'passkey'; userId: string } & PasskeyProof);

/** The way's person, when Sess knows one: a signed-in browser's account, or an OAuth principal's. */
function personOf(way: AnswerWay): string | undefined {
  if (way.via === 'link') return way.userId;
  return isId('user', way.principalId) ? way.principalId : undefined;
}

/**
 * Decides whether `way` may answer `form`, and as whom. Never writes. The refusals, each with
 * its own code (docs/errors.md): `SIGN_IN_REQUIRED` (the page without a signed-in account),
 * `ANSWERER_NOT_A_PERSON` (a chat answer through an API key), `FORM_FOR_SOMEONE_ELSE` (an
 * account the form is not for), `PASSKEY_REQUIRED` (a `passkey` form answered by its account
 * without a verified answer ceremony: the page then asks for one; the chat cannot run one, so it
 * is told to open the link).
 */
export function decideAnswerer(
  form: AnswerGate,
  way: AnswerWay,
): { ok: true; answerer: Answerer } | { ok: false; refusal: SessError } {
  if (form.assurance === 'link') return { ok: true, answerer: { assurance: 'link', userId: null } };
  const userId = personOf(way);
  if (userId === undefined) {
    const refusal =
      way.via === 'chat'
        ? new SessError(
            'ANSWERER_NOT_A_PERSON',
            'This form must be answered by the person it is for, signed in; an API key cannot answer it. Open its link to answer.',
            { assurance: form.assurance },
          )
        : new SessError('SIGN_IN_REQUIRED', 'Sign in to Sess as the person this form is for to answer it.', {
            assurance: form.assurance,
          });
    return { ok: false, refusal };
  }
  if (!(form.forUserIds ?? []).includes(userId)) {
    const refusal = new SessError(
      'FORM_FOR_SOMEONE_ELSE',
      'This form is for someone else: the account signed in is not the one it asks. Nothing was sent.',
      { assurance: form.assurance },
    );
    return { ok: false, refusal };
  }
  if (form.assurance === 'passkey') {
    if (way.via === 'link' && way.passkey) {
      const { credentialId, assertionSha256 } = way.passkey;
      return { ok: true, answerer: { assurance: 'passkey', userId, credentialId, assertionSha256 } };
    }
    const refusal = new SessError(
      'PASSKEY_REQUIRED',
      way.via === 'chat'
        ? 'This form must be confirmed with your passkey, which the chat cannot ask for. Open its link to answer.'
        : 'Confirm this answer with your passkey to send it.',
      { assurance: form.assurance },
    );
    return { ok: false, refusal };
  }
  return { ok: true, answerer: { assurance: 'account', userId } };
}

/** `decideAnswerer`, throwing its refusal. */
export function admitAnswerer(form: AnswerGate, way: AnswerWay): Answerer {
  const decided = decideAnswerer(form, way);
  if (!decided.ok) throw decided.refusal;
  return decided.answerer;
}

/**
 * The receipt's `respondent`: an opaque id of an account, stable within one workspace (the same
 * person answering twice is recognisably the same) and unrelated across workspaces (no verifier
 * can link a person between them), an HMAC under the server secret of workspace and user id.
 * Never the user id or the e-mail. It changes if the server secret does.
 */
export function respondentOf(secret: string, workspaceId: string, userId: string): string {
  return hmacTag(secret, 'sess.respondent.v1', [workspaceId, userId]);
}
