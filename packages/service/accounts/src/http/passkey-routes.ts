import { checkCsrfToken, createRateLimiter, csrfToken, isSessError, type RateLimiter } from '@sess/core';
import {
  CSRF_HEADER,
  PASSKEY_PATHS,
  type PasskeysView,
  passkeyRefusalText,
  renderMessagePage,
  renderPasskeysPage,
} from '@sess/web';
import type { Context, Hono } from 'hono';
import { createBrowserSession } from '../browser-sessions/create-browser-session.ts';
import { readBrowserSession } from '../browser-sessions/read-browser-session.ts';
import { sessionCookie } from '../browser-sessions/session-cookie.ts';
import { listPasskeys, PASSKEY_NAME_MAX, removePasskey, renamePasskey } from '../passkeys/credentials.ts';
import { finishPasskeySignIn, startPasskeySignIn } from '../passkeys/passkey-sign-in.ts';
import type { PasskeyRefusal } from '../passkeys/refusals.ts';
import { finishPasskeyRegistration, startPasskeyRegistration } from '../passkeys/registration.ts';
import { relyingPartyOf } from '../passkeys/relying-party.ts';
import { safeReturnTo } from '../return-to/safe-return-to.ts';
import { checkAnonymousCsrf } from './anonymous-csrf.ts';
import { type AccountRoutesDeps, type AccountsEnv, socketAddress } from './deps.ts';
import { requireSession } from './require-session.ts';
import { messagesOf, readForm, refusedForm, sendPage } from './respond.ts';
import { createAccountsSweeper } from './sweep.ts';

const WINDOW_MS = 15 * 60 * 1000;
const PURPOSE = {
  register: 'passkeys:register',
  rename: 'passkeys:rename',
  remove: 'passkeys:remove',
  signIn: 'signin:passkey',
} as const;

type JsonStatus = 400 | 401 | 403 | 415 | 429;

function jsonError(c: Context, status: JsonStatus, code: string, message: string, extra: Record<string, unknown> = {}): Response {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
  if (typeof extra.retryAfterSeconds === 'number') headers['Retry-After'] = String(extra.retryAfterSeconds);
  return c.json({ error: { code, message, ...extra } }, status, headers);
}

/** A refused ceremony as JSON (`PASSKEY_REFUSED` with its reason, or `RATE_LIMITED`), logged by reason only. */
function refusal(c: Context<AccountsEnv>, ceremony: string, refused: PasskeyRefusal): Response {
  c.get('logger').info({ event: 'accounts.passkey.refused', ceremony, reason: refused.reason }, 'passkey refused');
  if (refused.reason === 'rate_limited') {
    const retryAfterSeconds = refused.retryAfterSeconds ?? 60;
    return jsonError(c, 429, 'RATE_LIMITED', passkeyRefusalText(messagesOf(c), 'rate_limited'), { retryAfterSeconds });
  }
  return jsonError(c, 403, 'PASSKEY_REFUSED', passkeyRefusalText(messagesOf(c), refused.reason), { reason: refused.reason });
}

/** The posted JSON object, or the 415/400 answer. */
async function readJson(c: Context): Promise<Record<string, unknown> | Response> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') return jsonError(c, 415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.');
  try {
    const body: unknown = JSON.parse(await c.req.text());
    if (body && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>;
  } catch {}
  return jsonError(c, 400, 'INVALID_ARGUMENTS', 'The body must be a JSON object.');
}

/** Counts a ceremony post against this address; the 429 when over. */
function overIpLimit(c: Context<AccountsEnv>, perIp: RateLimiter, ip: string): Response | null {
  const hit = perIp.hit(ip);
  if (hit.ok) return null;
  c.get('logger').warn({ event: 'accounts.passkey.rate_limited', scope: 'ip' }, 'passkey rate limited');
  return jsonError(c, 429, 'RATE_LIMITED', passkeyRefusalText(messagesOf(c), 'rate_limited'), {
    retryAfterSeconds: hit.retryAfterSeconds,
  });
}

/**
 * Passkeys: `/account/passkeys` (list, add, rename, remove) and "Sign in with a passkey" on
 * `/signin`. The ceremonies are JSON routes for the pages' script, each with its CSRF token in
 * the `x-csrf-token` header (the browser session's, or before sign-in the `sess_csrf` cookie's);
 * rename and remove are plain form posts. Every ceremony requires user verification.
 */
