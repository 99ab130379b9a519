import { checkCsrfToken, createRateLimiter, isSessError } from '@sess/core';
import { renderMessagePage, renderSignInPage, type SignInView } from '@sess/web';
import type { Context, Hono } from 'hono';
import { createBrowserSession } from '../browser-sessions/create-browser-session.ts';
import { deleteBrowserSession } from '../browser-sessions/delete-browser-session.ts';
import { readBrowserSession } from '../browser-sessions/read-browser-session.ts';
import { clearSessionCookie, sessionCookie } from '../browser-sessions/session-cookie.ts';
import { safeReturnTo } from '../return-to/safe-return-to.ts';
import { signInWithPassword } from '../sign-in/sign-in-with-password.ts';
import { checkAnonymousCsrf, issueAnonymousCsrf } from './anonymous-csrf.ts';
import { type AccountRoutesDeps, type AccountsEnv, socketAddress } from './deps.ts';
import { PASSKEY_SIGN_IN_PURPOSE } from './passkey-routes.ts';
import { messagesOf, minutesOf, readForm, seeOther, sendPage, withReturnTo } from './respond.ts';
import { createAccountsSweeper } from './sweep.ts';

const WINDOW_MS = 15 * 60 * 1000;

/** What the sign-in page shows besides the form itself. */
type SignInExtras = Pick<SignInView, 'email' | 'error' | 'fieldErrors' | 'notice'>;

/**
 * `GET /signin`, `POST /signin`, `POST /signout`. A successful sign-in always starts a new
 * browser session (deleting the one the browser had) and answers 303 to `return_to` — only ever
 * a same-origin path, else `/account`.
 */
export function mountSignInRoutes(app: Hono<AccountsEnv>, deps: AccountRoutesDeps): void {
  const secure = deps.publicUrl.startsWith('https:');
  const clientIp = deps.clientIp ?? socketAddress;
  const perIp = createRateLimiter({
    limit: deps.limits?.signInPerIp ?? 30,
    windowMs: WINDOW_MS,
    now: () => deps.now().getTime(),
  });
  const sweep = createAccountsSweeper(deps.db, deps.logger, deps.now);
  const signupHref = (returnTo: string) => (deps.signupPolicy === 'open' ? withReturnTo('/signup', returnTo) : null);

  function showSignIn(c: Context, status: number, returnTo: string, extras: SignInExtras = {}): Response {
    const purposes = ['signin', PASSKEY_SIGN_IN_PURPOSE, ...(deps.oidc ? ['oidc'] : [])];
    const { tokens, cookie } = issueAnonymousCsrf(c, deps.secret, secure, purposes);
    const view: SignInView = {
      returnTo,
      csrf: tokens[0]!,
      signupHref: signupHref(returnTo),
      passkey: { csrf: tokens[1]! },
      oidc: deps.oidc ? { name: deps.oidc.name, action: '/signin/oidc', csrf: tokens[2]! } : null,
      ...extras,
    };
    return sendPage(c, status, (nonce) => renderSignInPage(view, nonce), { 'Set-Cookie': cookie });
  }

  app.get('/signin', async (c) => {
    const returnTo = safeReturnTo(c.req.query('return_to'));
    // Already signed in: nothing to ask, carry on (the OAuth consent page sends people here).
    if (await readBrowserSession(deps.db, c.req.header('cookie'), deps.now())) return seeOther(returnTo);
    const notice = c.req.query('signed_out') === '1' ? messagesOf(c).t('account.signIn.signedOut') : undefined;
    return showSignIn(c, 200, returnTo, notice ? { notice } : {});
  });

  app.post('/signin', async (c) => {
    const form = await readForm(c);
    const returnTo = safeReturnTo(form.return_to);
    const email = (form.email ?? '').slice(0, 254);
    const logger = c.get('logger');
    const m = messagesOf(c);
    const ip = clientIp(c);
    const ipHit = perIp.hit(ip);
    if (!ipHit.ok) {
      logger.warn({ event: 'accounts.signin.rate_limited', scope: 'ip' }, 'sign-in rate limited');
      return tooMany(c, ipHit.retryAfterSeconds, returnTo);
    }
    if (!checkAnonymousCsrf(c, deps.secret, 'signin', form._csrf)) {
      return showSignIn(c, 403, returnTo, { email, error: m.t('account.signIn.expired') });
    }
    const fieldErrors: NonNullable<SignInExtras['fieldErrors']> = {};
    if (!email.trim()) fieldErrors.email = m.t('account.signIn.enterEmail');
    if (!form.password) fieldErrors.password = m.t('account.signIn.enterPassword');
    if (fieldErrors.email || fieldErrors.password) return showSignIn(c, 400, returnTo, { email, fieldErrors });

    const now = deps.now();
    let user: { userId: string; email: string };
    try {
      user = await signInWithPassword(deps.db, {
        email,
        password: form.password,
        now,
        limits: { accountLimit: deps.limits?.signInPerAccount, accountWindowMs: deps.limits?.signInPerAccountWindowMs },
      });
    } catch (error) {
      if (isSessError(error) && error.code === 'RATE_LIMITED') {
        logger.warn({ event: 'accounts.signin.rate_limited', scope: 'account' }, 'sign-in rate limited');
        return tooMany(c, Number(error.details.retryAfterSeconds ?? 60), returnTo);
      }
      if (isSessError(error) && error.code === 'UNAUTHORIZED') {
        logger.info({ event: 'accounts.signin.failed' }, 'sign-in failed');
        return showSignIn(c, 401, returnTo, { email, error: m.t('account.signIn.wrong') });
      }
      throw error;
    }
    const previous = await readBrowserSession(deps.db, c.req.header('cookie'), now);
    const session = await createBrowserSession(deps.db, { userId: user.userId, now, replaceSessionId: previous?.sessionId });
    logger.info({ event: 'accounts.signin.succeeded', userId: user.userId, method: 'password' }, 'signed in');
    void sweep();
    return seeOther(returnTo, [sessionCookie(session.token, session.expiresAt, now, secure)]);
  });

  app.post('/signout', async (c) => {
    const form = await readForm(c);
    const session = await readBrowserSession(deps.db, c.req.header('cookie'), deps.now());
    if (!session) return seeOther('/signin', [clearSessionCookie(secure)]);
    if (!checkCsrfToken(deps.secret, session.sessionId, 'signout', form._csrf)) {
      const m = messagesOf(c);
      return sendPage(c, 403, (nonce) =>
        renderMessagePage(
          {
            title: m.t('account.signOut.refusedTitle'),
            message: m.t('account.signOut.refusedMessage'),
            link: { href: '/account', label: m.t('account.message.yourAccount') },
            tone: 'error',
          },
          nonce,
        ),
      );
    }
    await deleteBrowserSession(deps.db, session.sessionId);
    c.get('logger').info({ event: 'accounts.signout', userId: session.userId }, 'signed out');
    return seeOther('/signin?signed_out=1', [clearSessionCookie(secure)]);
  });
}

/** 429 with `Retry-After` and a message that says how long to wait. */
export function tooMany(c: Context, retryAfterSeconds: number, returnTo: string): Response {
  const m = messagesOf(c);
  return sendPage(
    c,
    429,
    (nonce) =>
      renderMessagePage(
        {
          title: m.t('account.rateLimited.title'),
          message: m.t('account.rateLimited.signIn', { minutes: minutesOf(retryAfterSeconds) }),
          link: { href: withReturnTo('/signin', returnTo), label: m.t('account.rateLimited.backToSignIn') },
          tone: 'warn',
        },
        nonce,
      ),
    { 'Retry-After': String(retryAfterSeconds) },
  );
}
