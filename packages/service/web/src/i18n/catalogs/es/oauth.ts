import type { Translation } from '../../catalog-types.ts';
import type { oauth as en } from '../en/oauth.ts';

export const oauth = {
  'oauth.client.unverified': '(nombre no verificado)',
  'oauth.client.identity': '({host})',

  'oauth.consent.title': '¿Permitir que {app} use Sess?',
  'oauth.consent.canDo': 'Podrá:',
  'oauth.consent.inWorkspace': 'En el espacio de trabajo {workspace}.',
  'oauth.consent.workspace': 'Espacio de trabajo',
  'oauth.consent.workspaceHint': 'La aplicación funciona en el espacio de trabajo que usted elija, y solo en él.',
  'oauth.consent.redirectLoopback':
    'Después le devuelve a este ordenador ({host}). Permítalo solo si acaba de empezar a conectar desde una aplicación de este ordenador.',
  'oauth.consent.redirect':
    '{kind, select, app {Después le devuelve a {host} (una aplicación de este dispositivo).} other {Después le devuelve a {host}.}}',
  'oauth.consent.allow': 'Permitir',
  'oauth.consent.deny': 'Denegar',
  'oauth.consent.unverifiedNote': 'Esta aplicación eligió su propio nombre, «{app}», al registrarse; Sess no lo ha comprobado.',
  'oauth.consent.disconnectLater': 'Puede desconectarla en cualquier momento en Cuenta → Aplicaciones conectadas.',
  'oauth.consent.chooseWorkspace': 'Elija uno de sus espacios de trabajo.',

  'oauth.scope.interact': 'Enviarle formularios y preguntas para responder, leer sus respuestas y actualizarlos o cerrarlos.',

  'oauth.apps.title': 'Aplicaciones conectadas',
  'oauth.apps.none': 'No hay aplicaciones conectadas. Cuando dé permiso a una aplicación como Claude o Cursor, aparecerá aquí.',
  'oauth.apps.some':
    '{count, plural, one {Esta aplicación puede usar Sess en su nombre. Si la desconecta, deja de funcionar de inmediato.} other {Estas # aplicaciones pueden usar Sess en su nombre. Si desconecta una, deja de funcionar de inmediato.}}',
  'oauth.apps.workspace': 'Espacio de trabajo',
  'oauth.apps.redirects': 'Le devuelve a',
  'oauth.apps.can': 'Puede',
  'oauth.apps.connected': 'Conectada',
  'oauth.apps.lastUsed': 'Último uso',
  'oauth.apps.never': 'Nunca',
  'oauth.apps.disconnect': 'Desconectar',
  'oauth.apps.disconnectLabel': 'Desconectar {app} de {workspace}',
  'oauth.apps.disconnected': 'Desconectada. La aplicación ya no puede usar Sess.',
  'oauth.apps.back': 'Volver a su cuenta',

  'oauth.error.clientTitle': 'Esta aplicación no puede conectarse',
  'oauth.error.client': 'Sess no ha podido confirmar de qué aplicación se trata, así que no puede conectarse.',
  'oauth.error.requestTitle': 'Esta solicitud de conexión no se puede usar',
  'oauth.error.request': 'La aplicación envió una solicitud de conexión que Sess no puede aceptar.',
  'oauth.error.busyTitle': 'Demasiadas aplicaciones nuevas a la vez',
  'oauth.error.busy':
    'Sess ha consultado demasiadas aplicaciones nuevas para su red en el último minuto. Vuelva a intentarlo dentro de {minutes, plural, one {# minuto} other {# minutos}}.',
  'oauth.error.noWorkspace':
    'Su cuenta no tiene ningún espacio de trabajo, así que no hay nada a lo que conectar una aplicación.',
  'oauth.error.formExpired':
    'Este formulario había caducado o no procedía de Sess, así que no se ha permitido nada. Vuelva a empezar la conexión desde la aplicación.',
  'oauth.error.noDecision': 'Elija «Permitir» o «Denegar».',
  'oauth.error.detail': 'Detalles para quienes desarrollan la aplicación:',
  'oauth.error.next':
    'Vuelva a la aplicación y empiece a conectar de nuevo. Si sigue ocurriendo, avise a quienes desarrollan la aplicación.',
  'oauth.error.unchangedTitle': 'No se ha cambiado nada',
  'oauth.error.badForm': 'No se ha podido leer el formulario.',
  'oauth.error.pageExpired':
    'Esta página había caducado (o la solicitud no procedía de ella). Vuelva atrás, recargue la página e inténtelo de nuevo.',
  'oauth.error.noSuchAppTitle': 'No existe esa aplicación conectada',
  'oauth.error.noSuchApp': 'Esta aplicación no está conectada a su cuenta (puede que ya esté desconectada).',
  'oauth.error.backToApps': 'Volver a las aplicaciones conectadas',
} as const satisfies Translation<typeof en>;
