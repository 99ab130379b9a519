import { isSessError, type Logger } from '@sess/core';
import { isDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from '@sess/db';
import { errorPage } from '@sess/error-pages';
import {
  extendLink,
  type FormsRuntime,
  type LinkView,
  linkUrl,
  openLink,
  startRespondent,
  submitLinkAnswer,
  waitLink,
} from '@sess/forms';
import { type AnswerPageView, newNonce, pageHeaders, readCookieValues, renderAnswerPage, serializeCookie } from '@sess/web';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createPageCsrf, type PagePurpose } from './page-csrf.ts';
import { readPostedForm } from './read-posted-form.ts';
import { RECEIPT_CONTENT_TYPE, receiptDownload } from './receipt-download.ts';
import { type PageViewOptions, pagePaths, toPageView } from './to-page-view.ts';

/** How long one long-poll of the waiting page parks: under common proxy idle timeouts (30-60 s). */
export const PAGE_WAIT_MS = 25_000;
/** Largest form post: 24 fields of 4,000 characters, percent-encoded, fit with room to spare. */
export const PAGE_BODY_LIMIT_BYTES = 1024 * 1024;
/** The cookie that sends a browser back to its own respondent page of an Ask (scoped to that Ask's path). */
export const RESPONDENT_COOKIE = 'sess_respondent';

export interface PageRoutesDeps {
  runtime: FormsRuntime;
  /** The server secret; the CSRF key is derived from it. */
  secret: string;
  /** How long one wait request parks (tests shorten it). */
  waitMs?: number;
  /**
   * Whether a cookie set on a request's Host may be `Secure` (that origin is https). The pages
   * answer on PUBLIC_URL and on SESS_LINK_URL, which may differ in scheme; without it, PUBLIC_URL's.
   */
  secureCookieFor?: (host: string | undefined) => boolean;
}

interface PageEnv {
  Variables: { logger?: Logger; nonce: string };
}
type PageContext = Context<PageEnv>;

const WAIT_STATES = new Set(['open', 'answered', 'completed', 'withdrawn', 'lapsed', 'expired', 'full', 'closed']);

const NOTICES = {
  changed: 'The form changed since you opened it. Nothing was sent: check it and answer again.',
  notSent: 'Your answer was not sent.',
} as const;

/** Seconds a respondent cookie lives: until the respondent page ends, within the 400-day cookie cap. */
function cookieSeconds(expiresAt: Date, now: Date): number {
  return Math.max(1, Math.min(400 * 86_400, Math.floor((expiresAt.getTime() - now.getTime()) / 1000)));
}

/**
 * Every response of the human pages carries the page headers: a strict CSP with this
 * response's nonce, no framing, no referrer (the URL is a capability), no caching, no indexing.
 */
function withPageHeaders(): MiddlewareHandler<PageEnv> {
  return async function pageHeadersMiddleware(c, next) {
    const nonce = newNonce();
    c.set('nonce', nonce);
    await next();
    for (const [name, value] of Object.entries(pageHeaders({ nonce }))) c.res.headers.set(name, value);
  };
}

function sendPage(c: PageContext, view: AnswerPageView, status: 200 | 400 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 500) {
  return c.html(renderAnswerPage(view, c.get('nonce')), status);
}

/**
 * The human pages behind a link, for apps/server to mount:
 * - `GET /s/:token` shows the link's current state (form, waiting, done, withdrawn, lapsed,
 *   expired; an Ask's Start page);
 * - `POST /s/:token` answers (CSRF token bound to link and revision), then redirects to the page;
 *   a refused answer re-renders the form with the person's values and inline errors;
 * - `POST /s/:token/extend` asks for more time; `POST /s/:token/start` starts this browser's
 *   respondent page of an Ask;
 * - `GET /s/:token/wait?revision=N&state=S` long-polls (JSON) for the follow script of the
 *   form and the waiting page;
 * - `GET /s/:token/receipt` downloads the receipt of the answer the page shows (`.jws`).
 * Unknown tokens get a plain 404 page. Tokens never reach a log line: the app logs route patterns.
 */
