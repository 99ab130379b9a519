import { readBrowserSession } from '@sess/accounts';
import { checkCsrfToken, csrfToken } from '@sess/core';
import {
  type ConnectedAppsView,
  type MessageKey,
  OAUTH_FORM_FIELDS,
  renderConnectedAppsPage,
  renderOAuthErrorPage,
} from '@sess/web';
import type { Context, Hono } from 'hono';
import { displayRedirectHost } from '../clients/redirect-uri.ts';
import { isOAuthError } from '../errors/oauth-error.ts';
import { disconnectConnectedApp } from '../grants/disconnect-connected-app.ts';
import { listConnectedApps } from '../grants/list-connected-apps.ts';
import { describeScope } from '../scope.ts';
import type { OAuthEnv } from './deps.ts';
import { readFormBody } from './form-body.ts';
import { clientView, type OAuthServer } from './oauth-server.ts';
import { oauthPageLanguage, seeOther, sendPage, signedInPageLanguage } from './respond.ts';

export const CONNECTED_APPS_PATH = '/account/apps';
const DISCONNECT_PATH = '/account/apps/disconnect';
const DISCONNECT_PURPOSE = 'oauth:disconnect';

/**
 * `/account/apps`: the person's connected apps, one row per app × workspace (client, redirect
 * hosts, what it can do, workspace, connected and last used) with Disconnect, which revokes at
 * once every grant the row stands for.
 */
export function mountConnectedAppsRoutes(app: Hono<OAuthEnv>, server: OAuthServer): void {
  const { deps } = server;
  const db = deps.database.db;
  const signIn = () => seeOther(`/signin?return_to=${encodeURIComponent(CONNECTED_APPS_PATH)}`);
  /** A refused disconnect, in the person's language, with the way back to the list. */
  const message = (c: Context<OAuthEnv>, status: number, title: MessageKey, text: MessageKey, detail?: string) => {
    const language = oauthPageLanguage(c, { requestPath: CONNECTED_APPS_PATH });
    const m = language.messages;
    const view = {
      title: m.t(title),
      message: m.t(text),
      ...(detail ? { detail } : {}),
      back: { href: CONNECTED_APPS_PATH, label: m.t('oauth.error.backToApps') },
    };
    return sendPage(status, (nonce) => renderOAuthErrorPage(view, nonce), { language });
  };

  app.get(CONNECTED_APPS_PATH, async (c) => {
    const session = await readBrowserSession(db, c.req.header('cookie'), deps.now());
    if (!session) return signIn();
    const apps = await listConnectedApps(db, session.userId);
    const language = await signedInPageLanguage(c, db, session);
    const m = language.messages;
    const view: ConnectedAppsView = {
      email: session.email,
      apps: apps.map((app) => ({
        app: app.appKey,
        workspaceId: app.workspaceId,
        client: clientView({ id: app.clientId, kind: app.clientKind, clientName: app.clientName }),
        redirectHosts: [...new Set(app.redirectUris.map(displayRedirectHost))],
        workspaceName: app.workspaceName,
        permissions: app.scopes.map((scope) => describeScope(scope, m)),
        connectedAt: app.connectedAt,
        lastUsedAt: app.lastUsedAt,
      })),
      csrf: {
        disconnect: csrfToken(deps.secret, session.sessionId, DISCONNECT_PURPOSE),
        signout: csrfToken(deps.secret, session.sessionId, 'signout'),
      },
      ...(c.req.query('disconnected') === '1' ? { notice: m.t('oauth.apps.disconnected') } : {}),
    };
    return sendPage(200, (nonce) => renderConnectedAppsPage(view, nonce), { language });
  });

  app.post(DISCONNECT_PATH, async (c) => {
    let form: URLSearchParams;
    try {
      form = await readFormBody(c, 16 * 1024);
    } catch (error) {
      if (!isOAuthError(error)) throw error;
      return message(c, 400, 'oauth.error.unchangedTitle', 'oauth.error.badForm', error.description);
    }
    const session = await readBrowserSession(db, c.req.header('cookie'), deps.now());
    if (!session) return signIn();
    if (!checkCsrfToken(deps.secret, session.sessionId, DISCONNECT_PURPOSE, form.get(OAUTH_FORM_FIELDS.csrf))) {
      return message(c, 403, 'oauth.error.unchangedTitle', 'oauth.error.pageExpired');
    }
    const appKey = form.get(OAUTH_FORM_FIELDS.app) ?? '';
    const workspaceId = form.get(OAUTH_FORM_FIELDS.workspace) ?? '';
    const revoked = await disconnectConnectedApp(db, { userId: session.userId, workspaceId, appKey, now: deps.now() });
    if (revoked === 0) return message(c, 404, 'oauth.error.noSuchAppTitle', 'oauth.error.noSuchApp');
    // The app key holds a name the app chose; the log gets only ids and the count.
    c.get('logger').info(
      { event: 'oauth.grant.disconnected', workspaceId, grants: revoked, userId: session.userId },
      'app disconnected',
    );
    return seeOther(`${CONNECTED_APPS_PATH}?disconnected=1`);
  });
}
