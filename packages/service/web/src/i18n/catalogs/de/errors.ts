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
  'errors.linkHost.title': 'Nur Antwortlinks',
  'errors.linkHost.message': 'Diese Adresse dient nur Antwortlinks; Ihr Sess finden Sie unter {url}.',
  'errors.package.title': 'Kein solches Paket',
  'errors.package.message':
    'Unter dieser Adresse gibt es kein Paket. Dieser Server bietet {packages}; die Startseite zeigt, wie man sie installiert.',
  'errors.package.none':
    'Dieser Server hat keine Client-Pakete: Der Betreiber erzeugt sie mit npm run build, das sie neben dem Server ablegt.',
  'errors.package.home': 'Startseite',
  'errors.busy.title': '{state, select, busy {Sess ist ausgelastet} other {Sess startet gerade}}',
  'errors.busy.answers':
    '{state, select, busy {Sess ist gerade ausgelastet, und Ihre Antwort wurde nicht gesendet.} other {Sess startet gerade, und Ihre Antwort wurde nicht gesendet.}} Gehen Sie zurück und senden Sie sie gleich noch einmal.',
  'errors.busy.pages':
    '{state, select, busy {Sess ist gerade ausgelastet; es wurde nichts geändert.} other {Sess startet gerade; es wurde nichts geändert.}} Versuchen Sie es gleich noch einmal.',
  'errors.busy.other':
    '{state, select, busy {Sess ist gerade ausgelastet und hat diese Anfrage nicht angenommen; es wurde nichts geändert.} other {Sess startet gerade und hat diese Anfrage nicht angenommen; es wurde nichts geändert.}} Gehen Sie zurück und versuchen Sie es gleich noch einmal.',
} as const satisfies Translation<typeof en>;
