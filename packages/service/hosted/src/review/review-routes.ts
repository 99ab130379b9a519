import { accountPageLanguage, type BrowserSession, readBrowserSession } from '@sess/accounts';
import { checkCsrfToken, csrfToken, isSessError, type Logger } from '@sess/core';
import type { Db } from '@sess/db';
import { errorPage } from '@sess/error-pages';
import { readTimeline } from '@sess/events';
import { type FormsRuntime, withdrawSession } from '@sess/forms';
import {
  ACCOUNT_FORM_FIELDS,
  htmlPage,
  type Messages,
  type PageLanguage,
  RETIRE_PATH,
  REVIEW_FORM_FIELDS,
  REVIEW_PATH,
  type ReviewItemView,
  renderMessagePage,
  renderReviewPage,
  renderTimelinePage,
  seeOther,
} from '@sess/web';
import { type Context, type Handler, Hono } from 'hono';
import { eventLabel } from './event-label.ts';
import { findHandleForReview, type HandleForReview, listHandlesForReview, retireHandle } from './owner-review.ts';
import { findTimelineSubject, listRecentForms } from './timeline-access.ts';

/** The events a timeline page shows, at most (the rest are in /v1 and the export). */
const TIMELINE_PAGE_EVENTS = 200;

/** What these routes read from the context: the request's logger, set by the app's middleware. */
interface ReviewEnv {
  Variables: { logger: Logger };
}

const RETIRE_PURPOSE = 'mcp:retire';

export interface ReviewRoutesDeps {
  db: Db;
  runtime: FormsRuntime;
  secret: string;
  now: () => Date;
}

function message(language: PageLanguage, status: number, title: string, text: string): Response {
  const m = language.messages;
  return htmlPage(
    status,
    (nonce) =>
      renderMessagePage(
        { title, message: text, tone: 'error', link: { href: REVIEW_PATH, label: m.t('account.review.backToList') } },
        nonce,
      ),
    { language },
  );
}

const nothingToRetire = (language: PageLanguage) =>
  message(
    language,
    404,
    language.messages.t('account.review.nothingTitle'),
    language.messages.t('account.review.nothingMessage'),
  );

function explain(m: Messages, item: HandleForReview): string {
  if (item.state === 'create_unknown') return m.t('account.review.explain.createUnknown');
  switch (item.reason) {
    case 'mutation_rejected':
      return m.t('account.review.explain.mutationRejected');
    case 'verification_failed':
      return m.t('account.review.explain.verificationFailed');
    case 'moved_on':
      return m.t('account.review.explain.movedOn');
    default:
      return m.t('account.review.explain.other');
  }
}

/** What happened, and (the person may not remember where they answered) whether it was answered in the agent's chat. */
function explanation(m: Messages, item: HandleForReview): string {
  return m.t('account.review.explanation', { what: explain(m, item), via: item.answeredVia === 'chat' ? 'chat' : 'link' });
}

