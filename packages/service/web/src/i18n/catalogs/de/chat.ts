import type { Translation } from '../../catalog-types.ts';
import type { chat as en } from '../en/chat.ts';

export const chat = {
  'chat.document.loading': 'Das Formular wird geladen …',
  'chat.linkOnly':
    'Dieses Formular wird auf seiner eigenen Seite beantwortet, nicht im Chat. Öffnen Sie es mit der Schaltfläche oben – auf Ihrem Handy oder hier.',
  'chat.script.unavailable':
    'Dieses Formular kann hier nicht angezeigt werden. Öffnen Sie stattdessen den Link, den Ihnen der Agent gegeben hat.',
  'chat.script.noHost':
    'Dieser Chat kann das Formular nicht anzeigen. Öffnen Sie stattdessen den Link, den Ihnen der Agent gegeben hat.',
  'chat.script.empty': 'Nichts anzuzeigen.',
  'chat.script.sending': 'Ihre Antwort wird gesendet …',
  'chat.script.continue': 'Schreiben Sie „weiter“ in den Chat, damit der Agent Ihre Antwort liest.',
  'chat.script.notSent': 'Ihre Antwort wurde nicht gesendet. Versuchen Sie es noch einmal.',
  'chat.script.sendFailed':
    'Ihre Antwort konnte von hier aus nicht gesendet werden. Versuchen Sie es noch einmal oder antworten Sie auf Ihrem Handy.',
  'chat.script.openLink': 'Öffnen Sie diesen Link in Ihrem Browser: {url}',
} as const satisfies Translation<typeof en>;
