import { csrfToken } from '@sess/core';
import { buildConnectView, type HomeView, htmlPage, pageLanguage, renderHomePage } from '@sess/web';
import type { Hono } from 'hono';
import { readBrowserSession } from '../browser-sessions/read-browser-session.ts';
import { accountPageLanguage } from '../users/user-locale.ts';
import type { AccountRoutesDeps, AccountsEnv } from './deps.ts';

/**
 * `/`: the home page the OAuth metadata names as `service_documentation`. Anyone may read it;
 * a signed-in browser is greeted with "Your account" instead of Sign in / Create account.
 * "Create account" is offered only when anyone may sign up (an invite or first-account link
 * carries its own token to /signup).
 */
export function mountHomeRoute(app: Hono<AccountsEnv>, deps: AccountRoutesDeps): void {
  const connect = buildConnectView(deps.publicUrl, deps.packages);
  app.get('/', async (c) => {
    const session = await readBrowserSession(deps.db, c.req.header('cookie'), deps.now());
    const view: HomeView = {
      connect,
      signedIn: session ? { email: session.email, signoutCsrf: csrfToken(deps.secret, session.sessionId, 'signout') } : null,
      signinHref: '/signin',
      signupHref: deps.signupPolicy === 'open' ? '/signup' : null,
      accountHref: '/account',
    };
    const language = session ? await accountPageLanguage(deps.db, c.req.raw, session) : pageLanguage(c.req.raw);
    return htmlPage(200, (nonce) => renderHomePage(view, nonce), { language });
  });
}
