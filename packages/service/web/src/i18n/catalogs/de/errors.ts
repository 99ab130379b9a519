import type { Translation } from '../../catalog-types.ts';
import type { errors as en } from '../en/errors.ts';

export const errors = {
  'errors.tryAgain': 'Erneut versuchen',
  'errors.unavailable.title': 'Sess ist kurz nicht erreichbar',
  'errors.unavailable.message': 'Sess ist kurz nicht erreichbar. Versuchen Sie es gleich noch einmal.',
  'errors.badInput.title': 'Nicht gesendet',
  'errors.badInput.message':
    'Diese Anfrage enthält Zeichen, die Sess nicht speichern kann (NUL oder ein einzelnes Surrogat). Bitte entfernen Sie sie.',
  'errors.notFound.title': 'Nicht gefunden',
  'errors.notFound.message': 'Unter dieser Adresse gibt es nichts.',
  'errors.internal.title': 'Etwas ist schiefgelaufen',
  'errors.internal.message': 'Bei uns ist ein Fehler aufgetreten. Versuchen Sie es gleich noch einmal.',
} as const satisfies Translation<typeof en>;
