import type { Translation } from '../../catalog-types.ts';
import type { errors as en } from '../en/errors.ts';

export const errors = {
  'errors.tryAgain': 'Poskusi znova',
  'errors.unavailable.title': 'Sess je za kratek čas nedosegljiv',
  'errors.unavailable.message': 'Sess je za kratek čas nedosegljiv, poskusite znova čez trenutek.',
  'errors.badInput.title': 'Ni poslano',
  'errors.badInput.message':
    'Ta zahteva vsebuje znake, ki jih Sess ne more shraniti (NUL ali nesparjen nadomestni znak). Odstranite jih.',
  'errors.notFound.title': 'Ni najdeno',
  'errors.notFound.message': 'Na tem naslovu ni ničesar.',
  'errors.internal.title': 'Nekaj je šlo narobe',
  'errors.internal.message': 'Pri nas je prišlo do napake. Poskusite znova čez trenutek.',
  'errors.linkHost.title': 'Samo povezave za odgovore',
  'errors.linkHost.message': 'Ta naslov je namenjen samo povezavam za odgovore; vaš Sess je na {url}.',
  'errors.package.title': 'Takega paketa ni',
  'errors.package.message': 'Na tem naslovu ni paketa. Ta strežnik ponuja {packages}; na domači strani so ukazi za namestitev.',
  'errors.package.none':
    'Ta strežnik nima paketov za odjemalce: upravljavec jih zgradi z npm run build, ki jih shrani poleg strežnika.',
  'errors.package.home': 'Domača stran',
  'errors.busy.title': '{state, select, busy {Sess je zaseden} other {Sess se zaganja}}',
  'errors.busy.answers':
    '{state, select, busy {Sess je trenutno zaseden in vaš odgovor ni bil poslan.} other {Sess se trenutno zaganja in vaš odgovor ni bil poslan.}} Vrnite se in ga čez trenutek pošljite znova.',
  'errors.busy.pages':
    '{state, select, busy {Sess je trenutno zaseden; nič ni bilo spremenjeno.} other {Sess se trenutno zaganja; nič ni bilo spremenjeno.}} Poskusite znova čez trenutek.',
  'errors.busy.other':
    '{state, select, busy {Sess je trenutno zaseden in te zahteve ni sprejel; nič ni bilo spremenjeno.} other {Sess se trenutno zaganja in te zahteve ni sprejel; nič ni bilo spremenjeno.}} Vrnite se in poskusite znova čez trenutek.',
} as const satisfies Translation<typeof en>;
