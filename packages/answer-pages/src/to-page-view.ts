import type { LinkView } from '@sess/forms';
import type { AnswerPageView } from '@sess/web';
import type { PageCsrf } from './page-csrf.ts';

/** The page's own paths for a token (relative to the origin, so they follow PUBLIC_URL's host). */
export function pagePaths(token: string) {
  const page = `/s/${token}`;
  return { page, extend: `${page}/extend`, start: `${page}/start` };
}

function firstText(view: LinkView): string | undefined {
  const text = view.surface.source.components.find((component) => component.type === 'text');
  return text?.type === 'text' ? text.text : undefined;
}

/**
 * What the answer page shows for a link's current view: the form of an open link or
 * respondent page (with a CSRF token bound to link and revision), "waiting" for an answered
 * one, the closed pages, "Ask for more time" for a lapsed one, and an Ask's Start page.
 */
export function toPageView(view: LinkView, token: string, csrf: PageCsrf, now: Date, notice?: string): AnswerPageView {
  const paths = pagePaths(token);
  const title = view.surface.title;
  const open = (): AnswerPageView => ({
    state: 'open',
    surface: view.surface,
    revision: view.revision,
    form: { action: paths.page, csrf: csrf.issue('answer', token, view.revision) },
    expiresAt: new Date(view.deadlineAt),
    now,
    respondent: view.kind === 'respondent',
  });
  switch (view.kind) {
    case 'interaction':
      switch (view.state) {
        case 'open':
          return open();
        case 'answered':
          return { state: 'answered', title, revision: view.revision, pagePath: paths.page, notice };
        case 'lapsed':
          return {
            state: 'lapsed',
            title,
            notice,
            extend: view.canExtend ? { action: paths.extend, csrf: csrf.issue('extend', token, view.revision) } : undefined,
          };
        case 'completed':
        case 'withdrawn':
        case 'expired':
          return { state: view.state, title, notice };
      }
      break;
    case 'respondent':
      switch (view.state) {
        case 'open':
          return open();
        case 'completed':
        case 'withdrawn':
        case 'expired':
          return { state: view.state, title, notice };
      }
      break;
    case 'ask':
      switch (view.state) {
        case 'withdrawn':
          return { state: 'withdrawn', title, notice };
        case 'open':
        case 'full':
        case 'closed':
          return {
            state: 'ask',
            title,
            // sess_ask's `details` is the Surface's first text component: the landing shows it too.
            description: view.surface.description ?? firstText(view),
            notice,
            start: view.canStart ? { action: paths.start, csrf: csrf.issue('start', token, view.revision) } : undefined,
            closed: view.canStart ? undefined : view.state === 'full' ? 'full' : 'closed',
          };
      }
  }
}