function toItemView(m: Messages, item: HandleForReview): ReviewItemView {
  return {
    handle: item.handle,
    title: item.title,
    workspaceName: item.workspaceName,
    state: item.state,
    explanation: explanation(m, item),
    ...(item.apiKey ? { apiKey: item.apiKey } : {}),
    ...(item.sessionId || item.askId ? { formId: (item.sessionId ?? item.askId) as string } : {}),
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}

/** A page, never JSON, when these routes fail: the one HTML error mapper (503 while the database is out of reach). */
function withFailurePage(handler: Handler<ReviewEnv>): Handler<ReviewEnv> {
  return async function reviewRoute(c, next) {
    try {
      return await handler(c, next);
    } catch (error) {
      return errorPage(error, { backTo: REVIEW_PATH, logger: c.get('logger'), event: 'mcp.review', request: c.req.raw });
    }
  };
}

/**
 * `/account/interactions`: the seed's "owner review" of MCP handles that no tool can move on
 * (`blocked`, `create_unknown`), for the person whose agents started them (and, for a handle
 * started with a workspace API key, which has no person, for that workspace's owners), with Retire. Retiring
 * withdraws the form (its link stops taking answers; a completed one stays completed) and ends
 * the handle `cancelled`, which frees its place under the 100-unfinished cap.
 */
export function createReviewRoutes(deps: ReviewRoutesDeps): Hono<ReviewEnv> {
  const app = new Hono<ReviewEnv>();
  const signIn = () => seeOther(`/signin?return_to=${encodeURIComponent(REVIEW_PATH)}`);
  const session = (c: Context<ReviewEnv>): Promise<BrowserSession | null> =>
    readBrowserSession(deps.db, c.req.header('cookie'), deps.now());

  app.get(
    REVIEW_PATH,
    withFailurePage(async (c) => {
      const browser = await session(c);
      if (!browser) return signIn();
      const language = await accountPageLanguage(deps.db, c.req.raw, browser);
      const m = language.messages;
      const [items, recent] = await Promise.all([
        listHandlesForReview(deps.db, browser.userId),
        listRecentForms(deps.db, browser.userId),
      ]);
      return htmlPage(
        200,
        (nonce) =>
          renderReviewPage(
            {
              email: browser.email,
              items: items.map((item) => toItemView(m, item)),
              recent: recent.map((form) => ({
                formId: form.sessionId,
                title: form.title,
                workspaceName: form.workspaceName,
                kind: form.kind,
                createdAt: form.createdAt,
              })),
              csrf: {
                retire: csrfToken(deps.secret, browser.sessionId, RETIRE_PURPOSE),
                signout: csrfToken(deps.secret, browser.sessionId, 'signout'),
              },
              ...(c.req.query('retired') === '1' ? { notice: m.t('account.review.retired') } : {}),
            },
            nonce,
          ),
        { language },
      );
    }),
  );

  // One form's timeline: what happened to it and when (never its answers).
  app.get(
    `${REVIEW_PATH}/:id`,
    withFailurePage(async (c) => {
      const browser = await session(c);
      if (!browser) return seeOther(`/signin?return_to=${encodeURIComponent(c.req.path)}`);
      const language = await accountPageLanguage(deps.db, c.req.raw, browser);
      const m = language.messages;
      const id = (c.req.param('id') ?? '').slice(0, 64);
      const subject = await findTimelineSubject(deps.db, browser.userId, id);
      if (!subject) return message(language, 404, m.t('account.review.noTimelineTitle'), m.t('account.review.noTimelineMessage'));
      const page = await readTimeline(
        deps.db,
        { workspaceId: subject.workspaceId, sessionId: subject.sessionId },
        { after: null, limit: TIMELINE_PAGE_EVENTS },
      );
      const events = page?.events ?? [];
      return htmlPage(
        200,
        (nonce) =>
          renderTimelinePage(
            {
              email: browser.email,
              title: subject.title,
              workspaceName: subject.workspaceName,
              kind: subject.kind,
              sessionId: subject.sessionId,
              entries: events.map((event) => ({ at: new Date(event.at), label: eventLabel(language.messages, event) })),
              more: page?.nextCursor !== null && page?.nextCursor !== undefined,
              csrf: { signout: csrfToken(deps.secret, browser.sessionId, 'signout') },
            },
            nonce,
          ),
        { language },
      );
    }),
  );

  app.post(
    RETIRE_PATH,
    withFailurePage(async (c) => {
      const form = new URLSearchParams(await c.req.text());
      const browser = await session(c);
      if (!browser) return signIn();
      // The answer to a post is about the review page: the picker's links lead there.
      const page = new Request(new URL(REVIEW_PATH, c.req.url), { headers: c.req.raw.headers });
      const language = await accountPageLanguage(deps.db, page, browser);
      const m = language.messages;
      if (!checkCsrfToken(deps.secret, browser.sessionId, RETIRE_PURPOSE, form.get(ACCOUNT_FORM_FIELDS.csrf))) {
        return message(language, 403, m.t('account.refused.title'), m.t('account.refused.message'));
      }
      const handle = (form.get(REVIEW_FORM_FIELDS.handle) ?? '').slice(0, 64);
      const item = await findHandleForReview(deps.db, browser.userId, handle);
      if (!item) return nothingToRetire(language);
      const sessionId = item.sessionId ?? item.askId;
      if (sessionId) {
        try {
          await withdrawSession({ ctx: { runtime: deps.runtime, workspaceId: item.workspaceId }, sessionId });
        } catch (error) {
          // A completed form keeps what was given; a form that no longer exists has no link to close.
          if (!isSessError(error) || (error.code !== 'INVALID_STATE' && error.code !== 'NOT_FOUND')) {
            c.get('logger').warn({ event: 'mcp.handle.retire_failed', handle, err: error }, 'withdraw failed');
            // The withdraw is idempotent and the handle is untouched: trying again is safe.
            return message(language, 503, m.t('account.review.notRetiredTitle'), m.t('account.review.notRetiredMessage'));
          }
        }
      }
      const retired = await retireHandle(deps.db, { userId: browser.userId, handle, now: deps.now() });
      if (!retired) return nothingToRetire(language);
      c.get('logger').info({ event: 'mcp.handle.retired', handle, state: item.state }, 'interaction retired by its owner');
      return seeOther(`${REVIEW_PATH}?retired=1`);
    }),
  );
  return app;
}
