import type { Translation } from '../../catalog-types.ts';
import type { errors as en } from '../en/errors.ts';

export const errors = {
  'errors.tryAgain': 'Intentar de nuevo',
  'errors.unavailable.title': 'Sess no está disponible por un momento',
  'errors.unavailable.message': 'Sess no está disponible por un momento; inténtelo de nuevo enseguida.',
  'errors.badInput.title': 'No enviado',
  'errors.badInput.message':
    'Esta solicitud contiene caracteres que Sess no puede guardar (NUL o un sustituto suelto). Quítelos.',
  'errors.notFound.title': 'No encontrado',
  'errors.notFound.message': 'No hay nada en esta dirección.',
  'errors.internal.title': 'Algo salió mal',
  'errors.internal.message': 'Algo falló por nuestra parte. Inténtelo de nuevo en un momento.',
} as const satisfies Translation<typeof en>;
