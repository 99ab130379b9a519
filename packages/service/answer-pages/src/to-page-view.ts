import type { LinkAnswer, LinkView } from '@sess/forms';
import type { AnswerPageView, OwnAnswerView } from '@sess/web';
import type { PageCsrf } from './page-csrf.ts';

/** The page's own paths for a token (relative to the origin, so they follow the request's host). */
export function pagePaths(token: string) {
  const page = `/s/${token}`;
  return { page, extend: `${page}/extend`, start: `${page}/start`, receipt: `${page}/receipt` };
}

/** What the page says beside the link's state. */
export interface PageViewOptions {
  /** A line above the status (a refused post). */
  notice?: string | undefined;
  /** This browser's answer was refused because another one was sent first: said once, instead of "Sent". */
  alreadyAnswered?: boolean | undefined;
  /** The page's full link (the links' origin), for the QR code offered on a computer. */
  link?: string | undefined;
}

/**
 * The answer this page shows back to the person: an interaction's answer to its current
 * revision once sent (answered, completed), a respondent's own answer. Never anyone else's:
 * a respondent token reads only that respondent's answer.
 */
export function shownAnswer(view: LinkView): LinkAnswer | undefined {
  if (view.kind === 'interaction' && (view.state === 'answered' || view.state === 'completed')) return view.answer ?? undefined;
  if (view.kind === 'respondent' && view.state === 'completed') return view.answer ?? undefined;
  return undefined;
}

function ownAnswer(view: LinkView, token: string): OwnAnswerView | undefined {
  const answer = shownAnswer(view);
  if (!answer) return undefined;
  return {
    surface: view.surface,
    actionId: answer.actionId,
    values: answer.values,
    receiptPath: pagePaths(token).receipt,
    assurance: answer.assurance,
  };
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
export function toPageView(
  view: LinkView,
  token: string,
  csrf: PageCsrf,
  now: Date,
  options: PageViewOptions = {},
): AnswerPageView {
  const { notice, link } = options;
  const alreadyAnswered = options.alreadyAnswered === true ? true : undefined;
  const paths = pagePaths(token);
  const title = view.surface.title;
  // The language the agent wrote in, for the page's language and the `lang` of the agent's words.
  const locale = view.surface.locale;
  const answer = ownAnswer(view, token);
  const open = (): AnswerPageView => ({
    state: 'open',
    surface: view.surface,
    revision: view.revision,
    form: { action: paths.page, csrf: csrf.issue('answer', token, view.revision) },
    expiresAt: new Date(view.deadlineAt),
    now,
    respondent: view.kind === 'respondent',
    passkeyNext: view.assurance === 'passkey' ? true : undefined,
    link,
  });
  switch (view.kind) {
    case 'interaction':
      switch (view.state) {
        case 'open':
          return open();
        case 'answered':
          return {
            state: 'answered',
            title,
            locale,
            revision: view.revision,
            pagePath: paths.page,
            notice,
            answer,
            alreadyAnswered,
          };
        case 'lapsed':
          return {
            state: 'lapsed',
            title,
            locale,
            notice,
            extend: view.canExtend ? { action: paths.extend, csrf: csrf.issue('extend', token, view.revision) } : undefined,
          };
        case 'completed':
          return { state: 'completed', title, locale, notice, answer, alreadyAnswered };
        case 'withdrawn':
        case 'expired':
          return { state: view.state, title, locale, notice };
      }
      break;
    case 'respondent':
      switch (view.state) {
        case 'open':
          return open();
        case 'completed':
          return { state: 'completed', title, locale, notice, answer, alreadyAnswered, decided: view.decided };
        case 'withdrawn':
        case 'expired':
          return { state: view.state, title, locale, notice, decided: view.decided };
      }
      break;
    case 'ask':
      switch (view.state) {
        case 'withdrawn':
          return { state: 'withdrawn', title, locale, notice };
        case 'open':
        case 'full':
        case 'closed':
          return {
            state: 'ask',
            title,
            locale,
            // sess_ask's `details` is the Surface's first text component: the landing shows it too.
            description: view.surface.description ?? firstText(view),
            notice,
            start: view.canStart ? { action: paths.start, csrf: csrf.issue('start', token, view.revision) } : undefined,
            closed: view.canStart ? undefined : view.state === 'full' ? 'full' : 'closed',
            decided: view.decided,
            pagePath: paths.page,
            link,
          };
      }
  }
}
