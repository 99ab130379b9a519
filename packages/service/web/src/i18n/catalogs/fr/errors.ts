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
} as const satisfies Translation<typeof en>;
