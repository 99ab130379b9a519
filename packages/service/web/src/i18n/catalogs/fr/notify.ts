import type { Translation } from '../../catalog-types.ts';
import type { notify as en } from '../en/notify.ts';

export const notify = {
  'notify.message.form': 'Votre agent vous pose une question.',
  'notify.message.followUp': 'Votre agent a du nouveau à ce sujet.',
  'notify.message.reminder': 'Votre réponse est toujours attendue\u00a0; le lien expire bientôt.',
  'notify.message.askAnswer': 'Réponses reçues\u00a0: {answered, number} sur {max, number}.',
  'notify.message.askClosed': '{count, plural, one {Clôturé avec # réponse.} other {Clôturé avec # réponses.}}',
  'notify.message.askApproved':
    '{count, plural, one {Décision\u00a0: approuvé, avec # réponse.} other {Décision\u00a0: approuvé, avec # réponses.}}',
  'notify.message.askRejected':
    '{count, plural, one {Décision\u00a0: refusé, avec # réponse.} other {Décision\u00a0: refusé, avec # réponses.}}',
  'notify.mail.until': 'Le lien est valable jusqu’au {date}.',
  'notify.mail.inZone': '{time} ({zone})',
  'notify.mail.why':
    'Sess vous envoie ce message, car les notifications par e-mail sont activées pour votre compte. Vous pouvez les désactiver sur la page de votre compte.',

  'notify.page.title': 'Notifications · Sess',
  'notify.page.heading': 'Notifications',
  'notify.page.lead':
    'Quand un agent vous pose une question, Sess peut l’envoyer sur votre téléphone\u00a0: vous n’avez pas à y transférer le lien vous-même. Vous seul êtes notifié.',
  'notify.page.back': 'Retour à votre compte',
  'notify.status.added': 'Cet appareil est ajouté\u00a0: Sess lui enverra des notifications.',
  'notify.status.removed': 'Appareil supprimé. Il ne recevra plus de notifications.',
  'notify.status.saved': 'Paramètres enregistrés.',

  'notify.device.heading': 'Cet appareil',
  'notify.device.nameLabel': 'Nom de l’appareil',
  'notify.device.nameHint': 'Le nom sous lequel cet appareil apparaît ci-dessous. Vous pouvez le modifier.',
  'notify.device.button': 'Notifier cet appareil',
  'notify.device.iosTitle': 'Sur un iPhone ou un iPad, ajoutez d’abord Sess à votre écran d’accueil.',
  'notify.device.iosShare': 'Touchez Partager (le carré avec la flèche), puis Sur l’écran d’accueil.',
  'notify.device.iosOpen': 'Ouvrez Sess depuis votre écran d’accueil.',
  'notify.device.iosTap': 'Touchez-y «\u00a0Notifier cet appareil\u00a0».',
  'notify.device.iosVersion': 'Web Push nécessite iOS 16.4 ou une version ultérieure.',
  'notify.device.insecure':
    'Les navigateurs n’acceptent les notifications push que sur une page servie en HTTPS (ou par localhost sur ce même ordinateur). Ouvrez Sess à son adresse https:// pour ajouter cet appareil, ou comptez sur l’e-mail.',
  'notify.device.unsupported':
    'Ce navigateur ne peut pas recevoir de notifications push. Essayez un autre navigateur, ou comptez sur l’e-mail.',
  'notify.device.denied':
    'Les notifications sont bloquées pour ce site dans ce navigateur. Autorisez-les dans les paramètres du site du navigateur, puis rechargez cette page.',
  'notify.device.noScript': 'L’ajout d’un appareil nécessite JavaScript.',

  'notify.devices.heading': 'Vos appareils',
  'notify.devices.none': 'Aucun appareil pour l’instant.',
  'notify.devices.added': 'Ajouté le {date}',
  'notify.devices.lastDelivery': 'Dernière remise\u00a0: {date}',
  'notify.devices.noDelivery': 'Aucune remise pour l’instant',
  'notify.devices.lastFailure': 'Dernier échec\u00a0: {date}',
  'notify.devices.remove': 'Supprimer',
  'notify.devices.removeLabel': 'Supprimer {name}',

  'notify.settings.heading': 'Paramètres',
  'notify.settings.channels': 'Canaux',
  'notify.settings.push': 'Notifications push sur mes appareils',
  'notify.settings.email': 'E-mail',
  'notify.settings.emailHint': 'Le lien par e-mail quand aucun de vos appareils n’accepte de notification push.',
  'notify.settings.emailMissing':
    'L’e-mail nécessite les paramètres SMTP du serveur (SMTP_URL et une adresse d’expéditeur)\u00a0; ce serveur n’en a pas encore, aucun e-mail n’est donc envoyé.',
  'notify.settings.quiet': 'Heures calmes',
  'notify.settings.quietCheck': 'Retenir les notifications pendant les heures calmes',
  'notify.settings.quietHint': 'Elles sont envoyées à la fin des heures calmes, si le lien est toujours ouvert.',
  'notify.settings.from': 'De',
  'notify.settings.to': 'À',
  'notify.settings.timeZone': 'Fuseau horaire',
  'notify.settings.timeZoneHint': 'Par exemple Europe/Paris ou UTC.',
  'notify.settings.reminders': 'Rappels',
  'notify.settings.remindersCheck': 'Me le rappeler peu avant l’expiration d’un lien sans réponse',
  'notify.settings.ask': 'Nouvelles des Asks',
  'notify.settings.askHint':
    'Quand un Ask que votre agent a partagé avec d’autres personnes reçoit des réponses, me prévenir\u00a0:',
  'notify.settings.askEach': 'À chaque réponse',
  'notify.settings.askClosed': 'À sa clôture',
  'notify.settings.askOff': 'Jamais',
  'notify.settings.apiKeys': 'Clés d’API',
  'notify.settings.apiKeyCheck': 'Me prévenir aussi des formulaires créés avec les clés d’API de cet espace de travail',
  'notify.settings.apiKeyHint':
    'Pour les espaces de travail dont vous êtes propriétaire. Les formulaires que vos applications connectées créent pour vous vous sont toujours notifiés.',
  'notify.settings.save': 'Enregistrer les paramètres',

  'notify.error.quietStart': 'Les heures calmes ont besoin d’une heure de début, par exemple 22:00.',
  'notify.error.quietEnd': 'Les heures calmes ont besoin d’une heure de fin, par exemple 07:00.',
  'notify.error.quietSame': 'Les heures calmes doivent commencer et finir à des heures différentes.',
  'notify.error.timeZone': 'Indiquez un fuseau horaire comme Europe/Paris ou UTC.',
  'notify.error.askUpdates': 'Choisissez quand les nouvelles des Asks doivent vous parvenir.',
  'notify.error.expiredTitle': 'Rien n’a été modifié',
  'notify.error.expired': 'Cette page avait expiré (ou la requête ne venait pas d’elle). Rechargez-la et réessayez.',
  'notify.error.noDeviceTitle': 'Appareil introuvable',
  'notify.error.noDevice': 'Cet appareil ne figure pas dans votre liste (il a peut-être déjà été supprimé).',
  'notify.error.backToPage': 'Retour aux notifications',
  'notify.error.signIn': 'Connectez-vous d’abord à Sess.',
  'notify.error.subscription':
    'L’abonnement push de ce navigateur n’a pas pu être utilisé, l’appareil n’a donc pas été ajouté. Essayez un autre navigateur.',
  'notify.error.deviceName':
    'Le nom de l’appareil est trop long ou contient des caractères que Sess n’accepte pas. Raccourcissez-le et réessayez.',
  'notify.error.tooManyDevices':
    '{max, plural, one {Vous avez # appareil, le maximum que Sess conserve.} other {Vous avez # appareils, le maximum que Sess conserve.}} Supprimez-en un que vous n’utilisez plus, puis réessayez.',

  'notify.script.deviceName': '{browser} sur {system}',
  'notify.script.thisDevice': 'cet appareil',
  'notify.script.browser': 'Navigateur',
  'notify.script.notAllowed': 'Les notifications n’ont pas été autorisées, cet appareil n’a donc pas été ajouté.',
  'notify.script.adding': 'Ajout de cet appareil…',
  'notify.script.silent':
    'Le service push de votre navigateur n’a pas répondu dans les {seconds, number}\u00a0secondes, cet appareil n’a donc pas été ajouté. Vérifiez que l’appareil est connecté (un VPN, un pare-feu ou un bloqueur de contenu peut rendre le service push injoignable), puis touchez à nouveau «\u00a0Notifier cet appareil\u00a0».',
  'notify.script.subscribeFailed':
    'Ce navigateur n’a pas pu s’abonner aux messages push pour le moment. Réessayez, ou essayez un autre navigateur.',
  'notify.script.late':
    'Sess n’a pas répondu à temps, cet appareil n’a peut-être pas été ajouté. Rechargez la page pour le vérifier, et réessayez s’il n’apparaît pas.',
  'notify.script.unreachable':
    'Sess est injoignable, cet appareil n’a donc pas été ajouté. Vérifiez votre connexion et réessayez.',
  'notify.script.refused': 'Sess n’a pas pu ajouter cet appareil. Rechargez la page et réessayez.',
  'notify.script.failed': 'Un problème est survenu pendant l’ajout de cet appareil. Rechargez la page et réessayez.',
  'notify.error.endpointNotPublic':
    'Le service push de ce navigateur n’est pas à une adresse publique à laquelle Sess peut envoyer ; cet appareil n’a donc pas été ajouté. Essayez un autre navigateur.',
} as const satisfies Translation<typeof en>;
