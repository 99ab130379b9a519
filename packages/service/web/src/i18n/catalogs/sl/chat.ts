import type { Translation } from '../../catalog-types.ts';
import type { chat as en } from '../en/chat.ts';

export const chat = {
  'chat.document.loading': 'Nalaganje obrazca …',
  'chat.linkOnly': 'Na ta obrazec odgovorite na njegovi strani, ne v klepetu. Odprite ga z gumbom zgoraj, na telefonu ali tukaj.',
  'chat.script.unavailable': 'Tega obrazca tukaj ni mogoče prikazati. Namesto tega odprite povezavo, ki vam jo je dal agent.',
  'chat.script.noHost': 'Ta klepet ne more prikazati obrazca. Namesto tega odprite povezavo, ki vam jo je dal agent.',
  'chat.script.empty': 'Ničesar ni za prikaz.',
  'chat.script.sending': 'Pošiljanje odgovora …',
  'chat.script.continue': 'V klepet napišite »nadaljuj«, da agent prebere vaš odgovor.',
  'chat.script.notSent': 'Vaš odgovor ni bil poslan. Poskusite znova.',
  'chat.script.sendFailed': 'Vašega odgovora od tukaj ni bilo mogoče poslati. Poskusite znova ali odgovorite na telefonu.',
  'chat.script.openLink': 'To povezavo odprite v brskalniku: {url}',
} as const satisfies Translation<typeof en>;
