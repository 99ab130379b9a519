import { createRateLimiter, isSessError } from '@sess/core';
import { clearCookie, readCookieValues, renderMessagePage, serializeCookie } from '@sess/web';
import type { Context, Hono } from 'hono';
import { createBrowserSession } from '../browser-sessions/create-browser-session.ts';
import { readBrowserSession } from '../browser-sessions/read-browser-session.ts';
import { sessionCookie } from '../browser-sessions/session-cookie.ts';
import { createOidcClient, OidcSignInError } from '../oidc/oidc-client.ts';
import {
  OIDC_STATE_COOKIE,
  OIDC_STATE_COOKIE_PATH,
  OIDC_STATE_TTL_MS,
  openOidcState,
  sealOidcState,
} from '../oidc/oidc-state-cookie.ts';
import { signInWithOidcIdentity } from '../oidc/sign-in-with-oidc.ts';
import { safeReturnTo } from '../return-to/safe-return-to.ts';
import { checkAnonymousCsrf } from './anonymous-csrf.ts';
import { type AccountRoutesDeps, type AccountsEnv, type OidcSettings, socketAddress } from './deps.ts';
import { messagesOf, minutesOf, readForm, seeOther, sendPage, withReturnTo } from './respond.ts';

/** The path the provider sends people back to; register `PUBLIC_URL` + this at the provider. */
export const OIDC_CALLBACK_PATH = '/signin/oidc/callback';

/**
 * "Sign in with <provider>": `POST /signin/oidc` (CSRF-checked) sends the browser to the
 * provider with PKCE, state and nonce kept in a short-lived signed cookie scoped to
 * `/signin/oidc`; `GET /signin/oidc/callback` checks all three, then signs the person in.
 */
export function mountOidcRoutes(app: Hono<AccountsEnv>, deps: AccountRoutesDeps, settings: OidcSettings): void {
  const secure = deps.publicUrl.startsWith('https:');
  const clientIp = deps.clientIp ?? socketAddress;
  const redirectUri = `${deps.publicUrl}${OIDC_CALLBACK_PATH}`;
  const oidc = createOidcClient({
    issuer: settings.issuer,
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    redirectUri,
    allowInsecureRequests: settings.allowInsecureRequests ?? false,
    timeoutMs: settings.timeoutMs ?? 10_000,
  });
  const perIp = createRateLimiter({
    limit: deps.limits?.signUpPerIp ?? 10,
    windowMs: 60 * 60 * 1000,
    now: () => deps.now().getTime(),
  });
  const stateCookie = (value: string, maxAgeSeconds: number) =>
    serializeCookie(OIDC_STATE_COOKIE, value, { secure, maxAgeSeconds, path: OIDC_STATE_COOKIE_PATH });

  function problem(c: Context, status: number, title: string, message: string, returnTo: string, cookies: string[] = []) {
    return sendPage(
      c,
      status,
      (nonce) =>
        renderMessagePage(
          { title, message, link: { href: withReturnTo('/signin', returnTo), label: 'Back to sign in' }, tone: 'error' },
          nonce,
        ),
      { 'Set-Cookie': cookies },
    );
  }

  app.post('/signin/oidc', async (c) => {
    const form = await readForm(c);
    const returnTo = safeReturnTo(form.return_to);
    const hit = perIp.hit(clientIp(c));
    if (!hit.ok) {
      return problem(
        c,
        429,
        messagesOf(c).t('account.rateLimited.title'),
        messagesOf(c).t('account.rateLimited.signIn', { minutes: minutesOf(hit.retryAfterSeconds) }),
        returnTo,
      );
    }
    if (!checkAnonymousCsrf(c, deps.secret, 'oidc', form._csrf)) {
      return problem(c, 403, 'Sign-in not started', 'This page had expired. Go back to sign in and try again.', returnTo);
    }
    try {
      const start = await oidc.startSignIn();
      const sealed = sealOidcState(deps.secret, {
        state: start.state,
        nonce: start.nonce,
        codeVerifier: start.codeVerifier,
        returnTo,
        expiresAt: deps.now().getTime() + OIDC_STATE_TTL_MS,
      });
      return seeOther(start.url.toString(), [stateCookie(sealed, OIDC_STATE_TTL_MS / 1000)]);
    } catch (error) {
      c.get('logger').warn({ event: 'accounts.oidc.start_failed', err: error }, 'upstream sign-in could not start');
      return problem(
        c,
        502,
        `${settings.name} is unavailable`,
        `Sign-in with ${settings.name} is not working right now. Try again later.`,
        returnTo,
      );
    }
  });

  app.get(OIDC_CALLBACK_PATH, async (c) => {
    const logger = c.get('logger');
    const now = deps.now();
    const clear = clearCookie(OIDC_STATE_COOKIE, { secure, path: OIDC_STATE_COOKIE_PATH });
    const saved = openOidcState(deps.secret, readCookieValues(c.req.header('cookie'), OIDC_STATE_COOKIE)[0], now);
    if (!saved) {
      return problem(
        c,
        400,
        'Sign-in expired',
        `The sign-in with ${settings.name} took too long or was started elsewhere. Please try again.`,
        '/account',
        [clear],
      );
    }
    const returnTo = safeReturnTo(saved.returnTo);
    // The callback as the provider addressed it: our public redirect URI plus the query it sent.
    const callback = new URL(redirectUri);
    callback.search = new URL(c.req.url).search;
    let identity: Awaited<ReturnType<typeof oidc.finishSignIn>>;
    try {
      identity = await oidc.finishSignIn(callback, saved);
    } catch (error) {
      const reason = error instanceof OidcSignInError ? error.reason : 'invalid_response';
      logger.warn({ event: 'accounts.oidc.failed', reason, err: error }, 'upstream sign-in failed');
      if (reason === 'cancelled') {
        return problem(c, 400, 'Sign-in cancelled', `You did not finish signing in with ${settings.name}.`, returnTo, [clear]);
      }
      return problem(c, 502, 'Sign-in failed', `Signing in with ${settings.name} did not work. Please try again.`, returnTo, [
        clear,
      ]);
    }
    let user: Awaited<ReturnType<typeof signInWithOidcIdentity>>;
    try {
      user = await signInWithOidcIdentity(deps.db, { identity, policy: deps.signupPolicy, now });
    } catch (error) {
      if (isSessError(error) && (error.code === 'SIGNUP_NOT_ALLOWED' || error.code === 'FORBIDDEN')) {
        logger.info({ event: 'accounts.oidc.refused', code: error.code }, 'upstream identity not accepted');
        const message =
          error.code === 'FORBIDDEN'
            ? `${settings.name} did not share a verified email address, so we cannot tell which Sess account is yours.`
            : `No Sess account uses the email address of your ${settings.name} account, and new accounts need an invite here.`;
        return problem(c, 403, 'No account', message, returnTo, [clear]);
      }
      throw error;
    }
    const previous = await readBrowserSession(deps.db, c.req.header('cookie'), now);
    const session = await createBrowserSession(deps.db, { userId: user.userId, now, replaceSessionId: previous?.sessionId });
    logger.info(
      { event: 'accounts.signin.succeeded', userId: user.userId, method: 'oidc', created: user.created, linked: user.linked },
      'signed in',
    );
    return seeOther(returnTo, [clear, sessionCookie(session.token, session.expiresAt, now, secure)]);
  });
}
