import { isSessError } from '@sess/core';
import { openLink, submitLinkAnswer } from '@sess/forms';
import type { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { PageEnv, PageKit } from '../page-kit.ts';
import { readPostedForm } from '../read-posted-form.ts';
import { pagePaths } from '../to-page-view.ts';

/** Largest form post: 24 fields of 4,000 characters, percent-encoded, fit with room to spare. */
export const PAGE_BODY_LIMIT_BYTES = 1024 * 1024;

const NOTICES = {
  changed: 'The form changed since you opened it. Nothing was sent: check it and answer again.',
  notSent: 'Your answer was not sent.',
} as const;

/**
 * `POST /s/:token`: the person's answer (CSRF token bound to link and revision), then a redirect
 * to the page; a refused answer re-renders the form with the person's values and inline errors.
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
      const result = await submitLinkAnswer(runtime, token, {
        revision,
        actionId: form.control.action,
        submitted: form.values,
      });
      if (result.ok) return c.redirect(pagePaths(token).page, 303);
      const view = await openLink(runtime, token);
      const page = kit.pageView(view, token);
      if (page.state !== 'open' || view.revision !== revision) return kit.sendPage(c, page, 409);
      return kit.sendPage(c, { ...page, posted: form.values, errors: result.errors }, 422);
    } catch (error) {
      if (!isSessError(error)) return kit.sendError(c, error);
      switch (error.code) {
        case 'ALREADY_ANSWERED':
          return kit.showCurrent(c, token, 409, { alreadyAnswered: true });
        case 'REVISION_MISMATCH':
          return kit.showCurrent(c, token, 409, { notice: NOTICES.changed });
        case 'LINK_CLOSED':
          return kit.showCurrent(c, token, 410, { notice: NOTICES.notSent });
        case 'INVALID_STATE':
          return kit.showCurrent(c, token, 409);
        default:
          return kit.sendError(c, error);
      }
    }
  });
}
