import type { Translation } from '../../catalog-types.ts';
import type { answer as en } from '../en/answer.ts';

// French typography: a no-break space (\u00a0) before a colon and inside « ».
export const answer = {
  'answer.documentTitle': '{title} · Sess',
  'answer.title.error': 'Erreur\u00a0: {title}',
  'answer.title.passkey': 'Confirmez avec votre clé d’accès\u00a0: {title}',
  'answer.title.passkeyError': 'Erreur\u00a0: confirmez avec votre clé d’accès\u00a0: {title}',
  'answer.title.answered': 'Envoyé\u00a0: {title}',
  'answer.title.done': 'Terminé',
  'answer.title.doneWith': 'Terminé\u00a0: {title}',
  'answer.title.withdrawn': 'Retirée',
  'answer.title.decided': 'Déjà décidé',
  'answer.title.linkClosed': 'Lien fermé',
  'answer.title.lapsed': 'Délai écoulé\u00a0: {title}',
  'answer.title.notFound': 'Introuvable',
  'answer.title.refused': 'Page périmée',
  'answer.title.tooLarge': 'Trop volumineux pour être envoyé',
  'answer.title.unavailable': 'Réessayez',
  'answer.title.someoneElse': 'Ce formulaire est destiné à quelqu’un d’autre',
  'answer.title.noPasskey': 'Ajoutez une clé d’accès pour répondre',

  'answer.form.submit': 'Envoyer',
  'answer.form.required': '(obligatoire)',
  'answer.form.chooseAtLeastOne': '(choisissez-en au moins un)',
  'answer.form.errorLabel': 'Erreur\u00a0:',
  'answer.form.choose': 'Choisissez…',
  'answer.form.ratingLowest': '{value, number}\u00a0: le plus bas',
  'answer.form.ratingHighest': '{value, number}\u00a0: le plus haut',
  'answer.form.passkeyNext':
    'Après votre choix, votre appareil vous demande votre clé d’accès pour confirmer cette réponse\u00a0; rien n’est envoyé avant.',
  'answer.form.closesSoon': 'Ce lien se ferme dans moins d’une minute.',
  'answer.form.closesInMinutes':
    'Ce lien se ferme dans environ {minutes, plural, one {# minute} many {# minutes} other {# minutes}}.',
  'answer.form.closesInHours': 'Ce lien se ferme dans environ {hours, plural, one {# heure} many {# heures} other {# heures}}.',
  'answer.form.closesInDays': 'Ce lien se ferme dans environ {days, plural, one {# jour} many {# jours} other {# jours}}.',
  'answer.number.any': 'Un nombre, par exemple {example}.',
  'answer.number.between': 'Un nombre entre {min} et {max}.',
  'answer.number.atLeast': 'Un nombre supérieur ou égal à {min}.',
  'answer.number.atMost': 'Un nombre inférieur ou égal à {max}.',
  'answer.integer.any': 'Un nombre entier.',
  'answer.integer.between': 'Un nombre entier entre {min} et {max}.',
  'answer.integer.atLeast': 'Un nombre entier supérieur ou égal à {min}.',
  'answer.integer.atMost': 'Un nombre entier inférieur ou égal à {max}.',

  'answer.errors.heading': 'Il y a un problème',
  'answer.errors.item': '{label}\u00a0: {message}',
  'answer.error.required': 'Répondez à cette question pour continuer.',
  'answer.error.type':
    '{expected, select, text {Saisissez du texte.} number {Saisissez un nombre.} integer {Saisissez un nombre entier.} boolean {Cochez la case ou laissez-la vide.} list {Choisissez parmi les options.} other {Saisissez une valeur valide.}}',
  'answer.error.enum': 'Choisissez l’une des options.',
  'answer.error.duplicate': 'Choisissez chaque option une seule fois.',
  'answer.error.tooShort':
    'Saisissez au moins {limit, plural, one {# caractère} many {# caractères} other {# caractères}} (il y en a {length, number}).',
  'answer.error.tooLong':
    'Saisissez au plus {limit, plural, one {# caractère} many {# caractères} other {# caractères}} (il y en a {length, number}).',
  'answer.error.tooSmall': 'Saisissez {limit} ou plus.',
  'answer.error.tooBig': 'Saisissez {limit} ou moins.',
  'answer.error.tooFew': 'Choisissez-en au moins {limit, number}.',
  'answer.error.tooMany': 'Choisissez-en au plus {limit, number}.',
  'answer.error.pattern': 'Saisissez-le dans le format demandé.',
  'answer.error.format':
    '{format, select, email {Saisissez une adresse e-mail, par exemple nom@example.com.} uri {Saisissez une adresse web complète, par exemple https://example.com.} date {Saisissez une date, par exemple 2025-06-30.} dateTime {Saisissez une date et une heure, par exemple 2025-06-30T14:30.} time {Saisissez une heure, par exemple 14:30.} other {Saisissez une valeur valide.}}',
  'answer.error.character':
    'Ce texte contient {kind, select, control {un caractère de contrôle invisible} other {un caractère qui ne peut pas être enregistré}} ({codePoint}) à la position {position, number}. Supprimez-le et renvoyez votre réponse.',
  'answer.error.unknownField': 'Ce formulaire n’a pas ce champ. Rechargez la page et réessayez.',
  'answer.error.unknownAction': 'Ce bouton ne fait pas partie de ce formulaire. Rechargez la page et réessayez.',
  'answer.error.actionRequired': 'Choisissez l’un des boutons.',

  'answer.follow.newStep':
    'L’agent a envoyé une nouvelle étape\u00a0: ce formulaire ne peut donc plus être envoyé. Ce que vous avez saisi reste ici jusqu’à ce que vous chargiez la nouvelle étape.',
  'answer.follow.loadNewStep': 'Charger la nouvelle étape',
  'answer.follow.answered':
    'Cette question a déjà une réponse, envoyée depuis un autre onglet ou un autre appareil. C’est la première réponse envoyée qui est conservée.',
  'answer.follow.completed': 'L’agent en a terminé avec cette question\u00a0: elle n’accepte plus de réponses.',
  'answer.follow.withdrawn': 'L’agent a retiré cette question\u00a0: elle n’accepte plus de réponses.',
  'answer.follow.lapsed':
    'Le délai pour répondre est écoulé. Votre réponse ne peut être envoyée que si vous demandez plus de temps.',
  'answer.follow.expired': 'Ce lien est fermé\u00a0: il n’accepte plus de réponses.',
  'answer.follow.show': 'Afficher',
  'answer.follow.showWhatToDo': 'Voir que faire',

  'answer.status.keptFirst':
    'Cette question avait déjà une réponse, la vôtre n’a donc pas été envoyée\u00a0: c’est la première réponse envoyée qui est conservée.',
  'answer.status.sentHeading': 'Envoyé — en attente de l’étape suivante',
  'answer.status.keptHeading': 'Déjà répondu — en attente de l’étape suivante',
  'answer.status.sent': 'Votre réponse a été envoyée.',
  'answer.status.nextShowsInChat': 'L’étape suivante, s’il y en a une, s’affichera ici.',
  'answer.status.keepOpen': 'Gardez cette page ouverte\u00a0: l’étape suivante, s’il y en a une, s’affichera ici.',
  'answer.status.closeAndReopen': 'Vous pouvez aussi la fermer et rouvrir le lien plus tard.',
  'answer.status.checkNext': 'Vérifier s’il y a une étape suivante',
  'answer.status.yourAnswer': 'Votre réponse',
  'answer.status.answerKept': 'La réponse conservée',
  'answer.status.decided':
    '{decided, select, approved {La décision est prise\u00a0: approuvé.} other {La décision est prise\u00a0: refusé.}}',
  'answer.status.doneHeading': 'Terminé',
  'answer.status.doneYours': 'L’agent a reçu votre réponse. Il n’y a plus rien à faire\u00a0: vous pouvez fermer cette page.',
  'answer.status.doneKept': 'L’agent a reçu cette réponse. Il n’y a plus rien à faire\u00a0: vous pouvez fermer cette page.',
  'answer.status.withdrawnHeading': 'La question a été retirée',
  'answer.status.withdrawn':
    'L’agent n’a plus besoin de réponse ici. Il n’y a plus rien à faire\u00a0: vous pouvez fermer cette page.',
  'answer.status.decidedHeading': 'Déjà décidé',
  'answer.status.decidedNotNeeded': 'Votre réponse n’est plus nécessaire\u00a0: vous pouvez fermer cette page.',
  'answer.status.closedHeading': 'Ce lien est fermé',
  'answer.status.closed':
    'Le délai pour répondre est passé\u00a0: ce lien n’accepte plus de réponses. Si une réponse est encore nécessaire, demandez un nouveau lien.',
  'answer.status.lapsedHeading': 'Le délai pour répondre est écoulé',
  'answer.status.lapsedInChat':
    'Vous pouvez encore répondre\u00a0: demandez plus de temps sur la page de réponse et le formulaire se rouvrira.',
  'answer.status.lapsedOpenLink':
    'Vous pouvez encore répondre\u00a0: ouvrez le lien que vous avez reçu et demandez-y plus de temps.',
  'answer.status.lapsedExtend': 'Vous pouvez encore répondre\u00a0: demandez plus de temps et le formulaire se rouvrira.',
  'answer.status.lapsedNoMore':
    'Ce lien n’accepte plus de réponses. Si une réponse est encore nécessaire, demandez un nouveau lien.',
  'answer.status.askMoreTime': 'Demander plus de temps',
  'answer.ask.shareInChat':
    'Chaque personne répond sur sa propre page\u00a0: partagez le lien avec les personnes que vous interrogez.',
  'answer.ask.pressStart':
    'Appuyez sur «\u00a0Commencer\u00a0» pour ouvrir votre propre page de réponse. Les autres personnes qui ont ce lien répondent sur leur propre page.',
  'answer.ask.start': 'Commencer',
  'answer.ask.full':
    'Toutes les places sont prises pour le moment. Si quelqu’un ne répond pas à temps, sa place se libère\u00a0: réessayez plus tard.',
  'answer.ask.tryAgain': 'Réessayer',
  'answer.ask.noMore': 'Cette question n’accepte plus de réponses.',
  'answer.plain.notFoundHeading': 'Il n’y a rien ici',
  'answer.plain.notFound': 'Ce lien n’est pas valide. Vérifiez que vous avez ouvert le lien complet que vous avez reçu.',
  'answer.plain.refusedHeading': 'Cette page était périmée',
  'answer.plain.refused': 'Votre réponse n’a pas été envoyée. Rouvrez la page et envoyez-la depuis celle-ci.',
  'answer.plain.openAgain': 'Rouvrir la page',
  'answer.plain.tooLargeHeading': 'C’était trop volumineux pour être envoyé',
  'answer.plain.tooLarge': 'Votre réponse n’a pas été envoyée. Raccourcissez-la et renvoyez-la.',
  'answer.plain.someoneElseHeading': 'Ce formulaire est destiné à quelqu’un d’autre',
  'answer.plain.someoneElse':
    'Il doit être rempli par la personne à qui il est destiné, connectée à Sess. Le compte connecté dans ce navigateur n’est pas le sien\u00a0: rien n’a été envoyé ni modifié.',
  'answer.plain.someoneElseWhat':
    'Si le formulaire vous est destiné, déconnectez-vous, connectez-vous avec votre propre compte, puis rouvrez le lien.',
  'answer.plain.openAccount': 'Ouvrir votre compte',
  'answer.plain.noPasskeyHeading': 'Ajoutez une clé d’accès pour répondre',
  'answer.plain.noPasskey':
    'Ce formulaire doit être confirmé avec votre clé d’accès, et votre compte Sess n’en a pas encore. Rien n’a été envoyé ni modifié.',
  'answer.plain.noPasskeyWhat': 'Ajoutez une clé d’accès à votre compte, puis rouvrez le lien et répondez.',
  'answer.plain.addPasskey': 'Ajouter une clé d’accès',
  'answer.plain.unavailableHeading': 'Un problème est survenu de notre côté',
  'answer.plain.unavailable': 'Rien n’a été perdu. Réessayez dans un instant.',

  'answer.own.noAnswer': 'Pas de réponse',
  'answer.own.yes': 'Oui',
  'answer.own.no': 'Non',
  'answer.own.ratingOf': '{value, number} sur {max, number}',
  'answer.own.youChose': 'Votre choix',
  'answer.own.download': 'Télécharger votre reçu',
  'answer.own.provesLink':
    'Le reçu est signé par Sess\u00a0: il prouve que cette réponse a été donnée sur ce lien. Vérifiez-le avec {command} dans une copie de Sess.',
  'answer.own.provesAccount':
    'Le reçu est signé par Sess\u00a0: il prouve que cette réponse a été donnée sur ce lien par votre compte Sess, connecté. Vérifiez-le avec {command} dans une copie de Sess.',
  'answer.own.provesPasskey':
    'Le reçu est signé par Sess\u00a0: il prouve que cette réponse a été donnée sur ce lien par votre compte Sess et confirmée avec votre clé d’accès. Vérifiez-le avec {command} dans une copie de Sess.',

  'answer.passkey.notSent': 'Votre réponse n’a pas été envoyée',
  'answer.passkey.heading': 'Confirmez avec votre clé d’accès',
  'answer.passkey.lead':
    'Ce formulaire doit être confirmé par vous, avec votre clé d’accès. Votre appareil vous demande votre empreinte, votre visage, votre code PIN ou le verrouillage de l’écran, et la confirmation ne couvre que cette réponse. Rien n’est envoyé avant votre confirmation.',
  'answer.passkey.confirm': 'Confirmer avec votre clé d’accès',
  'answer.passkey.change': 'Modifier ma réponse',
  'answer.passkey.needsScript':
    'La confirmation avec une clé d’accès nécessite JavaScript et un navigateur compatible avec les clés d’accès.',
  'answer.passkey.cancelled': 'La demande de clé d’accès a été annulée ou a expiré. Rien n’a été envoyé\u00a0: réessayez.',
  'answer.passkey.failed':
    'Votre navigateur n’a pas pu utiliser de clé d’accès pour le moment. Rien n’a été envoyé\u00a0: réessayez.',

  'answer.handoff.heading': 'Répondre sur votre téléphone',
  'answer.handoff.qrLabel': 'Code QR du lien de cette page',
  'answer.handoff.scanPage': 'Scannez ce code avec l’appareil photo de votre téléphone pour y ouvrir cette même page.',
  'answer.handoff.scanForm': 'Scannez ce code avec l’appareil photo de votre téléphone pour y ouvrir ce formulaire.',
  'answer.handoff.loopback':
    'Ce lien désigne cet ordinateur\u00a0: un téléphone ne peut donc pas l’ouvrir. La personne qui gère ce Sess peut régler {setting} sur son adresse dans votre réseau (voir son README).',
  'answer.handoff.openOnPhone': 'Répondre sur mon téléphone',
} as const satisfies Translation<typeof en>;
