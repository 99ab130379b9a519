import type { Translation } from '../../catalog-types.ts';
import type { chat as en } from '../en/chat.ts';

export const chat = {
  'chat.document.loading': 'Cargando el formulario…',
  'chat.linkOnly':
    'Este formulario se responde en su propia página, no en el chat. Ábralo con el botón de arriba, en su teléfono o aquí.',
  'chat.script.unavailable': 'Este formulario no se puede mostrar aquí. Abra en su lugar el enlace que le dio el agente.',
  'chat.script.noHost': 'Este chat no puede mostrar el formulario. Abra en su lugar el enlace que le dio el agente.',
  'chat.script.empty': 'No hay nada que mostrar.',
  'chat.script.sending': 'Enviando su respuesta…',
  'chat.script.continue': 'Escriba «continúa» en el chat para que el agente lea su respuesta.',
  'chat.script.notSent': 'Su respuesta no se ha enviado. Inténtelo de nuevo.',
  'chat.script.sendFailed': 'No se pudo enviar su respuesta desde aquí. Inténtelo de nuevo o responda en su teléfono.',
  'chat.script.openLink': 'Abra este enlace en su navegador: {url}',
} as const satisfies Translation<typeof en>;