export function mountPasskeyRoutes(app: Hono<AccountsEnv>, deps: AccountRoutesDeps): void {
  const rp = relyingPartyOf(deps.publicUrl);
  const secure = deps.publicUrl.startsWith('https:');
  const clientIp = deps.clientIp ?? socketAddress;
  const perIp = createRateLimiter({
    limit: deps.limits?.passkeyPerIp ?? 60,
    windowMs: WINDOW_MS,
    now: () => deps.now().getTime(),
  });
  const accountLimit = deps.limits?.passkeyPerAccount;
  const sweep = createAccountsSweeper(deps.db, deps.logger, deps.now);
  const signedIn = requireSession(deps);

  async function page(c: Context<AccountsEnv>, status: number, extras: Pick<PasskeysView, 'notice' | 'error'> = {}) {
    const session = c.get('session');
    const token = (purpose: string) => csrfToken(deps.secret, session.sessionId, purpose);
    const view: PasskeysView = {
      email: session.email,
      passkeys: await listPasskeys(deps.db, session.userId),
      csrf: {
        register: token(PURPOSE.register),
        rename: token(PURPOSE.rename),
        remove: token(PURPOSE.remove),
        signout: token('signout'),
      },
      ...extras,
    };
    return sendPage(c, status, (nonce) => renderPasskeysPage(view, nonce));
  }

  app.get(PASSKEY_PATHS.page, signedIn, (c) =>
    page(c, 200, c.req.query('added') === '1' ? { notice: messagesOf(c).t('account.passkeys.added') } : {}),
  );

  /** The signed-in session of a JSON ceremony post with a valid token, or the 401/403 answer. */
  async function ceremonySession(c: Context<AccountsEnv>) {
    const session = await readBrowserSession(deps.db, c.req.header('cookie'), deps.now());
    if (!session) return jsonError(c, 401, 'UNAUTHORIZED', passkeyRefusalText(messagesOf(c), 'sign_in_first'));
    if (!checkCsrfToken(deps.secret, session.sessionId, PURPOSE.register, c.req.header(CSRF_HEADER))) {
      return jsonError(c, 403, 'FORBIDDEN', passkeyRefusalText(messagesOf(c), 'page_expired'));
    }
    return session;
  }

  app.post(PASSKEY_PATHS.registerOptions, async (c) => {
    const session = await ceremonySession(c);
    if (session instanceof Response) return session;
    const limited = overIpLimit(c, perIp, clientIp(c));
    if (limited) return limited;
    const options = await startPasskeyRegistration(deps.db, rp, {
      userId: session.userId,
      email: session.email,
      now: deps.now(),
    });
    return c.json(options, 200, { 'Cache-Control': 'no-store' });
  });

  app.post(PASSKEY_PATHS.register, async (c) => {
    const session = await ceremonySession(c);
    if (session instanceof Response) return session;
    const limited = overIpLimit(c, perIp, clientIp(c));
    if (limited) return limited;
    const body = await readJson(c);
    if (body instanceof Response) return body;
    let added: Awaited<ReturnType<typeof finishPasskeyRegistration>>;
    try {
      added = await finishPasskeyRegistration(deps.db, rp, {
        userId: session.userId,
        name: body.name,
        response: body.response,
        now: deps.now(),
        accountLimit,
      });
    } catch (error) {
      if (!isSessError(error) || error.code !== 'INVALID_ARGUMENTS') throw error;
      return jsonError(c, 400, 'INVALID_ARGUMENTS', error.message, { field: error.details.field ?? '' });
    }
    if (!added.ok) return refusal(c, 'register', added);
    c.get('logger').info({ event: 'accounts.passkey.added', userId: session.userId }, 'passkey added');
    return c.json({ passkey: { name: added.name, createdAt: added.createdAt.toISOString() } }, 201, {
      'Cache-Control': 'no-store',
    });
  });

  app.post(`${PASSKEY_PATHS.page}/:id/rename`, signedIn, async (c) => {
    const session = c.get('session');
    const form = await readForm(c);
    if (!checkCsrfToken(deps.secret, session.sessionId, PURPOSE.rename, form._csrf)) return refusedForm(c, PASSKEY_PATHS.page);
    try {
      await renamePasskey(deps.db, { userId: session.userId, credentialId: c.req.param('id'), name: form.name });
    } catch (error) {
      if (isSessError(error) && error.code === 'INVALID_ARGUMENTS') {
        return page(c, 400, { error: messagesOf(c).t('account.passkeys.nameInvalid', { max: PASSKEY_NAME_MAX }) });
      }
      if (isSessError(error) && error.code === 'NOT_FOUND') return noSuchPasskey(c);
      throw error;
    }
    return page(c, 200, { notice: messagesOf(c).t('account.passkeys.renamed') });
  });

  app.post(`${PASSKEY_PATHS.page}/:id/remove`, signedIn, async (c) => {
    const session = c.get('session');
    const form = await readForm(c);
    if (!checkCsrfToken(deps.secret, session.sessionId, PURPOSE.remove, form._csrf)) return refusedForm(c, PASSKEY_PATHS.page);
    try {
      await removePasskey(deps.db, { userId: session.userId, credentialId: c.req.param('id') });
    } catch (error) {
      if (isSessError(error) && error.code === 'NOT_FOUND') return noSuchPasskey(c);
      throw error;
    }
    c.get('logger').info({ event: 'accounts.passkey.removed', userId: session.userId }, 'passkey removed');
    return page(c, 200, { notice: messagesOf(c).t('account.passkeys.removed') });
  });

  // "Sign in with a passkey": before sign-in, so the CSRF token is the pre-sign-in cookie's.
  app.post(PASSKEY_PATHS.signInOptions, async (c) => {
    const limited = overIpLimit(c, perIp, clientIp(c));
    if (limited) return limited;
    if (!checkAnonymousCsrf(c, deps.secret, PURPOSE.signIn, c.req.header(CSRF_HEADER))) {
      return jsonError(c, 403, 'FORBIDDEN', passkeyRefusalText(messagesOf(c), 'page_expired'));
    }
    return c.json(await startPasskeySignIn(deps.db, rp, deps.now()), 200, { 'Cache-Control': 'no-store' });
  });

  app.post(PASSKEY_PATHS.signIn, async (c) => {
    const limited = overIpLimit(c, perIp, clientIp(c));
    if (limited) return limited;
    if (!checkAnonymousCsrf(c, deps.secret, PURPOSE.signIn, c.req.header(CSRF_HEADER))) {
      return jsonError(c, 403, 'FORBIDDEN', passkeyRefusalText(messagesOf(c), 'page_expired'));
    }
    const body = await readJson(c);
    if (body instanceof Response) return body;
    const returnTo = safeReturnTo(typeof body.return_to === 'string' ? body.return_to : undefined);
    const now = deps.now();
    const verified = await finishPasskeySignIn(deps.db, rp, { response: body.response, now, accountLimit });
    if (!verified.ok) return refusal(c, 'sign_in', verified);
    // The same browser session as a password sign-in: rotated, the same cookie.
    const previous = await readBrowserSession(deps.db, c.req.header('cookie'), now);
    const session = await createBrowserSession(deps.db, { userId: verified.userId, now, replaceSessionId: previous?.sessionId });
    c.get('logger').info({ event: 'accounts.signin.succeeded', userId: verified.userId, method: 'passkey' }, 'signed in');
    void sweep();
    const headers = new Headers({ 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    headers.append('Set-Cookie', sessionCookie(session.token, session.expiresAt, now, secure));
    return new Response(JSON.stringify({ redirect: returnTo }), { status: 200, headers });
  });
}

/** The purpose of the CSRF token "Sign in with a passkey" carries on the sign-in page (the pre-sign-in cookie's). */
export const PASSKEY_SIGN_IN_PURPOSE = PURPOSE.signIn;

function noSuchPasskey(c: Context): Response {
  const m = messagesOf(c);
  return sendPage(c, 404, (nonce) =>
    renderMessagePage(
      {
        title: m.t('account.passkeys.notFoundTitle'),
        message: m.t('account.passkeys.notFoundMessage'),
        link: { href: PASSKEY_PATHS.page, label: m.t('account.overview.link.passkeys') },
        tone: 'error',
      },
      nonce,
    ),
  );
}
