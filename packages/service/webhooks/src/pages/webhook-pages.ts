import { accountPageLanguage, type BrowserSession, listWorkspacesForUser, readBrowserSession } from '@sess/accounts';
import { EVENT_TYPES } from '@sess/contract';
import { checkCsrfToken, csrfToken, isSessError, type Logger } from '@sess/core';
import { type Db, queryRows } from '@sess/db';
import { errorPage } from '@sess/error-pages';
import { htmlPage, type Messages, renderWebhooksPage, seeOther, WEBHOOKS_PATH, type WebhooksView } from '@sess/web';
import { sql } from 'drizzle-orm';
import { type Context, type Handler, Hono } from 'hono';
import type { WebhooksApi } from '../endpoints.ts';

/*
 * `/account/webhooks`: the same verbs as /v1/webhooks for the owners of a workspace, signed in
 * with their browser session: add (the secret shown once), send a test event, rotate (the new
 * secret shown once), remove, and each endpoint's delivery log.
 */

interface PagesEnv {
  Variables: { logger: Logger };
}

const CSRF_PURPOSE = 'webhooks';
/** Deliveries shown per endpoint on the page. */
const PAGE_LOG = 10;

export interface WebhookPagesDeps {
  db: Db;
  api: WebhooksApi;
  /** The server secret (CSRF tokens). */
  secret: string;
  now: () => Date;
}

function withFailurePage(handler: Handler<PagesEnv>): Handler<PagesEnv> {
  return async function webhooksPage(c, next) {
    try {
      return await handler(c, next);
    } catch (error) {
      return errorPage(error, { backTo: WEBHOOKS_PATH, logger: c.get('logger'), event: 'webhooks.page', request: c.req.raw });
    }
  };
}

