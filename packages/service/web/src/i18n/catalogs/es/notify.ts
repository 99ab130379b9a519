import type { Translation } from '../../catalog-types.ts';
import type { notify as en } from '../en/notify.ts';

export const notify = {
  'notify.message.form': 'Su agente le está haciendo una pregunta.',
  'notify.message.followUp': 'Su agente tiene novedades sobre esto.',
  'notify.message.reminder': 'Aún esperamos su respuesta; el enlace caduca pronto.',
  'notify.message.askAnswer': 'Respuestas recibidas: {answered, number} de {max, number}.',
  'notify.message.askClosed': '{count, plural, one {Cerrada con # respuesta.} other {Cerrada con # respuestas.}}',
  'notify.message.askApproved':
    '{count, plural, one {Decisión: aprobada, con # respuesta.} other {Decisión: aprobada, con # respuestas.}}',
  'notify.message.askRejected':
    '{count, plural, one {Decisión: rechazada, con # respuesta.} other {Decisión: rechazada, con # respuestas.}}',
  'notify.mail.until': 'El enlace es válido hasta el {date}.',
  'notify.mail.inZone': '{time} ({zone})',
  'notify.mail.why':
    'Sess le envía este mensaje porque tiene activadas las notificaciones por correo electrónico en su cuenta. Puede desactivarlas en la página de su cuenta.',

  'notify.page.title': 'Notificaciones · Sess',
  'notify.page.heading': 'Notificaciones',
  'notify.page.lead':
    'Cuando un agente le pregunta algo, Sess puede enviar la pregunta a su teléfono, para que no tenga que llevar el enlace hasta allí usted mismo. Solo se le notifica a usted.',
  'notify.page.back': 'Volver a su cuenta',
  'notify.status.added': 'Este dispositivo se ha añadido: Sess le enviará notificaciones.',
  'notify.status.removed': 'Dispositivo eliminado. Ya no recibirá notificaciones.',
  'notify.status.saved': 'Configuración guardada.',

  'notify.device.heading': 'Este dispositivo',
  'notify.device.nameLabel': 'Nombre del dispositivo',
  'notify.device.nameHint': 'Así aparecerá este dispositivo en la lista de abajo. Puede cambiarlo.',
  'notify.device.button': 'Notificar a este dispositivo',
  'notify.device.iosTitle': 'En un iPhone o iPad, añada primero Sess a su pantalla de inicio.',
  'notify.device.iosShare': 'Toque Compartir (el cuadrado con la flecha) y luego Añadir a pantalla de inicio.',
  'notify.device.iosOpen': 'Abra Sess desde su pantalla de inicio.',
  'notify.device.iosTap': 'Toque allí «Notificar a este dispositivo».',
  'notify.device.iosVersion': 'Web Push necesita iOS 16.4 o posterior.',
  'notify.device.insecure':
    'Los navegadores solo aceptan notificaciones push en páginas servidas por HTTPS (o por localhost en este mismo ordenador). Abra Sess en su dirección https:// para añadir este dispositivo, o utilice el correo electrónico.',
  'notify.device.unsupported':
    'Este navegador no puede recibir notificaciones push. Pruebe con otro navegador o utilice el correo electrónico.',
  'notify.device.denied':
    'Las notificaciones de este sitio están bloqueadas en este navegador. Permítalas en la configuración del sitio del navegador y vuelva a cargar esta página.',
  'notify.device.noScript': 'Para añadir un dispositivo se necesita JavaScript.',

  'notify.devices.heading': 'Sus dispositivos',
  'notify.devices.none': 'Todavía no hay dispositivos.',
  'notify.devices.added': 'Añadido el {date}',
  'notify.devices.lastDelivery': 'Última entrega: {date}',
  'notify.devices.noDelivery': 'Aún sin entregas',
  'notify.devices.lastFailure': 'Último fallo: {date}',
  'notify.devices.remove': 'Eliminar',
  'notify.devices.removeLabel': 'Eliminar {name}',

  'notify.settings.heading': 'Configuración',
  'notify.settings.channels': 'Canales',
  'notify.settings.push': 'Notificaciones push a mis dispositivos',
  'notify.settings.email': 'Correo electrónico',
  'notify.settings.emailHint': 'El enlace por correo cuando ninguno de sus dispositivos acepta una notificación push.',
  'notify.settings.emailMissing':
    'El correo electrónico necesita la configuración SMTP del servidor (SMTP_URL y una dirección de remitente). Este servidor aún no la tiene, así que no se envía ningún correo.',
  'notify.settings.quiet': 'Horas de silencio',
  'notify.settings.quietCheck': 'Retener las notificaciones durante las horas de silencio',
  'notify.settings.quietHint': 'Se envían cuando terminan las horas de silencio, si el enlace sigue abierto.',
  'notify.settings.from': 'Desde',
  'notify.settings.to': 'Hasta',
  'notify.settings.timeZone': 'Zona horaria',
  'notify.settings.timeZoneHint': 'Por ejemplo, Europe/Madrid o UTC.',
  'notify.settings.reminders': 'Recordatorios',
  'notify.settings.remindersCheck': 'Recordarme poco antes de que caduque un enlace sin responder',
  'notify.settings.ask': 'Novedades de los Asks',
  'notify.settings.askHint': 'Cuando un Ask que su agente compartió con otras personas reciba respuestas, avisarme:',
  'notify.settings.askEach': 'Con cada respuesta',
  'notify.settings.askClosed': 'Cuando se cierre',
  'notify.settings.askOff': 'Nunca',
  'notify.settings.apiKeys': 'Claves de API',
  'notify.settings.apiKeyCheck': 'Avisarme también de los formularios creados con las claves de API de este espacio de trabajo',
  'notify.settings.apiKeyHint':
    'Para los espacios de trabajo de los que es propietario. De los formularios que sus aplicaciones conectadas crean para usted siempre se le avisa.',
  'notify.settings.save': 'Guardar configuración',

  'notify.error.quietStart': 'Las horas de silencio necesitan una hora de inicio, por ejemplo 22:00.',
  'notify.error.quietEnd': 'Las horas de silencio necesitan una hora de fin, por ejemplo 07:00.',
  'notify.error.quietSame': 'Las horas de silencio deben empezar y terminar a horas distintas.',
  'notify.error.timeZone': 'Indique una zona horaria como Europe/Madrid o UTC.',
  'notify.error.askUpdates': 'Elija cuándo quiere recibir las novedades de los Asks.',
  'notify.error.expiredTitle': 'No se ha cambiado nada',
  'notify.error.expired':
    'Esta página había caducado (o la solicitud no procedía de ella). Vuelva a cargarla e inténtelo de nuevo.',
  'notify.error.noDeviceTitle': 'Dispositivo no encontrado',
  'notify.error.noDevice': 'Este dispositivo no está en su lista (puede que ya se haya eliminado).',
  'notify.error.backToPage': 'Volver a las notificaciones',
  'notify.error.signIn': 'Primero inicie sesión en Sess.',
  'notify.error.subscription':
    'No se pudo usar la suscripción push de este navegador, así que el dispositivo no se ha añadido. Pruebe con otro navegador.',
  'notify.error.deviceName':
    'El nombre del dispositivo es demasiado largo o contiene caracteres que Sess no admite. Acórtelo e inténtelo de nuevo.',
  'notify.error.tooManyDevices':
    '{max, plural, one {Tiene # dispositivo, el máximo que guarda Sess.} other {Tiene # dispositivos, el máximo que guarda Sess.}} Elimine uno que ya no use e inténtelo de nuevo.',

  'notify.script.deviceName': '{browser} en {system}',
  'notify.script.thisDevice': 'este dispositivo',
  'notify.script.browser': 'Navegador',
  'notify.script.notAllowed': 'No se permitieron las notificaciones, así que este dispositivo no se ha añadido.',
  'notify.script.adding': 'Añadiendo este dispositivo…',
  'notify.script.silent':
    'El servicio push de su navegador no respondió en {seconds, number} segundos, así que este dispositivo no se ha añadido. Compruebe que el dispositivo tiene conexión (una VPN, un cortafuegos o un bloqueador de contenido pueden impedir el acceso al servicio push) y vuelva a tocar «Notificar a este dispositivo».',
  'notify.script.subscribeFailed':
    'Este navegador no ha podido suscribirse a los mensajes push en este momento. Inténtelo de nuevo o pruebe con otro navegador.',
  'notify.script.late':
    'Sess no respondió a tiempo, así que puede que este dispositivo no se haya añadido. Vuelva a cargar la página para comprobarlo e inténtelo de nuevo si no aparece.',
  'notify.script.unreachable':
    'No se pudo contactar con Sess, así que este dispositivo no se ha añadido. Compruebe su conexión e inténtelo de nuevo.',
  'notify.script.refused': 'Sess no pudo añadir este dispositivo. Vuelva a cargar la página e inténtelo de nuevo.',
  'notify.script.failed': 'Algo salió mal al añadir este dispositivo. Vuelva a cargar la página e inténtelo de nuevo.',
  'notify.error.endpointNotPublic':
    'El servicio push de este navegador no está en una dirección pública a la que Sess pueda enviar, así que este dispositivo no se añadió. Pruebe con otro navegador.',
} as const satisfies Translation<typeof en>;
