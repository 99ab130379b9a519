import type { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { answerLink } from '../answer-link.ts';
import { signedInWay, turnFor } from '../answerer-gate.ts';
import type { PageEnv, PageKit } from '../page-kit.ts';
import { readPostedForm } from '../read-posted-form.ts';
import { pagePaths } from '../to-page-view.ts';

/** Largest form post: 24 fields of 4,000 characters, percent-encoded, fit with room to spare. */
export const PAGE_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * `POST /s/:token`: the person's answer (CSRF token bound to link and revision), then a redirect
 * to the page; a refused answer re-renders the form with the person's values and inline errors.
 * The post carries the browser's signed-in account (if any), and forms decides whether it may
 * answer: a form above `link` posted without one goes to sign in, by another account gets "for
 * someone else" (403); either way nothing is written.
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
      const input = { revision, actionId: form.control.action, submitted: form.values };
      const way = await signedInWay(c, kit.accounts);
      const outcome = await answerLink(runtime, token, input, way);
      switch (outcome.kind) {
        case 'accepted':
          return c.redirect(pagePaths(token).page, 303);
        case 'invalid': {
          const page = kit.pageView(outcome.view, token);
          if (page.state !== 'open') return kit.sendPage(c, page, 409);
          return kit.sendPage(c, { ...page, posted: form.values, errors: outcome.errors }, 422);
        }
        case 'current': {
          const onLinkHost = kit.accounts.isLinkHost(c.req.header('host'));
          const turn = turnFor(outcome.refused, token, onLinkHost, runtime.publicUrl);
          if (turn) return kit.turnAway(c, turn);
          return kit.showCurrent(c, token, outcome.status, outcome.options);
        }
      }
    } catch (error) {
      return kit.sendError(c, error);
    }
  });
}
