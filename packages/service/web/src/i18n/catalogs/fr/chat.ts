import type { Translation } from '../../catalog-types.ts';
import type { chat as en } from '../en/chat.ts';

export const chat = {
  'chat.document.loading': 'Chargement du formulaire…',
  'chat.linkOnly':
    'Ce formulaire se remplit sur sa propre page, pas dans le chat. Ouvrez-le avec le bouton ci-dessus, sur votre téléphone ou ici.',
  'chat.script.unavailable': 'Ce formulaire ne peut pas s’afficher ici. Ouvrez plutôt le lien que l’agent vous a donné.',
  'chat.script.noHost': 'Ce chat ne peut pas afficher le formulaire. Ouvrez plutôt le lien que l’agent vous a donné.',
  'chat.script.empty': 'Rien à afficher.',
  'chat.script.sending': 'Envoi de votre réponse…',
  'chat.script.continue': 'Écrivez «\u00a0continuer\u00a0» dans le chat pour que l’agent lise votre réponse.',
  'chat.script.notSent': 'Votre réponse n’a pas été envoyée. Réessayez.',
  'chat.script.sendFailed': 'Votre réponse n’a pas pu être envoyée d’ici. Réessayez, ou répondez sur votre téléphone.',
  'chat.script.openLink': 'Ouvrez ce lien dans votre navigateur\u00a0: {url}',
} as const satisfies Translation<typeof en>;
