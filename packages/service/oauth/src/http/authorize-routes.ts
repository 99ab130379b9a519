import { createHash } from 'node:crypto';
import { type BrowserSession, listWorkspacesForUser, readBrowserSession } from '@sess/accounts';
import { checkCsrfToken, csrfToken } from '@sess/core';
import {
  type ConsentView,
  type MessageKey,
  OAUTH_FORM_FIELDS,
  renderConsentPage,
  renderOAuthErrorPage,
  withoutPicker,
} from '@sess/web';
import type { Context, Hono } from 'hono';
import {
  type AuthorizationRequest,
  checkAuthorizationParameters,
  checkClientAndRedirect,
  type TrustedTarget,
} from '../authorize/validate-authorization-request.ts';
import { authorizationResponseUrl, errorResponseUrl } from '../authorize/verified-redirect.ts';
import { CimdFetchLimitError } from '../cimd/fetch-limit-error.ts';
import { formActionSource } from '../clients/redirect-uri.ts';
import { createAuthorizationCode } from '../codes/create-authorization-code.ts';
import { isOAuthError, OAuthError } from '../errors/oauth-error.ts';
import { issueGrant } from '../grants/issue-grant.ts';
import { describeScope, formatScope } from '../scope.ts';
import type { OAuthEnv } from './deps.ts';
import { readFormBody } from './form-body.ts';
import { clientView, type OAuthServer, redirectView } from './oauth-server.ts';
import { oauthPageLanguage, seeOther, sendPage, signedInPageLanguage } from './respond.ts';

const CONSENT_ACTION = '/oauth/authorize';
const MAX_FORM_BYTES = 32 * 1024;

/**
 * The consent form's CSRF purpose: bound to the browser session (by `csrfToken`) and to this
 * exact authorization request, so a token taken from one consent page cannot approve another.
 */
function consentPurpose(requestQuery: string): string {
  return `oauth:consent:${createHash('sha256').update(requestQuery, 'utf8').digest('base64url')}`;
}

/** Where the page of `requestQuery` is (the picker's links of a page drawn for a posted form go back to it). */
const requestPath = (requestQuery: string) => `${CONSENT_ACTION}?${requestQuery}`;

/**
 * A request refused before its redirect URI is trusted: a page, never a redirect, in the
 * person's language; the OAuth error's description goes below, for the app's makers. The page
 * has no language links: they would carry the request, and its untrusted redirect address, on.
 */
function errorPage(c: Context<OAuthEnv>, error: OAuthError, status = 400): Response {
  const language = withoutPicker(oauthPageLanguage(c));
  const m = language.messages;
  const client = error.code === 'invalid_client';
  const view = {
    title: m.t(client ? 'oauth.error.clientTitle' : 'oauth.error.requestTitle'),
    message: m.t(client ? 'oauth.error.client' : 'oauth.error.request'),
    detail: error.description,
  };
  return sendPage(status, (nonce) => renderOAuthErrorPage(view, nonce), { language });
}

/** A request Sess itself turns down for the person (Sess's own words, nothing for the app's makers). */
function refusalPage(c: Context<OAuthEnv>, status: number, message: MessageKey, requestQuery: string): Response {
  const language = oauthPageLanguage(c, { requestPath: requestPath(requestQuery) });
  const m = language.messages;
  const view = { title: m.t('oauth.error.requestTitle'), message: m.t(message) };
  return sendPage(status, (nonce) => renderOAuthErrorPage(view, nonce), { language });
}

/**
 * Too many new metadata documents fetched for this address: 429 with `Retry-After`, and still a
 * page, never a redirect, because the redirect URI could not be verified without the document.
 * @see https://www.rfc-editor.org/rfc/rfc6585#section-4
 */
