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
  'errors.linkHost.title': 'Solo enlaces de respuesta',
  'errors.linkHost.message': 'Esta dirección solo sirve enlaces de respuesta; su Sess está en {url}.',
  'errors.package.title': 'No existe ese paquete',
  'errors.package.message':
    'No hay ningún paquete en esta dirección. Este servidor ofrece {packages}; su página de inicio indica cómo instalarlos.',
  'errors.package.none':
    'Este servidor no tiene paquetes de cliente: quien lo administra los genera con npm run build, que los deja junto al servidor.',
  'errors.package.home': 'Página de inicio',
  'errors.busy.title': '{state, select, busy {Sess está ocupado} other {Sess se está iniciando}}',
  'errors.busy.answers':
    '{state, select, busy {Sess está ocupado en este momento y su respuesta no se ha enviado.} other {Sess se está iniciando y su respuesta no se ha enviado.}} Vuelva atrás y envíela de nuevo dentro de un momento.',
  'errors.busy.pages':
    '{state, select, busy {Sess está ocupado en este momento; no se ha cambiado nada.} other {Sess se está iniciando; no se ha cambiado nada.}} Inténtelo de nuevo dentro de un momento.',
  'errors.busy.other':
    '{state, select, busy {Sess está ocupado en este momento y no ha aceptado esta solicitud; no se ha cambiado nada.} other {Sess se está iniciando y no ha aceptado esta solicitud; no se ha cambiado nada.}} Vuelva atrás e inténtelo de nuevo dentro de un momento.',
} as const satisfies Translation<typeof en>;
