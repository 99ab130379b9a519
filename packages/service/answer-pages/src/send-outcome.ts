import type { LinkAnswerOutcome } from './answer-link.ts';
import { turnFor } from './answerer-gate.ts';
import type { PageContext, PageKit } from './page-kit.ts';
import type { PostedForm } from './read-posted-form.ts';
import { pagePaths } from './to-page-view.ts';

/**
 * What the browser gets for an answer's outcome: accepted, the page (303); the person's mistakes,
 * the form again with their values (422); refused, sign-in or "for someone else" when the
 * answerer may not answer, else the link's current state with its notice.
 */
export function sendOutcome(
  c: PageContext,
  kit: PageKit,
  token: string,
  form: PostedForm,
  outcome: LinkAnswerOutcome,
): Response | Promise<Response> {
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
      const turn = turnFor(outcome.refused, token, onLinkHost, kit.runtime.publicUrl);
      if (turn) return kit.turnAway(c, turn);
      return kit.showCurrent(c, token, outcome.status, outcome.options);
    }
  }
}