function fetchLimitPage(c: Context<OAuthEnv>, error: CimdFetchLimitError): Response {
  const language = withoutPicker(oauthPageLanguage(c));
  const m = language.messages;
  const view = {
    title: m.t('oauth.error.busyTitle'),
    message: m.t('oauth.error.busy', { minutes: Math.max(1, Math.ceil(error.retryAfterSeconds / 60)) }),
  };
  return sendPage(429, (nonce) => renderOAuthErrorPage(view, nonce), {
    language,
    headers: { 'Retry-After': String(error.retryAfterSeconds) },
  });
}

/** A refusal sent back to the verified redirect URI, with `state` and `iss`. */
function redirectError(server: OAuthServer, target: TrustedTarget, error: OAuthError): Response {
  return seeOther(errorResponseUrl(target.redirect, error, target.state, server.urls.issuer));
}

/**
 * `/oauth/authorize` (and `/authorize`, the 2025-03-26 default): the authorization endpoint and
 * its consent form. Every request runs the same ordered checks (phase 1 untrusted: client and
 * redirect URI → pages; phase 2: response type, PKCE, resource, scope, prompt → redirected
 * errors), then sign-in if needed, then the consent page. The form posts back here with the
 * request, the CSRF token, the workspace and Allow or Deny.
 * @see https://datatracker.ietf.org/doc/html/draft-ietf-oauth-v2-1-13#section-4.1
 */
