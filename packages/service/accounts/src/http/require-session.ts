import type { MiddlewareHandler } from 'hono';
import { readBrowserSession } from '../browser-sessions/read-browser-session.ts';
import { accountPageLanguage } from '../users/user-locale.ts';
import type { AccountRoutesDeps, AccountsEnv } from './deps.ts';
import { pageRequest, seeOther, setLanguage } from './respond.ts';

/**
 * Lets only signed-in browsers through (the session goes on `c.var.session`); anyone else is
 * sent to sign in and brought back to the page they asked for (GET) or the page a form was on (POST).
 */
export function requireSession(deps: AccountRoutesDeps): MiddlewareHandler<AccountsEnv> {
  return async function requireSignedIn(c, next) {
    const session = await readBrowserSession(deps.db, c.req.header('cookie'), deps.now());
    if (!session) {
      const url = new URL(c.req.url);
      // A post cannot be replayed after sign-in; come back to the page it was posted from.
      const back =
        c.req.method === 'GET'
          ? `${url.pathname}${url.search}`
          : (['/account/keys', '/account/passkeys'].find((page) => url.pathname.startsWith(page)) ?? '/account');
      return seeOther(`/signin?return_to=${encodeURIComponent(back)}`);
    }
    c.set('session', session);
    setLanguage(c, await accountPageLanguage(deps.db, pageRequest(c), session));
    await next();
  };
}
