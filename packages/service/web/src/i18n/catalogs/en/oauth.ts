/** The OAuth pages' messages (ICU message syntax): consent, connected apps, refused requests. */
export const oauth = {
  'oauth.client.unverified': '(unverified name)',
  'oauth.client.identity': '({host})',

  'oauth.consent.title': 'Allow {app} to use Sess?',
  'oauth.consent.canDo': 'It will be able to:',
  'oauth.consent.inWorkspace': 'In workspace {workspace}.',
  'oauth.consent.workspace': 'Workspace',
  'oauth.consent.workspaceHint': 'The app works in the workspace you choose, and only in it.',
  'oauth.consent.redirectLoopback':
    'It sends you back to this computer ({host}). Allow only if you just started connecting from an app on this computer.',
  'oauth.consent.redirect':
    '{kind, select, app {It sends you back to {host} (an app on this device).} other {It sends you back to {host}.}}',
  'oauth.consent.allow': 'Allow',
  'oauth.consent.deny': 'Deny',
  'oauth.consent.unverifiedNote': 'This app chose its own name, “{app}”, when it registered; Sess has not checked it.',
  'oauth.consent.disconnectLater': 'You can disconnect it at any time under Account → Connected apps.',
  'oauth.consent.chooseWorkspace': 'Choose one of your workspaces.',

  'oauth.scope.interact': 'Send you forms and questions to answer, read your answers, and update or close them.',

  'oauth.apps.title': 'Connected apps',
  'oauth.apps.none': 'No apps are connected. When you choose Allow in an app such as Claude or Cursor, it shows up here.',
  'oauth.apps.some':
    '{count, plural, one {This app can use Sess as you. Disconnect it and it stops working at once.} other {These # apps can use Sess as you. Disconnect one and it stops working at once.}}',
  'oauth.apps.workspace': 'Workspace',
  'oauth.apps.redirects': 'Sends you back to',
  'oauth.apps.can': 'Can',
  'oauth.apps.connected': 'Connected',
  'oauth.apps.lastUsed': 'Last used',
  'oauth.apps.never': 'Never',
  'oauth.apps.disconnect': 'Disconnect',
  'oauth.apps.disconnectLabel': 'Disconnect {app} from {workspace}',
  'oauth.apps.disconnected': 'Disconnected. The app can no longer use Sess.',
  'oauth.apps.back': 'Back to your account',

  'oauth.error.clientTitle': 'This app cannot connect',
  'oauth.error.client': 'Sess could not confirm which app this is, so it cannot connect.',
  'oauth.error.requestTitle': 'This connection request cannot be used',
  'oauth.error.request': 'The app sent a connection request that Sess cannot accept.',
  'oauth.error.busyTitle': 'Too many new apps at once',
  'oauth.error.busy':
    'Sess has looked up too many new apps for your network in the last minute. Try again in {minutes, plural, one {# minute} other {# minutes}}.',
  'oauth.error.noWorkspace': 'Your account has no workspace, so there is nothing to connect an app to.',
  'oauth.error.formExpired':
    'This consent form had expired or did not come from Sess, so nothing was allowed. Start connecting again from the app.',
  'oauth.error.noDecision': 'Choose Allow or Deny.',
  'oauth.error.detail': 'Details for the app’s makers:',
  'oauth.error.next': 'Go back to the app and start connecting again. If this keeps happening, tell the app’s makers.',
  'oauth.error.unchangedTitle': 'Nothing was changed',
  'oauth.error.badForm': 'The form could not be read.',
  'oauth.error.pageExpired':
    'This page had expired (or the request did not come from it). Go back, reload the page and try again.',
  'oauth.error.noSuchAppTitle': 'No such connected app',
  'oauth.error.noSuchApp': 'This app is not connected to your account (it may already be disconnected).',
  'oauth.error.backToApps': 'Back to connected apps',
} as const;
