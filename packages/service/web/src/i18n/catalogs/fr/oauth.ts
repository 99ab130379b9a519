import type { Translation } from '../../catalog-types.ts';
import type { oauth as en } from '../en/oauth.ts';

export const oauth = {
  'oauth.client.unverified': '(nom non vérifié)',
  'oauth.client.identity': '({host})',

  'oauth.consent.title': 'Autoriser {app} à utiliser Sess ?',
  'oauth.consent.canDo': 'Elle pourra :',
  'oauth.consent.inWorkspace': 'Dans l’espace de travail {workspace}.',
  'oauth.consent.workspace': 'Espace de travail',
  'oauth.consent.workspaceHint':
    'L’application fonctionne dans l’espace de travail que vous choisissez, et uniquement dans celui-ci.',
  'oauth.consent.redirectLoopback':
    'Vous serez ensuite renvoyé vers cet ordinateur ({host}). N’autorisez que si vous venez de lancer la connexion depuis une application de cet ordinateur.',
  'oauth.consent.redirect':
    '{kind, select, app {Vous serez ensuite renvoyé vers {host} (une application de cet appareil).} other {Vous serez ensuite renvoyé vers {host}.}}',
  'oauth.consent.allow': 'Autoriser',
  'oauth.consent.deny': 'Refuser',
  'oauth.consent.unverifiedNote':
    'Cette application a choisi elle-même son nom, « {app} », lors de son inscription ; Sess ne l’a pas vérifié.',
  'oauth.consent.disconnectLater': 'Vous pouvez la déconnecter à tout moment dans Compte → Applications connectées.',
  'oauth.consent.chooseWorkspace': 'Choisissez l’un de vos espaces de travail.',

  'oauth.scope.interact':
    'Vous envoyer des formulaires et des questions, lire vos réponses, puis les mettre à jour ou les clore.',

  'oauth.apps.title': 'Applications connectées',
  'oauth.apps.none':
    'Aucune application n’est connectée. Lorsque vous autorisez une application comme Claude ou Cursor, elle apparaît ici.',
  'oauth.apps.some':
    '{count, plural, one {Cette application peut utiliser Sess en votre nom. Si vous la déconnectez, elle cesse aussitôt de fonctionner.} many {Ces # applications peuvent utiliser Sess en votre nom. Si vous en déconnectez une, elle cesse aussitôt de fonctionner.} other {Ces # applications peuvent utiliser Sess en votre nom. Si vous en déconnectez une, elle cesse aussitôt de fonctionner.}}',
  'oauth.apps.workspace': 'Espace de travail',
  'oauth.apps.redirects': 'Vous renvoie vers',
  'oauth.apps.can': 'Peut',
  'oauth.apps.connected': 'Connectée le',
  'oauth.apps.lastUsed': 'Dernière utilisation',
  'oauth.apps.never': 'Jamais',
  'oauth.apps.disconnect': 'Déconnecter',
  'oauth.apps.disconnectLabel': 'Déconnecter {app} de {workspace}',
  'oauth.apps.disconnected': 'Déconnectée. L’application ne peut plus utiliser Sess.',
  'oauth.apps.back': 'Retour à votre compte',

  'oauth.error.clientTitle': 'Cette application ne peut pas se connecter',
  'oauth.error.client': 'Sess n’a pas pu confirmer de quelle application il s’agit ; elle ne peut donc pas se connecter.',
  'oauth.error.requestTitle': 'Cette demande de connexion est inutilisable',
  'oauth.error.request': 'L’application a envoyé une demande de connexion que Sess ne peut pas accepter.',
  'oauth.error.busyTitle': 'Trop de nouvelles applications à la fois',
  'oauth.error.busy':
    'Sess a consulté trop de nouvelles applications pour votre réseau au cours de la dernière minute. Réessayez dans {minutes, plural, one {# minute} many {# minutes} other {# minutes}}.',
  'oauth.error.noWorkspace': 'Votre compte n’a aucun espace de travail : il n’y a rien à quoi connecter une application.',
  'oauth.error.formExpired':
    'Ce formulaire avait expiré ou ne venait pas de Sess ; rien n’a donc été autorisé. Relancez la connexion depuis l’application.',
  'oauth.error.noDecision': 'Choisissez « Autoriser » ou « Refuser ».',
  'oauth.error.detail': 'Détails pour les développeurs de l’application :',
  'oauth.error.next':
    'Retournez dans l’application et relancez la connexion. Si le problème persiste, signalez-le aux développeurs de l’application.',
  'oauth.error.unchangedTitle': 'Rien n’a été modifié',
  'oauth.error.badForm': 'Le formulaire n’a pas pu être lu.',
  'oauth.error.pageExpired':
    'Cette page avait expiré (ou la demande ne venait pas d’elle). Revenez en arrière, rechargez la page et réessayez.',
  'oauth.error.noSuchAppTitle': 'Application connectée introuvable',
  'oauth.error.noSuchApp': 'Cette application n’est pas connectée à votre compte (elle est peut-être déjà déconnectée).',
  'oauth.error.backToApps': 'Retour aux applications connectées',
} as const satisfies Translation<typeof en>;
