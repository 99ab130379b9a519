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
} as const satisfies Translation<typeof en>;