export function mountAuthorizeRoutes(app: Hono<OAuthEnv>, server: OAuthServer, paths: string[]): void {
  const { deps, urls } = server;
  const db = deps.database.db;

  async function check(
    c: Context<OAuthEnv>,
    requestQuery: string,
  ): Promise<Response | { target: TrustedTarget; request: AuthorizationRequest }> {
    const params = new URLSearchParams(requestQuery);
    let target: TrustedTarget;
    try {
      target = await checkClientAndRedirect(params, (clientId) => server.resolveClient(c, clientId));
    } catch (error) {
      if (!isOAuthError(error)) throw error;
      c.get('logger').info(
        { event: 'oauth.authorize.refused', error: error.code, description: error.description, ...error.logDetails },
        'authorization request refused (page)',
      );
      return error instanceof CimdFetchLimitError ? fetchLimitPage(c, error) : errorPage(c, error);
    }
    try {
      return { target, request: checkAuthorizationParameters(params, target, urls.resource) };
    } catch (error) {
      if (!isOAuthError(error)) throw error;
      c.get('logger').info(
        { event: 'oauth.authorize.refused', error: error.code, clientId: target.client.id },
        'authorization request refused (redirect)',
      );
      return redirectError(server, target, error);
    }
  }

  async function consentPage(
    c: Context<OAuthEnv>,
    session: BrowserSession,
    request: AuthorizationRequest,
    requestQuery: string,
    status: number,
    error?: MessageKey,
  ) {
    const workspaces = await listWorkspacesForUser(db, session.userId);
    if (workspaces.length === 0) return refusalPage(c, 403, 'oauth.error.noWorkspace', requestQuery);
    const language = await signedInPageLanguage(c, db, session, { requestPath: requestPath(requestQuery) });
    const m = language.messages;
    const view: ConsentView = {
      email: session.email,
      client: clientView(request.client),
      redirect: redirectView(request.redirect.uri),
      permissions: request.scopes.map((scope) => describeScope(scope, m)),
      workspaces: workspaces.map(({ id, name }) => ({ id, name })),
      form: {
        action: CONSENT_ACTION,
        request: requestQuery,
        csrf: csrfToken(deps.secret, session.sessionId, consentPurpose(requestQuery)),
      },
      signoutCsrf: csrfToken(deps.secret, session.sessionId, 'signout'),
      ...(error ? { error: m.t(error) } : {}),
    };
    // Chrome applies form-action to the redirect that follows the post: allow the client's target.
    return sendPage(status, (nonce) => renderConsentPage(view, nonce), {
      formAction: ["'self'", formActionSource(request.redirect.uri)],
      language,
    });
  }

  const signIn = (requestQuery: string) =>
    seeOther(`/signin?return_to=${encodeURIComponent(`${CONSENT_ACTION}?${requestQuery}`)}`);

  for (const path of paths) {
    app.get(path, async (c) => {
      const requestQuery = new URL(c.req.url).search.slice(1);
      const checked = await check(c, requestQuery);
      if (checked instanceof Response) return checked;
      const { target, request } = checked;
      const session = await readBrowserSession(db, c.req.header('cookie'), deps.now());
      if (!session) {
        if (request.prompt === 'none')
          return redirectError(server, target, new OAuthError('login_required', 'The person is not signed in to Sess.'));
        return signIn(requestQuery);
      }
      if (request.prompt === 'none')
        return redirectError(
          server,
          target,
          new OAuthError('consent_required', 'Sess asks the person every time an app connects.'),
        );
      return consentPage(c, session, request, requestQuery, 200);
    });

    app.post(path, async (c) => {
      const logger = c.get('logger');
      let form: URLSearchParams;
      try {
        form = await readFormBody(c, MAX_FORM_BYTES);
      } catch (error) {
        if (!isOAuthError(error)) throw error;
        return errorPage(c, error);
      }
      const requestQuery = form.get(OAUTH_FORM_FIELDS.request) ?? '';
      const checked = await check(c, requestQuery);
      if (checked instanceof Response) return checked;
      const { target, request } = checked;
      const session = await readBrowserSession(db, c.req.header('cookie'), deps.now());
      if (!session) return signIn(requestQuery);
      if (!checkCsrfToken(deps.secret, session.sessionId, consentPurpose(requestQuery), form.get(OAUTH_FORM_FIELDS.csrf))) {
        logger.warn(
          { event: 'oauth.consent.csrf_refused', clientId: request.client.id },
          'consent form without a valid CSRF token',
        );
        return refusalPage(c, 403, 'oauth.error.formExpired', requestQuery);
      }
      const decision = form.get(OAUTH_FORM_FIELDS.decision);
      if (decision === 'deny') {
        logger.info({ event: 'oauth.consent.denied', clientId: request.client.id, userId: session.userId }, 'consent denied');
        return redirectError(server, target, new OAuthError('access_denied', 'The person chose Deny.'));
      }
      if (decision !== 'allow') return refusalPage(c, 400, 'oauth.error.noDecision', requestQuery);
      const workspaceId = form.get(OAUTH_FORM_FIELDS.workspace) ?? '';
      const workspaces = await listWorkspacesForUser(db, session.userId);
      if (!workspaces.some((workspace) => workspace.id === workspaceId)) {
        return consentPage(c, session, request, requestQuery, 400, 'oauth.consent.chooseWorkspace');
      }
      const now = deps.now();
      const scope = formatScope(request.scopes);
      const { code, grant } = await db.transaction(async (tx) => {
        const grant = await issueGrant(tx, {
          userId: session.userId,
          workspaceId,
          clientId: request.client.id,
          scope,
          resource: request.resource,
          redirectUri: request.redirect.uri,
          now,
        });
        const code = await createAuthorizationCode(tx, {
          grantId: grant.grantId,
          grantGeneration: grant.generation,
          workspaceId,
          userId: session.userId,
          clientId: request.client.id,
          redirectUri: request.redirect.uri,
          redirectUriGiven: request.redirect.given,
          codeChallenge: request.codeChallenge,
          scope,
          resource: request.resource,
          now,
        });
        return { code, grant };
      });
      logger.info(
        {
          event: 'oauth.consent.allowed',
          clientId: request.client.id,
          userId: session.userId,
          workspaceId,
          grantId: grant.grantId,
          generation: grant.generation,
        },
        grant.reissued ? 'consent given again; grant re-issued' : 'consent given',
      );
      return seeOther(authorizationResponseUrl(request.redirect, { code, state: request.state, iss: urls.issuer }));
    });
  }
}
