import type { Translation } from '../../catalog-types.ts';
import type { errors as en } from '../en/errors.ts';

export const errors = {
  'errors.tryAgain': 'Réessayer',
  'errors.unavailable.title': 'Sess est momentanément indisponible',
  'errors.unavailable.message': 'Sess est momentanément indisponible, réessayez dans un instant.',
  'errors.badInput.title': 'Non envoyé',
  'errors.badInput.message':
    'Cette requête contient des caractères que Sess ne peut pas enregistrer (NUL ou un demi-codet isolé). Supprimez-les.',
  'errors.notFound.title': 'Introuvable',
  'errors.notFound.message': 'Il n’y a rien à cette adresse.',
  'errors.internal.title': 'Un problème est survenu',
  'errors.internal.message': 'Une erreur s’est produite de notre côté. Réessayez dans un instant.',
  'errors.linkHost.title': 'Liens de réponse uniquement',
  'errors.linkHost.message': 'Cette adresse ne sert que les liens de réponse ; votre Sess se trouve à {url}.',
  'errors.package.title': 'Paquet introuvable',
  'errors.package.message':
    'Il n’y a aucun paquet à cette adresse. Ce serveur propose {packages} ; sa page d’accueil donne les commandes d’installation.',
  'errors.package.none':
    'Ce serveur n’a aucun paquet client à fournir : son exploitant les crée avec npm run build, qui les place à côté du serveur.',
  'errors.package.home': 'Page d’accueil',
  'errors.busy.title': '{state, select, busy {Sess est occupé} other {Sess démarre}}',
  'errors.busy.answers':
    '{state, select, busy {Sess est occupé pour le moment et votre réponse n’a pas été envoyée.} other {Sess démarre et votre réponse n’a pas été envoyée.}} Revenez en arrière et renvoyez-la dans un instant.',
  'errors.busy.pages':
    '{state, select, busy {Sess est occupé pour le moment ; rien n’a été modifié.} other {Sess démarre ; rien n’a été modifié.}} Réessayez dans un instant.',
  'errors.busy.other':
    '{state, select, busy {Sess est occupé pour le moment et n’a pas pris cette demande ; rien n’a été modifié.} other {Sess démarre et n’a pas pris cette demande ; rien n’a été modifié.}} Revenez en arrière et réessayez dans un instant.',
} as const satisfies Translation<typeof en>;