export function createWebhookPages(deps: WebhookPagesDeps): Hono<PagesEnv> {
  const app = new Hono<PagesEnv>();
  const { api } = deps;
  const signIn = () => seeOther(`/signin?return_to=${encodeURIComponent(WEBHOOKS_PATH)}`);
  const session = (c: Context<PagesEnv>): Promise<BrowserSession | null> =>
    readBrowserSession(deps.db, c.req.header('cookie'), deps.now());
  const owned = async (userId: string) => (await listWorkspacesForUser(deps.db, userId)).filter((w) => w.role === 'owner');

  async function page(
    c: Context<PagesEnv>,
    browser: BrowserSession,
    status: number,
    extras: (m: Messages) => Partial<WebhooksView> = () => ({}),
  ): Promise<Response> {
    // A post's answer is the webhooks page: the picker's links lead there, not to the post's path.
    const request =
      c.req.method === 'GET' ? c.req.raw : new Request(new URL(WEBHOOKS_PATH, c.req.url), { headers: c.req.raw.headers });
    const language = await accountPageLanguage(deps.db, request, browser);
    const workspaces = await owned(browser.userId);
    const endpoints: WebhooksView['endpoints'] = [];
    for (const workspace of workspaces) {
      for (const endpoint of (await api.list(workspace.id)).webhooks) {
        const log = (await api.deliveries(workspace.id, endpoint.id)).deliveries.slice(0, PAGE_LOG);
        endpoints.push({
          id: endpoint.id,
          workspaceName: workspace.name,
          url: endpoint.url,
          eventTypes: endpoint.eventTypes,
          createdAt: new Date(endpoint.createdAt),
          disabledAt: endpoint.disabledAt ? new Date(endpoint.disabledAt) : null,
          previousSecretUntil: endpoint.previousSecretUntil ? new Date(endpoint.previousSecretUntil) : null,
          deliveries: log.map((delivery) => {
            const last = delivery.lastAttempts.at(-1);
            return {
              eventId: delivery.eventId,
              eventType: delivery.eventType,
              status: delivery.status,
              attempts: delivery.attempts,
              lastAttempt: last ? { ...last, at: new Date(last.at) } : undefined,
            };
          }),
        });
      }
    }
    const view: WebhooksView = {
      email: browser.email,
      workspaces: workspaces.map(({ id, name }) => ({ id, name })),
      endpoints,
      eventTypes: EVENT_TYPES,
      csrf: {
        webhooks: csrfToken(deps.secret, browser.sessionId, CSRF_PURPOSE),
        signout: csrfToken(deps.secret, browser.sessionId, 'signout'),
      },
      ...extras(language.messages),
    };
    return htmlPage(status, (nonce) => renderWebhooksPage(view, nonce), { language });
  }

  /** The signed-in owner and the form of a post whose CSRF token is right, or the response that refuses it. */
  async function posted(c: Context<PagesEnv>): Promise<{ browser: BrowserSession; form: URLSearchParams } | Response> {
    const form = new URLSearchParams(await c.req.text());
    const browser = await session(c);
    if (!browser) return signIn();
    if (!checkCsrfToken(deps.secret, browser.sessionId, CSRF_PURPOSE, form.get('_csrf')))
      return page(c, browser, 403, (m) => ({ error: m.t('account.webhooks.expired') }));
    return { browser, form };
  }

  /** The workspace of an endpoint the person owns, or undefined. */
  async function ownerOf(userId: string, endpointId: string): Promise<string | undefined> {
    const [row] = await queryRows<{ workspace_id: string }>(
      deps.db,
      sql`select workspace_id from webhook_endpoints where id = ${endpointId.slice(0, 64)}`,
    );
    if (!row) return undefined;
    return (await owned(userId)).some((w) => w.id === row.workspace_id) ? row.workspace_id : undefined;
  }

  app.get(
    WEBHOOKS_PATH,
    withFailurePage(async (c) => {
      const browser = await session(c);
      if (!browser) return signIn();
      return page(c, browser, 200);
    }),
  );

  app.post(
    WEBHOOKS_PATH,
    withFailurePage(async (c) => {
      const got = await posted(c);
      if (got instanceof Response) return got;
      const { browser, form } = got;
      const workspaceId = form.get('workspace_id') ?? '';
      if (!(await owned(browser.userId)).some((w) => w.id === workspaceId))
        return page(c, browser, 400, (m) => ({ error: m.t('account.webhooks.workspaceRequired') }));
      try {
        const created = await api.create(workspaceId, { url: form.get('url') ?? '', eventTypes: form.getAll('event_types') });
        c.get('logger').info(
          { event: 'webhooks.endpoint.created', workspaceId, endpointId: created.id },
          'webhook endpoint added',
        );
        return page(c, browser, 201, () => ({ secret: { url: created.url, secret: created.secret, kind: 'added' } }));
      } catch (error) {
        if (isSessError(error) && error.code === 'WEBHOOK_URL_REFUSED') {
          const reason = String(error.details.reason ?? '');
          return page(c, browser, error.status, (m) => ({ error: m.t('account.webhooks.urlRefused', { reason }) }));
        }
        if (isSessError(error) && error.code === 'INVALID_ARGUMENTS')
          return page(c, browser, error.status, (m) => ({ error: m.t('account.webhooks.invalid') }));
        if (isSessError(error) && error.code === 'PLAN_LIMIT_REACHED')
          return page(c, browser, error.status, (m) => ({ error: m.t('account.webhooks.limit') }));
        throw error;
      }
    }),
  );

  for (const verb of ['test', 'rotate', 'remove'] as const) {
    app.post(
      `${WEBHOOKS_PATH}/:id/${verb}`,
      withFailurePage(async (c) => {
        const got = await posted(c);
        if (got instanceof Response) return got;
        const { browser } = got;
        const id = c.req.param('id') ?? '';
        const workspaceId = await ownerOf(browser.userId, id);
        if (!workspaceId) return page(c, browser, 404, (m) => ({ error: m.t('account.webhooks.notFound') }));
        if (verb === 'test') {
          await api.sendTest(workspaceId, id);
          return page(c, browser, 200, (m) => ({ notice: m.t('account.webhooks.testQueued') }));
        }
        if (verb === 'remove') {
          await api.remove(workspaceId, id);
          return page(c, browser, 200, (m) => ({ notice: m.t('account.webhooks.removed') }));
        }
        const rotated = await api.rotate(workspaceId, id);
        const [endpoint] = (await api.list(workspaceId)).webhooks.filter((w) => w.id === id);
        return page(c, browser, 200, () => ({
          secret: { url: endpoint?.url ?? id, secret: rotated.secret, kind: 'rotated' },
        }));
      }),
    );
  }
  return app;
}