export function createPageRoutes(deps: PageRoutesDeps): Hono<PageEnv> {
  const { runtime } = deps;
  const csrf = createPageCsrf(deps.secret);
  const waitMs = deps.waitMs ?? PAGE_WAIT_MS;
  const publicIsHttps = runtime.publicUrl.startsWith('https:');
  const secureCookieFor = deps.secureCookieFor ?? (() => publicIsHttps);
  const app = new Hono<PageEnv>();
  app.use('/s/*', withPageHeaders());

  /** The link's page: its own full link (on the links' origin, as the agent got it) goes into the QR code. */
  function pageView(view: LinkView, token: string, options: Omit<PageViewOptions, 'link'> = {}) {
    return toPageView(view, token, csrf, runtime.now(), { ...options, link: linkUrl(runtime.linkUrl, token) });
  }

  /** The current state of the link as a page, or the error's page. */
  async function showCurrent(
    c: PageContext,
    token: string,
    status: 200 | 409 | 410 | 422,
    options: Omit<PageViewOptions, 'link'> = {},
  ) {
    let view: LinkView;
    try {
      view = await openLink(runtime, token);
    } catch (error) {
      return sendError(c, error);
    }
    return sendPage(c, pageView(view, token, options), status);
  }

  /**
   * A thrown error as a page, by the one HTML error mapper (unknown links 404, a database out of
   * reach 503, characters it cannot store 400, the rest 500), in the answer page's own look for
   * 404 and 500. The log line gets the error's summary (the root logger's `err`), never its
   * message: a failed query's message lists its parameters, which on this route are answers.
   */
  function sendError(c: PageContext, error: unknown) {
    const token = c.req.param('token');
    return errorPage(error, {
      ...(token ? { backTo: pagePaths(token).page } : {}),
      render: {
        not_found: (nonce) => renderAnswerPage({ state: 'not_found' }, nonce),
        internal: (nonce) => renderAnswerPage({ state: 'unavailable' }, nonce),
      },
      nonce: c.get('nonce'),
      logger: c.get('logger'),
      event: 'pages',
    });
  }

  /** Refuses a post from another site, or one without this link's CSRF token for `purpose`. */
  function isForged(c: PageContext, purpose: PagePurpose, token: string, revision: number, presented: unknown): boolean {
    if (c.req.header('sec-fetch-site') === 'cross-site') return true;
    return !csrf.verify(purpose, token, revision, presented);
  }

  /** The respondent page this browser already has for this Ask, if it is still usable. */
  async function rememberedRespondent(c: PageContext, ask: LinkView): Promise<string | undefined> {
    const [remembered] = readCookieValues(c.req.header('cookie'), RESPONDENT_COOKIE);
    if (!remembered) return undefined;
    try {
      const own = await openLink(runtime, remembered);
      if (own.kind === 'respondent' && own.sessionId === ask.sessionId && own.state !== 'expired') return remembered;
    } catch (error) {
      if (!isSessError(error)) throw error;
    }
    return undefined;
  }

  app.get('/s/:token', async (c) => {
    const token = c.req.param('token');
    let view: LinkView;
    try {
      view = await openLink(runtime, token);
      if (view.kind === 'ask') {
        const own = await rememberedRespondent(c, view);
        if (own) return c.redirect(pagePaths(own).page, 303);
      }
    } catch (error) {
      return sendError(c, error);
    }
    return sendPage(c, pageView(view, token), 200);
  });

  // The receipt of the answer the page shows, as a file to keep. The link is the capability.
  app.get('/s/:token/receipt', async (c) => {
    const token = c.req.param('token');
    let download: ReturnType<typeof receiptDownload>;
    try {
      download = receiptDownload(await openLink(runtime, token));
    } catch (error) {
      return sendError(c, error);
    }
    // Nothing to download (yet, or any more): the page says where the link stands.
    if (!download) return c.redirect(pagePaths(token).page, 303);
    return c.body(download.body, 200, {
      'Content-Type': RECEIPT_CONTENT_TYPE,
      'Content-Disposition': `attachment; filename="${download.fileName}"`,
    });
  });

  app.post('/s/:token', bodyLimit({ maxSize: PAGE_BODY_LIMIT_BYTES, onError: (c) => tooLarge(c) }), async (c) => {
    const token = c.req.param('token');
    const form = await readPostedForm(c.req.raw);
    if (!form) return sendPage(c, { state: 'refused', pagePath: pagePaths(token).page }, 415);
    const revision = Number(form.control.revision);
    if (!Number.isSafeInteger(revision) || isForged(c, 'answer', token, revision, form.control.csrf)) {
      return sendPage(c, { state: 'refused', pagePath: pagePaths(token).page }, 403);
    }
    try {
      const result = await submitLinkAnswer(runtime, token, {
        revision,
        actionId: form.control.action,
        submitted: form.values,
      });
      if (result.ok) return c.redirect(pagePaths(token).page, 303);
      const view = await openLink(runtime, token);
      const page = pageView(view, token);
      if (page.state !== 'open' || view.revision !== revision) return sendPage(c, page, 409);
      return sendPage(c, { ...page, posted: form.values, errors: result.errors }, 422);
    } catch (error) {
      if (!isSessError(error)) return sendError(c, error);
      switch (error.code) {
        case 'ALREADY_ANSWERED':
          return showCurrent(c, token, 409, { alreadyAnswered: true });
        case 'REVISION_MISMATCH':
          return showCurrent(c, token, 409, { notice: NOTICES.changed });
        case 'LINK_CLOSED':
          return showCurrent(c, token, 410, { notice: NOTICES.notSent });
        case 'INVALID_STATE':
          return showCurrent(c, token, 409);
        default:
          return sendError(c, error);
      }
    }
  });

  app.post('/s/:token/extend', bodyLimit({ maxSize: 16 * 1024, onError: (c) => tooLarge(c) }), async (c) => {
    const token = c.req.param('token');
    const form = await readPostedForm(c.req.raw);
    try {
      const current = await openLink(runtime, token);
      if (!form || isForged(c, 'extend', token, current.revision, form.control.csrf)) {
        return sendPage(c, { state: 'refused', pagePath: pagePaths(token).page }, 403);
      }
      await extendLink(runtime, token);
      return c.redirect(pagePaths(token).page, 303);
    } catch (error) {
      if (isSessError(error) && error.code === 'LINK_CLOSED') return showCurrent(c, token, 410);
      return sendError(c, error);
    }
  });

  app.post('/s/:token/start', bodyLimit({ maxSize: 16 * 1024, onError: (c) => tooLarge(c) }), async (c) => {
    const token = c.req.param('token');
    const form = await readPostedForm(c.req.raw);
    try {
      const ask = await openLink(runtime, token);
      if (!form || isForged(c, 'start', token, ask.revision, form.control.csrf)) {
        return sendPage(c, { state: 'refused', pagePath: pagePaths(token).page }, 403);
      }
      // A double click or a second tab goes back to the page this browser already has.
      const own = await rememberedRespondent(c, ask);
      if (own) return c.redirect(pagePaths(own).page, 303);
      const started = await startRespondent(runtime, token);
      c.header(
        'Set-Cookie',
        serializeCookie(RESPONDENT_COOKIE, started.respondentToken, {
          path: pagePaths(token).page,
          secure: secureCookieFor(c.req.header('host')),
          maxAgeSeconds: cookieSeconds(new Date(started.expiresAt), runtime.now()),
        }),
        { append: true },
      );
      return c.redirect(pagePaths(started.respondentToken).page, 303);
    } catch (error) {
      // The Ask's page says every place is taken (or, if one just came back, offers Start again).
      if (isSessError(error) && error.code === 'ASK_FULL') return showCurrent(c, token, 409);
      if (isSessError(error) && (error.code === 'LINK_CLOSED' || error.code === 'INVALID_STATE'))
        return showCurrent(c, token, 410);
      return sendError(c, error);
    }
  });

  app.get('/s/:token/wait', async (c) => {
    const token = c.req.param('token');
    const revision = Number(c.req.query('revision'));
    const state = c.req.query('state');
    if (!Number.isSafeInteger(revision) || revision < 1 || (state !== undefined && !WAIT_STATES.has(state))) {
      return c.json(
        { error: { code: 'INVALID_ARGUMENTS', message: 'revision must be a whole number from 1.', retryable: false } },
        400,
      );
    }
    try {
      const view = await waitLink(runtime, token, {
        revision,
        state: state as LinkView['state'] | undefined,
        waitMs,
        signal: c.req.raw.signal,
      });
      return c.json({ state: view.state, revision: view.revision });
    } catch (error) {
      if (isSessError(error) && error.code === 'NOT_FOUND') {
        return c.json({ error: { code: 'NOT_FOUND', message: 'There is nothing at this address.', retryable: false } }, 404);
      }
      if (isDatabaseUnavailable(error)) {
        c.get('logger')?.warn({ event: 'pages.wait_unavailable', err: error }, 'answer page wait: database unavailable');
        return c.json({ error: { code: 'SESS_UNAVAILABLE', message: 'Try again in a moment.', retryable: true } }, 503, {
          'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS),
        });
      }
      c.get('logger')?.error({ event: 'pages.wait_error', err: error }, 'answer page wait failed');
      return c.json({ error: { code: 'INTERNAL', message: 'Try again in a moment.', retryable: true } }, 500);
    }
  });

  function tooLarge(c: PageContext) {
    // The rest of the body is not read: close the connection rather than reuse it.
    c.header('Connection', 'close');
    return sendPage(c, { state: 'too_large', pagePath: pagePaths(c.req.param('token') ?? '').page }, 413);
  }

  return app;
}
