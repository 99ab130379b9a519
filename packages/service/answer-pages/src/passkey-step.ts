import type { PasskeyBinding } from '@sess/forms';
import { PASSKEY_PATHS } from '@sess/web';
import { answerLink, bindPasskeyOutcome } from './answer-link.ts';
import type { PagePasskeys } from './answerer-gate.ts';
import type { PageContext, PageKit } from './page-kit.ts';
import type { PostedForm } from './read-posted-form.ts';
import { sendOutcome } from './send-outcome.ts';
import { pagePaths } from './to-page-view.ts';

/*
 * The answer page's passkey step, for a `passkey` form answered by its own signed-in account.
 * The post of the form writes nothing: its answer is checked and hashed as it would be stored
 * (forms' bindPasskeyAnswer), a ceremony is started bound to "<sessionId> <revision>
 * <answerSha256>", and the confirm step is shown with the same values hidden. Its post carries
 * the assertion: the answer is checked and hashed again, the assertion verified for that account
 * and binding, and only then is the answer admitted (forms' one rule, with the passkey's proof).
 * A refused assertion shows the confirm step again with why; nothing is written.
 */

/** What a post answers: its revision, button and values. */
type PostedAnswer = Parameters<typeof answerLink>[2];

/** The first post of a `passkey` form by its account: the confirm step (or why not). */
export async function askForPasskey(
  c: PageContext,
  kit: PageKit,
  token: string,
  form: PostedForm,
  input: PostedAnswer,
  userId: string,
  passkeys: PagePasskeys,
): Promise<Response> {
  const bound = await bindPasskeyOutcome(kit.runtime, token, input, userId);
  if (!('ok' in bound)) return sendOutcome(c, kit, token, form, bound);
  return showConfirm(c, kit, token, form, bound, userId, passkeys);
}

/** The confirm step's post: the assertion verified for this very answer, then the answer admitted. */
export async function answerWithPasskey(
  c: PageContext,
  kit: PageKit,
  token: string,
  form: PostedForm,
  input: PostedAnswer,
  userId: string,
  passkeys: PagePasskeys,
): Promise<Response> {
  const bound = await bindPasskeyOutcome(kit.runtime, token, input, userId);
  if (!('ok' in bound)) return sendOutcome(c, kit, token, form, bound);
  const verified = await passkeys.verify(userId, bound.boundTo, parseAssertion(form.control.passkey));
  if (!verified.ok) {
    // The reason only: never the credential, the challenge or the assertion.
    c.get('logger')?.info(
      { event: 'pages.passkey.refused', code: 'PASSKEY_REFUSED', reason: verified.reason },
      'passkey refused',
    );
    return showConfirm(c, kit, token, form, bound, userId, passkeys, verified.reason);
  }
  const passkey = { credentialId: verified.credentialId, assertionSha256: verified.assertionSha256 };
  const outcome = await answerLink(kit.runtime, token, input, { via: 'link', userId, passkey });
  return sendOutcome(c, kit, token, form, outcome);
}

/** The posted assertion's JSON; anything unreadable goes to the verifier as is, which refuses it (`malformed`). */
function parseAssertion(posted: string | undefined): unknown {
  try {
    return JSON.parse(posted ?? '');
  } catch {
    return null;
  }
}

/** The confirm step with a fresh ceremony for `bound` (403 with the `refusal` reason after one), or the add-a-passkey page. */
async function showConfirm(
  c: PageContext,
  kit: PageKit,
  token: string,
  form: PostedForm,
  bound: PasskeyBinding,
  userId: string,
  passkeys: PagePasskeys,
  refusal?: string,
): Promise<Response> {
  const options = await passkeys.start(userId, bound.boundTo);
  if (options === null) return kit.sendPage(c, { state: 'no_passkey', accountPath: PASSKEY_PATHS.page }, 403);
  const view = {
    state: 'passkey_confirm',
    surface: bound.surface,
    revision: Number(form.control.revision),
    form: { action: pagePaths(token).page, csrf: form.control.csrf ?? '' },
    answer: bound.answer,
    posted: form.values,
    actionId: form.control.action,
    options,
    refusal,
  } as const;
  return kit.sendPage(c, view, refusal === undefined ? 200 : 403);
}
