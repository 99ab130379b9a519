import { createRateLimiter, isSessError, SessError } from '@sess/core';
import { type Messages, renderMessagePage, renderSignUpPage, type SignUpView } from '@sess/web';
import type { Context, Hono } from 'hono';
import { createBrowserSession } from '../browser-sessions/create-browser-session.ts';
import { readBrowserSession } from '../browser-sessions/read-browser-session.ts';
import { sessionCookie } from '../browser-sessions/session-cookie.ts';
import { PASSWORD_MAX, PASSWORD_MIN } from '../passwords/check-password.ts';
import { safeReturnTo } from '../return-to/safe-return-to.ts';
import { type SignupProblems, signUp, signupProblemsOf } from '../signup/sign-up.ts';
import { peekSignupLink } from '../signup/signup-tokens.ts';
import { checkAnonymousCsrf, issueAnonymousCsrf } from './anonymous-csrf.ts';
import { type AccountRoutesDeps, type AccountsEnv, socketAddress } from './deps.ts';
import { messagesOf, minutesOf, readForm, seeOther, sendPage, withReturnTo } from './respond.ts';

const WINDOW_MS = 60 * 60 * 1000;

type SignUpExtras = Pick<SignUpView, 'email' | 'error' | 'fieldErrors'>;

/** What is wrong with each field, in the page's language (the checks' own texts are for the API). */
function signupFieldErrors(m: Messages, problems: SignupProblems): NonNullable<SignUpView['fieldErrors']> {
  const errors: NonNullable<SignUpView['fieldErrors']> = {};
  if (problems.email) errors.email = m.t('account.signUp.emailInvalid');
  if (problems.password) {
    errors.password = /at least/.test(problems.password)
      ? m.t('account.signUp.passwordShort', { min: PASSWORD_MIN })
      : m.t('account.signUp.passwordLong', { max: PASSWORD_MAX });
  }
  return errors;
}

/**
 * `GET /signup` and `POST /signup`. Whether the form is offered depends on `SESS_SIGNUP` and on
 * a `token` (first-account or invite link), which works under every policy.
 */
export function mountSignUpRoutes(app: Hono<AccountsEnv>, deps: AccountRoutesDeps): void {
  const secure = deps.publicUrl.startsWith('https:');
  const clientIp = deps.clientIp ?? socketAddress;
  const perIp = createRateLimiter({
    limit: deps.limits?.signUpPerIp ?? 10,
    windowMs: WINDOW_MS,
    now: () => deps.now().getTime(),
  });

  function showForm(
    c: Context,
    status: number,
    returnTo: string,
    via: SignUpView['via'],
    token: string | undefined,
    extras: SignUpExtras = {},
  ) {
    const { tokens, cookie } = issueAnonymousCsrf(c, deps.secret, secure, ['signup']);
    const view: SignUpView = { returnTo, csrf: tokens[0]!, via, signinHref: withReturnTo('/signin', returnTo), ...extras };
    if (token) view.token = token;
    return sendPage(c, status, (nonce) => renderSignUpPage(view, nonce), { 'Set-Cookie': cookie });
  }

  function refuse(c: Context, error: SessError, returnTo: string): Response {
    const closedLink = error.code === 'LINK_CLOSED';
    const m = messagesOf(c);
    return sendPage(c, error.status, (nonce) =>
      renderMessagePage(
        {
          title: closedLink ? m.t('account.signUp.closedLinkTitle') : m.t('account.signUp.notOpenTitle'),
          message: closedLink
            ? m.t('account.signUp.closedLinkMessage')
            : deps.signupPolicy === 'invite'
              ? m.t('account.signUp.inviteOnly')
              : m.t('account.signUp.closed'),
          link: { href: withReturnTo('/signin', returnTo), label: m.t('account.signUp.signInInstead') },
          tone: 'warn',
        },
        nonce,
      ),
    );
  }

  app.get('/signup', async (c) => {
    const returnTo = safeReturnTo(c.req.query('return_to'));
    const token = c.req.query('token');
    const now = deps.now();
    if (token) {
      try {
        const link = await peekSignupLink(deps.db, token, now);
        return showForm(c, 200, returnTo, link.kind, token);
      } catch (error) {
        if (isSessError(error)) return refuse(c, error, returnTo);
        throw error;
      }
    }
    if (await readBrowserSession(deps.db, c.req.header('cookie'), now)) return seeOther(returnTo);
    if (deps.signupPolicy !== 'open') {
      return refuse(c, new SessError('SIGNUP_NOT_ALLOWED', 'Sign-up is not open.'), returnTo);
    }
    return showForm(c, 200, returnTo, 'open', undefined);
  });

  app.post('/signup', async (c) => {
    const form = await readForm(c);
    const returnTo = safeReturnTo(form.return_to);
    const token = form.token || undefined;
    // Only for the wording of a re-rendered form; the link itself is checked when it is used.
    const via: SignUpView['via'] = token
      ? await peekSignupLink(deps.db, token, deps.now()).then(
          (link) => link.kind,
          () => 'invite' as const,
        )
      : 'open';
    const email = (form.email ?? '').slice(0, 254);
    const logger = c.get('logger');
    const m = messagesOf(c);
    const hit = perIp.hit(clientIp(c));
    if (!hit.ok) {
      return sendPage(
        c,
        429,
        (nonce) =>
          renderMessagePage(
            {
              title: m.t('account.rateLimited.title'),
              message: m.t('account.rateLimited.signUp', { minutes: minutesOf(hit.retryAfterSeconds) }),
              tone: 'warn',
            },
            nonce,
          ),
        { 'Retry-After': String(hit.retryAfterSeconds) },
      );
    }
    if (!checkAnonymousCsrf(c, deps.secret, 'signup', form._csrf)) {
      return showForm(c, 403, returnTo, via, token, { email, error: m.t('account.signUp.expired') });
    }
    const now = deps.now();
    let created: Awaited<ReturnType<typeof signUp>>;
    try {
      created = await signUp(deps.db, { email, password: form.password, policy: deps.signupPolicy, token, now });
    } catch (error) {
      if (!isSessError(error)) throw error;
      switch (error.code) {
        case 'INVALID_ARGUMENTS':
          return showForm(c, 400, returnTo, via, token, {
            email,
            fieldErrors: signupFieldErrors(m, signupProblemsOf(error)),
          });
        case 'EMAIL_TAKEN':
          return showForm(c, 409, returnTo, via, token, {
            email,
            fieldErrors: { email: m.t('account.signUp.emailTaken') },
          });
        case 'SIGNUP_NOT_ALLOWED':
        case 'LINK_CLOSED':
          return refuse(c, error, returnTo);
        default:
          throw error;
      }
    }
    const previous = await readBrowserSession(deps.db, c.req.header('cookie'), now);
    const session = await createBrowserSession(deps.db, { userId: created.userId, now, replaceSessionId: previous?.sessionId });
    logger.info({ event: 'accounts.signup.succeeded', userId: created.userId, via: created.via }, 'account created');
    return seeOther(returnTo, [sessionCookie(session.token, session.expiresAt, now, secure)]);
  });
}
