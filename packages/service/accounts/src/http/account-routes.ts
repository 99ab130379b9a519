import { checkCsrfToken, csrfToken, isSessError } from '@sess/core';
import { errorPage } from '@sess/error-pages';
import {
  type AccountView,
  ASSURANCE_PATH,
  buildConnectView,
  PASSKEY_PATHS,
  REVIEW_PATH,
  renderAccountPage,
  renderMessagePage,
} from '@sess/web';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { BrowserSession } from '../browser-sessions/read-browser-session.ts';
import { createInvite, INVITE_TTL_MS } from '../signup/signup-tokens.ts';
import { listWorkspacesForUser } from '../workspaces/list-workspaces-for-user.ts';
import { mountApiKeyRoutes } from './api-key-routes.ts';
import { ASSURANCE_PATHS, mountAssuranceRoutes } from './assurance-routes.ts';
import type { AccountRoutesDeps, AccountsEnv } from './deps.ts';
import { mountHomeRoute } from './home-route.ts';
import { mountOidcRoutes } from './oidc-routes.ts';
import { mountPasskeyRoutes } from './passkey-routes.ts';
import { requireSession } from './require-session.ts';
import { messagesOf, readForm, refusedForm, sendPage } from './respond.ts';
import { mountSignInRoutes } from './sign-in-routes.ts';
import { mountSignUpRoutes } from './sign-up-routes.ts';

/** Where the OAuth engineer's connected-apps page lives (linked from the overview). */
export const CONNECTED_APPS_PATH = '/account/apps';

/** Every path these routes answer (and the only ones their middleware runs on; `/` matches only itself). */
const OWN_PATHS = [
  '/',
  '/signin',
  '/signin/*',
  '/signup',
  '/signout',
  '/account',
  '/account/invites',
  '/account/keys',
  '/account/keys/*',
  ...ASSURANCE_PATHS,
  '/account/passkeys',
  '/account/passkeys/*',
];

/**
 * All account routes as one Hono app to mount at `/`: the home page, sign-in, sign-up, sign-out,
 * the upstream OpenID sign-in (when configured), `/account`, `/account/keys` and `/account/passkeys`
 * (with "Sign in with a passkey"). Form bodies are
 * capped at 16 KiB; every post carries a CSRF token.
 */
export function createAccountRoutes(deps: AccountRoutesDeps): Hono<AccountsEnv> {
  const app = new Hono<AccountsEnv>();
  // Middleware is scoped to our own paths: this app is mounted at `/`, and a bare `use()` would
  // also run in front of every other package's routes (e.g. /account/apps, /oauth/*).
  const ensureLogger: MiddlewareHandler<AccountsEnv> = async function ensureLogger(c, next) {
    // Mounted in apps/server the request logger is already set; standing alone, use the root.
    if (!c.get('logger')) c.set('logger', deps.logger);
    await next();
  };
  for (const path of OWN_PATHS) app.use(path, ensureLogger);
  // Errors on these routes end as a page, not JSON; the cause goes to the log only.
  app.onError((error, c) => {
    // A page to try again from: the one asked for, or the form a post came from.
    const path = c.req.path;
    const backTo = c.req.method === 'GET' || path === '/signin' || path === '/signup' ? path : '/account';
    return errorPage(error, { backTo, logger: c.get('logger'), event: 'accounts.http', request: c.req.raw });
  });
  const limit = bodyLimit({
    maxSize: 16 * 1024,
    onError: (c) =>
      sendPage(c, 413, (nonce) =>
        renderMessagePage(
          {
            title: messagesOf(c).t('account.tooLarge.title'),
            message: messagesOf(c).t('account.tooLarge.message'),
            tone: 'error',
          },
          nonce,
        ),
      ),
  });
  for (const path of OWN_PATHS) app.post(path, limit);

  mountHomeRoute(app, deps);
  mountSignInRoutes(app, deps);
  mountSignUpRoutes(app, deps);
  if (deps.oidc) mountOidcRoutes(app, deps, deps.oidc);

  const signedIn = requireSession(deps);
  app.use('/account', signedIn);
  app.use('/account/invites', signedIn);
  app.use('/account/keys', signedIn);
  app.use('/account/keys/*', signedIn);
  for (const path of ASSURANCE_PATHS) app.use(path, signedIn);

  async function overview(c: Context<AccountsEnv>, status: number, extra: Partial<AccountView> = {}): Promise<Response> {
    const session: BrowserSession = c.get('session');
    const workspaces = await listWorkspacesForUser(deps.db, session.userId);
    const view: AccountView = {
      email: session.email,
      workspaces,
      csrf: {
        signout: csrfToken(deps.secret, session.sessionId, 'signout'),
        invite: csrfToken(deps.secret, session.sessionId, 'account:invite'),
      },
      invitesEnabled: deps.signupPolicy !== 'closed',
      links: {
        apiKeys: '/account/keys',
        connectedApps: CONNECTED_APPS_PATH,
        review: REVIEW_PATH,
        assurance: ASSURANCE_PATH,
        passkeys: PASSKEY_PATHS.page,
      },
      connect: buildConnectView(deps.publicUrl, deps.packages),
      ...extra,
    };
    return sendPage(c, status, (nonce) => renderAccountPage(view, nonce));
  }

  app.get('/account', (c) => overview(c, 200));

  app.post('/account/invites', async (c) => {
    const session = c.get('session');
    const form = await readForm(c);
    if (!checkCsrfToken(deps.secret, session.sessionId, 'account:invite', form._csrf)) return refusedForm(c, '/account');
    const m = messagesOf(c);
    if (deps.signupPolicy === 'closed') {
      return sendPage(c, 403, (nonce) =>
        renderMessagePage(
          {
            title: m.t('account.invites.offTitle'),
            message: m.t('account.invites.offMessage'),
            link: { href: '/account', label: m.t('account.message.yourAccount') },
            tone: 'warn',
          },
          nonce,
        ),
      );
    }
    const now = deps.now();
    const workspaceId = form.workspace_id ?? '';
    try {
      const token = await createInvite(deps.db, { userId: session.userId, workspaceId, now });
      const workspaces = await listWorkspacesForUser(deps.db, session.userId);
      const workspaceName = workspaces.find((w) => w.id === workspaceId)?.name ?? workspaceId;
      c.get('logger').info({ event: 'accounts.invite.created', userId: session.userId, workspaceId }, 'invite created');
      return overview(c, 201, {
        createdInvite: {
          workspaceName,
          url: `${deps.publicUrl}/signup?token=${token}`,
          expiresAt: new Date(now.getTime() + INVITE_TTL_MS),
        },
      });
    } catch (error) {
      if (isSessError(error) && error.code === 'NOT_FOUND') {
        return sendPage(c, 404, (nonce) =>
          renderMessagePage(
            {
              title: m.t('account.invites.noWorkspaceTitle'),
              message: m.t('account.invites.noWorkspaceMessage'),
              link: { href: '/account', label: m.t('account.message.yourAccount') },
              tone: 'error',
            },
            nonce,
          ),
        );
      }
      throw error;
    }
  });

  mountApiKeyRoutes(app, deps);
  mountAssuranceRoutes(app, deps);
  mountPasskeyRoutes(app, deps);
  return app;
}
