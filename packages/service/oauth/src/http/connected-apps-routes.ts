import { readBrowserSession } from '@sess/accounts';
import { checkCsrfToken, csrfToken } from '@sess/core';
import { type ConnectedAppsView, OAUTH_FORM_FIELDS, renderConnectedAppsPage, renderOAuthErrorPage } from '@sess/web';
import type { Hono } from 'hono';
import { displayRedirectHost } from '../clients/redirect-uri.ts';
import { isOAuthError } from '../errors/oauth-error.ts';
import { disconnectConnectedApp } from '../grants/disconnect-connected-app.ts';
import { listConnectedApps } from '../grants/list-connected-apps.ts';
import { describeScope } from '../scope.ts';
import type { OAuthEnv } from './deps.ts';
import { readFormBody } from './form-body.ts';
import { clientView, type OAuthServer } from './oauth-server.ts';
import { seeOther, sendPage } from './respond.ts';

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
  const message = (status: number, title: string, text: string) =>
    sendPage(status, (nonce) => renderOAuthErrorPage({ title, message: text }, nonce));

  app.get(CONNECTED_APPS_PATH, async (c) => {
    const session = await readBrowserSession(db, c.req.header('cookie'), deps.now());
    if (!session) return signIn();
    const apps = await listConnectedApps(db, session.userId);
    const view: ConnectedAppsView = {
      email: session.email,
      apps: apps.map((app) => ({
        app: app.appKey,
        workspaceId: app.workspaceId,
        client: clientView({ id: app.clientId, kind: app.clientKind, clientName: app.clientName }),
        redirectHosts: [...new Set(app.redirectUris.map(displayRedirectHost))],
        workspaceName: app.workspaceName,
        permissions: app.scopes.map(describeScope),
        connectedAt: app.connectedAt,
        lastUsedAt: app.lastUsedAt,
      })),
      csrf: {
        disconnect: csrfToken(deps.secret, session.sessionId, DISCONNECT_PURPOSE),
        signout: csrfToken(deps.secret, session.sessionId, 'signout'),
      },
      ...(c.req.query('disconnected') === '1' ? { notice: 'Disconnected. The app can no longer use Sess.' } : {}),
    };
    return sendPage(200, (nonce) => renderConnectedAppsPage(view, nonce));
  });

  app.post(DISCONNECT_PATH, async (c) => {
    let form: URLSearchParams;
    try {
      form = await readFormBody(c, 16 * 1024);
    } catch (error) {
      if (!isOAuthError(error)) throw error;
      return message(400, 'Nothing was changed', error.description);
    }
    const session = await readBrowserSession(db, c.req.header('cookie'), deps.now());
    if (!session) return signIn();
    if (!checkCsrfToken(deps.secret, session.sessionId, DISCONNECT_PURPOSE, form.get(OAUTH_FORM_FIELDS.csrf))) {
      return message(
        403,
        'Nothing was changed',
        'This page had expired (or the request did not come from it). Go back, reload the page and try again.',
      );
    }
    const appKey = form.get(OAUTH_FORM_FIELDS.app) ?? '';
    const workspaceId = form.get(OAUTH_FORM_FIELDS.workspace) ?? '';
    const revoked = await disconnectConnectedApp(db, { userId: session.userId, workspaceId, appKey, now: deps.now() });
    if (revoked === 0)
      return message(404, 'No such connected app', 'This app is not connected to your account (it may already be disconnected).');
    // The app key holds a name the app chose; the log gets only ids and the count.
    c.get('logger').info(
      { event: 'oauth.grant.disconnected', workspaceId, grants: revoked, userId: session.userId },
      'app disconnected',
    );
    return seeOther(`${CONNECTED_APPS_PATH}?disconnected=1`);
  });
}
