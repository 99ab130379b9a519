import { isSessError, type Logger } from '@sess/core';
import { errorPage } from '@sess/error-pages';
import { type AnswerWay, type FormsRuntime, type LinkView, linkUrl, namedRespondentToken, openLink } from '@sess/forms';
import { type AnswerPageView, pageLanguage, readCookieValues, renderAnswerPage } from '@sess/web';
import type { Context } from 'hono';
import { type GateTurn, NO_ACCOUNTS, type PageAccounts } from './answerer-gate.ts';
import { createPageCsrf, type PageCsrf, type PagePurpose } from './page-csrf.ts';
import { type PageViewOptions, pagePaths, toPageView } from './to-page-view.ts';

/*
 * What every page route shares: rendering a link's state as a page, the one error page, the CSRF
 * check of a post, and the respondent page a browser already has. Built once per app by
 * createPageRoutes and handed to each route.
 */

/** The cookie that sends a browser back to its own respondent page of an Ask (scoped to that Ask's path). */
export const RESPONDENT_COOKIE = 'sess_respondent';

export interface PageEnv {
  Variables: { logger?: Logger; nonce: string };
}
export type PageContext = Context<PageEnv>;
export type PageStatus = 200 | 401 | 400 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 500;

export interface PageKit {
  runtime: FormsRuntime;
  /** Who is signed in on a browser, and which origin a request is on (answerer-gate.ts). */
  accounts: PageAccounts;
  /** A browser that may not answer a form above `link`: sent to sign in (or to PUBLIC_URL), or told it is someone else's (403). */
  turnAway(c: PageContext, turn: GateTurn): Response;
  sendPage(c: PageContext, view: AnswerPageView, status: PageStatus): Response;
  /** The link's page: its own full link (on the links' origin, as the agent got it) goes into the QR code. */
  pageView(view: LinkView, token: string, options?: Omit<PageViewOptions, 'link'>): AnswerPageView;
  /** The current state of the link as a page, or the error's page. */
  showCurrent(
    c: PageContext,
    token: string,
    status: 200 | 401 | 403 | 409 | 410 | 422,
    options?: Omit<PageViewOptions, 'link'>,
  ): Promise<Response>;
  /**
   * A thrown error as a page, by the one HTML error mapper (unknown links 404, a database out of
   * reach 503, characters it cannot store 400, the rest 500), in the answer page's own look for
   * 404 and 500. The log line gets the error's summary (the root logger's `err`), never its
   * message: a failed query's message lists its parameters, which on this route are answers.
   */
  sendError(c: PageContext, error: unknown): Response | Promise<Response>;
  /** Refuses a post from another site, or one without this link's CSRF token for `purpose`. */
  isForged(c: PageContext, purpose: PagePurpose, token: string, revision: number, presented: unknown): boolean;
  /** The refused-post page (403), back to the link's page. */
  refused(c: PageContext, token: string, status: 403 | 415): Response;
  /**
   * The respondent page this browser already has for this Ask, if it is still usable: for an Ask
   * with named respondents, the signed-in person's own page (`way`'s account), whichever browser;
   * otherwise the one this browser's cookie remembers.
   */
  rememberedRespondent(c: PageContext, ask: LinkView, way: AnswerWay): Promise<string | undefined>;
  /** A body past the route's limit: the page says so, and the connection is not reused. */
  tooLarge(c: PageContext): Response;
}

/** The language the agent wrote the page's form in, when its Surface says. */
function contentLocale(view: AnswerPageView): string | undefined {
  if ('surface' in view) return view.surface.locale;
  return 'locale' in view ? view.locale : undefined;
}

export function createPageKit(runtime: FormsRuntime, secret: string, accounts: PageAccounts = NO_ACCOUNTS): PageKit {
  const csrf: PageCsrf = createPageCsrf(secret);

  const kit: PageKit = {
    runtime,
    accounts,
    turnAway(c, turn) {
      if (turn.kind === 'redirect') return c.redirect(turn.location, 303);
      return kit.sendPage(c, { state: 'someone_else', accountPath: '/account' }, 403);
    },
    sendPage(c, view, status) {
      // The person's pick (?lang=, remembered) beats the form's language, which beats Accept-Language.
      const language = pageLanguage(c.req.raw, { content: contentLocale(view) });
      c.header('Content-Language', language.messages.tag);
      if (language.rememberCookie) c.header('Set-Cookie', language.rememberCookie, { append: true });
      return c.html(renderAnswerPage(view, c.get('nonce'), language.messages), status) as Response;
    },
    pageView: (view, token, options = {}) =>
      toPageView(view, token, csrf, runtime.now(), { ...options, link: linkUrl(runtime.linkUrl, token) }),
    async showCurrent(c, token, status, options = {}) {
      let view: LinkView;
      try {
        view = await openLink(runtime, token);
      } catch (error) {
        return kit.sendError(c, error);
      }
      return kit.sendPage(c, kit.pageView(view, token, options), status);
    },
    sendError(c, error) {
      const token = c.req.param('token');
      return errorPage(error, {
        ...(token ? { backTo: pagePaths(token).page } : {}),
        render: {
          not_found: (nonce) => renderAnswerPage({ state: 'not_found' }, nonce),
          internal: (nonce) => renderAnswerPage({ state: 'unavailable' }, nonce),
        },
        nonce: c.get('nonce'),
        request: c.req.raw,
        logger: c.get('logger'),
        event: 'pages',
      });
    },
    isForged(c, purpose, token, revision, presented) {
      if (c.req.header('sec-fetch-site') === 'cross-site') return true;
      return !csrf.verify(purpose, token, revision, presented);
    },
    refused: (c, token, status) => kit.sendPage(c, { state: 'refused', pagePath: pagePaths(token).page }, status),
    async rememberedRespondent(c, ask, way) {
      if (ask.assurance !== 'link') {
        const userId = way.via === 'link' ? way.userId : undefined;
        return userId === undefined ? undefined : namedRespondentToken(runtime, ask.sessionId, userId);
      }
      const [remembered] = readCookieValues(c.req.header('cookie'), RESPONDENT_COOKIE);
      if (!remembered) return undefined;
      try {
        const own = await openLink(runtime, remembered);
        if (own.kind === 'respondent' && own.sessionId === ask.sessionId && own.state !== 'expired') return remembered;
      } catch (error) {
        if (!isSessError(error)) throw error;
      }
      return undefined;
    },
    tooLarge(c) {
      // The rest of the body is not read: close the connection rather than reuse it.
      c.header('Connection', 'close');
      return kit.sendPage(c, { state: 'too_large', pagePath: pagePaths(c.req.param('token') ?? '').page }, 413);
    },
  };
  return kit;
}
