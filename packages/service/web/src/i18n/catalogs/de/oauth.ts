import type { Translation } from '../../catalog-types.ts';
import type { oauth as en } from '../en/oauth.ts';

export const oauth = {
  'oauth.client.unverified': '(Name nicht geprüft)',
  'oauth.client.identity': '({host})',

  'oauth.consent.title': '{app} Zugriff auf Sess erlauben?',
  'oauth.consent.canDo': 'Die App kann dann:',
  'oauth.consent.inWorkspace': 'Im Arbeitsbereich {workspace}.',
  'oauth.consent.workspace': 'Arbeitsbereich',
  'oauth.consent.workspaceHint': 'Die App arbeitet nur in dem Arbeitsbereich, den Sie wählen.',
  'oauth.consent.redirectLoopback':
    'Danach geht es zurück zu diesem Computer ({host}). Erlauben Sie den Zugriff nur, wenn Sie die Verbindung gerade selbst in einer App auf diesem Computer gestartet haben.',
  'oauth.consent.redirect':
    '{kind, select, app {Danach geht es zurück zu {host} (einer App auf diesem Gerät).} other {Danach geht es zurück zu {host}.}}',
  'oauth.consent.allow': 'Erlauben',
  'oauth.consent.deny': 'Ablehnen',
  'oauth.consent.unverifiedNote':
    'Diese App hat ihren Namen „{app}“ bei der Registrierung selbst gewählt; Sess hat ihn nicht geprüft.',
  'oauth.consent.disconnectLater': 'Sie können die Verbindung jederzeit unter Konto → Verbundene Apps trennen.',
  'oauth.consent.chooseWorkspace': 'Wählen Sie einen Ihrer Arbeitsbereiche.',

  'oauth.scope.interact':
    'Ihnen Formulare und Fragen zur Beantwortung senden, Ihre Antworten lesen und die Anfragen ändern oder schließen.',

  'oauth.apps.title': 'Verbundene Apps',
  'oauth.apps.none':
    'Es sind keine Apps verbunden. Sobald Sie einer App wie Claude oder Cursor den Zugriff erlauben, erscheint sie hier.',
  'oauth.apps.some':
    '{count, plural, one {Diese App kann Sess in Ihrem Namen nutzen. Wenn Sie sie trennen, funktioniert sie sofort nicht mehr.} other {Diese # Apps können Sess in Ihrem Namen nutzen. Wenn Sie eine trennen, funktioniert sie sofort nicht mehr.}}',
  'oauth.apps.workspace': 'Arbeitsbereich',
  'oauth.apps.redirects': 'Leitet zurück zu',
  'oauth.apps.can': 'Darf',
  'oauth.apps.connected': 'Verbunden am',
  'oauth.apps.lastUsed': 'Zuletzt genutzt',
  'oauth.apps.never': 'Nie',
  'oauth.apps.disconnect': 'Trennen',
  'oauth.apps.disconnectLabel': '{app} von {workspace} trennen',
  'oauth.apps.disconnected': 'Getrennt. Die App kann Sess nicht mehr nutzen.',
  'oauth.apps.back': 'Zurück zu Ihrem Konto',

  'oauth.error.clientTitle': 'Diese App kann sich nicht verbinden',
  'oauth.error.client': 'Sess konnte nicht feststellen, um welche App es sich handelt, daher kann sie sich nicht verbinden.',
  'oauth.error.requestTitle': 'Diese Verbindungsanfrage ist nicht verwendbar',
  'oauth.error.request': 'Die App hat eine Verbindungsanfrage gesendet, die Sess nicht annehmen kann.',
  'oauth.error.busyTitle': 'Zu viele neue Apps auf einmal',
  'oauth.error.busy':
    'Sess hat in der letzten Minute zu viele neue Apps für Ihr Netzwerk nachgeschlagen. Versuchen Sie es in {minutes, plural, one {einer Minute} other {# Minuten}} erneut.',
  'oauth.error.noWorkspace': 'Ihr Konto hat keinen Arbeitsbereich, mit dem sich eine App verbinden könnte.',
  'oauth.error.formExpired':
    'Dieses Formular war abgelaufen oder stammte nicht von Sess, daher wurde nichts erlaubt. Starten Sie die Verbindung in der App erneut.',
  'oauth.error.noDecision': 'Wählen Sie „Erlauben“ oder „Ablehnen“.',
  'oauth.error.detail': 'Details für die Entwickler der App:',
  'oauth.error.next':
    'Gehen Sie zurück zur App und starten Sie die Verbindung erneut. Wenn das immer wieder passiert, wenden Sie sich an die Entwickler der App.',
  'oauth.error.unchangedTitle': 'Es wurde nichts geändert',
  'oauth.error.badForm': 'Das Formular konnte nicht gelesen werden.',
  'oauth.error.pageExpired':
    'Diese Seite war abgelaufen (oder die Anfrage kam nicht von ihr). Gehen Sie zurück, laden Sie die Seite neu und versuchen Sie es noch einmal.',
  'oauth.error.noSuchAppTitle': 'Keine solche verbundene App',
  'oauth.error.noSuchApp': 'Diese App ist nicht mit Ihrem Konto verbunden (vielleicht wurde sie schon getrennt).',
  'oauth.error.backToApps': 'Zurück zu den verbundenen Apps',
} as const satisfies Translation<typeof en>;
