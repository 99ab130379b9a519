import { openLink } from '@sess/forms';
import { pageLanguage } from '@sess/web';
import type { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { answerLink } from '../answer-link.ts';
import { signedInWay } from '../answerer-gate.ts';
import type { PageEnv, PageKit } from '../page-kit.ts';
import { answerWithPasskey, askForPasskey } from '../passkey-step.ts';
import { readLocalNumbers, readPostedForm } from '../read-posted-form.ts';
import { sendOutcome } from '../send-outcome.ts';

/** Largest form post: 24 fields of 4,000 characters, percent-encoded, fit with room to spare. */
export const PAGE_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * `POST /s/:token`: the person's answer (CSRF token bound to link and revision), then a redirect
 * to the page; a refused answer re-renders the form with the person's values and inline errors.
 * The post carries the browser's signed-in account (if any), and forms decides whether it may
 * answer: a form above `link` posted without one goes to sign in, by another account gets "for
 * someone else" (403); either way nothing is written. A `passkey` form's own account gets the
 * confirm step instead (passkey-step.ts), whose post carries the passkey assertion.
 */
export function mountAnswer(app: Hono<PageEnv>, kit: PageKit): void {
  const { runtime } = kit;
  app.post('/s/:token', bodyLimit({ maxSize: PAGE_BODY_LIMIT_BYTES, onError: (c) => kit.tooLarge(c) }), async (c) => {
    const token = c.req.param('token');
    const form = await readPostedForm(c.req.raw);
    if (!form) return kit.refused(c, token, 415);
    const revision = Number(form.control.revision);
    if (!Number.isSafeInteger(revision) || kit.isForged(c, 'answer', token, revision, form.control.csrf)) {
      return kit.refused(c, token, 403);
    }
    try {
      // Numbers are read as the page's language writes them ("3,5" on a German page): the form's
      // fields say which values are numbers, the request (and the form's locale) which language.
      const current = await openLink(runtime, token);
      const language = pageLanguage(c.req.raw, { content: current.surface.locale });
      const submitted = readLocalNumbers(form.values, current.surface.source.components, language.messages.tag);
      const input = { revision, actionId: form.control.action, submitted };
      const way = await signedInWay(c, kit.accounts);
      const userId = way.via === 'link' ? way.userId : undefined;
      const passkeys = kit.accounts.passkeys;
      if (form.control.passkey !== undefined && userId !== undefined && passkeys) {
        return await answerWithPasskey(c, kit, token, form, input, userId, passkeys);
      }
      const outcome = await answerLink(runtime, token, input, way);
      if (outcome.kind === 'current' && outcome.refused.code === 'PASSKEY_REQUIRED' && userId !== undefined && passkeys) {
        return await askForPasskey(c, kit, token, form, input, userId, passkeys);
      }
      return await sendOutcome(c, kit, token, form, outcome);
    } catch (error) {
      return kit.sendError(c, error);
    }
  });
}
