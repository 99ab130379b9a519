import type { Translation } from '../../catalog-types.ts';
import type { answer as en } from '../en/answer.ts';

export const answer = {
  'answer.documentTitle': '{title} · Sess',
  'answer.title.error': 'Error: {title}',
  'answer.title.passkey': 'Confirme con su llave de acceso: {title}',
  'answer.title.passkeyError': 'Error: Confirme con su llave de acceso: {title}',
  'answer.title.answered': 'Enviado: {title}',
  'answer.title.done': 'Listo',
  'answer.title.doneWith': 'Listo: {title}',
  'answer.title.withdrawn': 'Retirada',
  'answer.title.decided': 'Ya decidido',
  'answer.title.linkClosed': 'Enlace cerrado',
  'answer.title.lapsed': 'Se acabó el tiempo: {title}',
  'answer.title.notFound': 'No encontrado',
  'answer.title.refused': 'Página desactualizada',
  'answer.title.tooLarge': 'Demasiado para enviar',
  'answer.title.unavailable': 'Inténtelo de nuevo',
  'answer.title.someoneElse': 'Este formulario es para otra persona',
  'answer.title.noPasskey': 'Añada una llave de acceso para responder',

  'answer.form.submit': 'Enviar',
  'answer.form.required': '(obligatorio)',
  'answer.form.chooseAtLeastOne': '(elija al menos una opción)',
  'answer.form.errorLabel': 'Error:',
  'answer.form.choose': 'Elija…',
  'answer.form.ratingLowest': '{value, number}: lo más bajo',
  'answer.form.ratingHighest': '{value, number}: lo más alto',
  'answer.form.passkeyNext':
    'Después de elegir, su dispositivo le pedirá su llave de acceso para confirmar esta respuesta; antes no se envía nada.',
  'answer.form.closesSoon': 'Este enlace se cierra en menos de un minuto.',
  'answer.form.closesInMinutes':
    'Este enlace se cierra en aproximadamente {minutes, plural, one {# minuto} many {# minutos} other {# minutos}}.',
  'answer.form.closesInHours':
    'Este enlace se cierra en aproximadamente {hours, plural, one {# hora} many {# horas} other {# horas}}.',
  'answer.form.closesInDays':
    'Este enlace se cierra en aproximadamente {days, plural, one {# día} many {# días} other {# días}}.',
  'answer.number.any': 'Un número, por ejemplo {example}.',
  'answer.number.between': 'Un número entre {min} y {max}.',
  'answer.number.atLeast': 'Un número igual o mayor que {min}.',
  'answer.number.atMost': 'Un número igual o menor que {max}.',
  'answer.integer.any': 'Un número entero.',
  'answer.integer.between': 'Un número entero entre {min} y {max}.',
  'answer.integer.atLeast': 'Un número entero igual o mayor que {min}.',
  'answer.integer.atMost': 'Un número entero igual o menor que {max}.',

  'answer.errors.heading': 'Hay un problema',
  'answer.errors.item': '{label}: {message}',
  'answer.error.required': 'Responda a esto para continuar.',
  'answer.error.type':
    '{expected, select, text {Escriba un texto.} number {Escriba un número.} integer {Escriba un número entero.} boolean {Marque la casilla o déjela sin marcar.} list {Elija entre las opciones.} other {Escriba un valor válido.}}',
  'answer.error.enum': 'Elija una de las opciones.',
  'answer.error.duplicate': 'Elija cada opción solo una vez.',
  'answer.error.tooShort':
    'Escriba al menos {limit, plural, one {# carácter} many {# caracteres} other {# caracteres}} (ahora hay {length, number}).',
  'answer.error.tooLong':
    'Escriba como máximo {limit, plural, one {# carácter} many {# caracteres} other {# caracteres}} (ahora hay {length, number}).',
  'answer.error.tooSmall': 'Escriba {limit} o más.',
  'answer.error.tooBig': 'Escriba {limit} o menos.',
  'answer.error.tooFew': 'Elija al menos {limit, number}.',
  'answer.error.tooMany': 'Elija como máximo {limit, number}.',
  'answer.error.pattern': 'Escríbalo en el formato indicado.',
  'answer.error.format':
    '{format, select, email {Escriba una dirección de correo electrónico, como nombre@example.com.} uri {Escriba una dirección web completa, como https://example.com.} date {Escriba una fecha, como 2025-06-30.} dateTime {Escriba una fecha y una hora, como 2025-06-30T14:30.} time {Escriba una hora, como 14:30.} other {Escriba un valor válido.}}',
  'answer.error.character':
    'El texto contiene {kind, select, control {un carácter de control invisible} other {un carácter que no se puede guardar}} ({codePoint}) en la posición {position, number}. Quítelo y vuelva a enviarlo.',
  'answer.error.unknownField': 'Este formulario no tiene ese campo. Vuelva a cargar la página e inténtelo de nuevo.',
  'answer.error.unknownAction': 'Ese botón no está en este formulario. Vuelva a cargar la página e inténtelo de nuevo.',
  'answer.error.actionRequired': 'Elija uno de los botones.',

  'answer.follow.newStep':
    'El agente envió un paso nuevo, así que este formulario ya no se puede enviar. Lo que escribió se queda aquí hasta que cargue el paso nuevo.',
  'answer.follow.loadNewStep': 'Cargar el paso nuevo',
  'answer.follow.answered':
    'Esta pregunta ya tiene una respuesta, enviada desde otra pestaña u otro dispositivo. Se conserva la primera respuesta enviada.',
  'answer.follow.completed': 'El agente terminó con esta pregunta: ya no admite respuestas.',
  'answer.follow.withdrawn': 'El agente retiró esta pregunta: ya no admite respuestas.',
  'answer.follow.lapsed': 'Se acabó el tiempo para responder. Su respuesta solo se puede enviar si pide más tiempo.',
  'answer.follow.expired': 'Este enlace se cerró: ya no admite respuestas.',
  'answer.follow.show': 'Mostrar',
  'answer.follow.showWhatToDo': 'Ver qué hacer',

  'answer.status.keptFirst':
    'Esta pregunta ya tenía una respuesta, así que la suya no se envió: se conserva la primera respuesta enviada.',
  'answer.status.sentHeading': 'Enviado: a la espera del siguiente paso',
  'answer.status.keptHeading': 'Ya respondida: a la espera del siguiente paso',
  'answer.status.sent': 'Su respuesta se envió.',
  'answer.status.nextShowsInChat': 'El siguiente paso, si lo hay, aparecerá aquí.',
  'answer.status.keepOpen': 'Mantenga esta página abierta: el siguiente paso, si lo hay, aparecerá aquí.',
  'answer.status.closeAndReopen': 'También puede cerrarla y volver a abrir el enlace más tarde.',
  'answer.status.checkNext': 'Comprobar si hay un siguiente paso',
  'answer.status.yourAnswer': 'Su respuesta',
  'answer.status.answerKept': 'La respuesta conservada',
  'answer.status.decided': '{decided, select, approved {Ya se decidió: aprobado.} other {Ya se decidió: rechazado.}}',
  'answer.status.doneHeading': 'Listo',
  'answer.status.doneYours': 'El agente tiene su respuesta. No hace falta nada más: puede cerrar esta página.',
  'answer.status.doneKept': 'El agente tiene esa respuesta. No hace falta nada más: puede cerrar esta página.',
  'answer.status.withdrawnHeading': 'La pregunta se retiró',
  'answer.status.withdrawn':
    'El agente ya no necesita una respuesta aquí. No tiene que hacer nada más: puede cerrar esta página.',
  'answer.status.decidedHeading': 'Ya decidido',
  'answer.status.decidedNotNeeded': 'Su respuesta ya no es necesaria: puede cerrar esta página.',
  'answer.status.closedHeading': 'Este enlace se cerró',
  'answer.status.closed':
    'El plazo para responder terminó, así que este enlace ya no admite respuestas. Si todavía hace falta, pida un enlace nuevo.',
  'answer.status.lapsedHeading': 'Se acabó el tiempo para responder',
  'answer.status.lapsedInChat':
    'Todavía puede responder: pida más tiempo en la página de respuesta y el formulario se abrirá de nuevo.',
  'answer.status.lapsedOpenLink': 'Todavía puede responder: abra el enlace que recibió y pida más tiempo allí.',
  'answer.status.lapsedExtend': 'Todavía puede responder: pida más tiempo y el formulario se abrirá de nuevo.',
  'answer.status.lapsedNoMore': 'Este enlace ya no admite respuestas. Si todavía hace falta, pida un enlace nuevo.',
  'answer.status.askMoreTime': 'Pedir más tiempo',
  'answer.ask.shareInChat': 'Cada persona responde en su propia página: comparta el enlace con las personas a las que pregunta.',
  'answer.ask.pressStart':
    'Pulse «Empezar» para abrir su propia página de respuesta. Las demás personas que tengan este enlace responden en sus propias páginas.',
  'answer.ask.start': 'Empezar',
  'answer.ask.full':
    'Ahora mismo todas las plazas están ocupadas. Si alguien no responde a tiempo, su plaza queda libre: inténtelo más tarde.',
  'answer.ask.tryAgain': 'Intentar de nuevo',
  'answer.ask.noMore': 'Esta pregunta ya no admite respuestas.',
  'answer.plain.notFoundHeading': 'Aquí no hay nada',
  'answer.plain.notFound': 'Este enlace no es válido. Compruebe que abrió el enlace completo que recibió.',
  'answer.plain.refusedHeading': 'Esta página estaba desactualizada',
  'answer.plain.refused': 'Su respuesta no se envió. Vuelva a abrir la página y envíela desde allí.',
  'answer.plain.openAgain': 'Volver a abrir la página',
  'answer.plain.tooLargeHeading': 'Era demasiado para enviar',
  'answer.plain.tooLarge': 'Su respuesta no se envió. Acórtela y vuelva a enviarla.',
  'answer.plain.someoneElseHeading': 'Este formulario es para otra persona',
  'answer.plain.someoneElse':
    'Debe responderlo la persona para la que se creó, con su sesión iniciada en Sess. La cuenta que tiene la sesión iniciada en este navegador no es la suya, así que no se envió ni se cambió nada.',
  'answer.plain.someoneElseWhat':
    'Si el formulario es para usted, cierre la sesión, inicie sesión con su propia cuenta y vuelva a abrir el enlace.',
  'answer.plain.openAccount': 'Abrir su cuenta',
  'answer.plain.noPasskeyHeading': 'Añada una llave de acceso para responder',
  'answer.plain.noPasskey':
    'Este formulario debe confirmarse con su llave de acceso, y su cuenta de Sess todavía no tiene ninguna. No se envió ni se cambió nada.',
  'answer.plain.noPasskeyWhat': 'Añada una llave de acceso a su cuenta; después vuelva a abrir el enlace y responda.',
  'answer.plain.addPasskey': 'Añadir una llave de acceso',
  'answer.plain.unavailableHeading': 'Algo falló por nuestra parte',
  'answer.plain.unavailable': 'No se perdió nada. Inténtelo de nuevo en un momento.',

  'answer.own.noAnswer': 'Sin respuesta',
  'answer.own.yes': 'Sí',
  'answer.own.no': 'No',
  'answer.own.ratingOf': '{value, number} de {max, number}',
  'answer.own.youChose': 'Usted eligió',
  'answer.own.download': 'Descargar su comprobante',
  'answer.own.provesLink':
    'Sess firma el comprobante: demuestra que esta respuesta se dio en este enlace. Verifíquelo con {command} en una copia de Sess.',
  'answer.own.provesAccount':
    'Sess firma el comprobante: demuestra que esta respuesta se dio en este enlace con su cuenta de Sess, con la sesión iniciada. Verifíquelo con {command} en una copia de Sess.',
  'answer.own.provesPasskey':
    'Sess firma el comprobante: demuestra que esta respuesta se dio en este enlace con su cuenta de Sess y se confirmó con su llave de acceso. Verifíquelo con {command} en una copia de Sess.',

  'answer.passkey.notSent': 'Su respuesta no se envió',
  'answer.passkey.heading': 'Confirme con su llave de acceso',
  'answer.passkey.lead':
    'Usted mismo debe confirmar este formulario con su llave de acceso. Su dispositivo le pedirá la huella, la cara, el PIN o el bloqueo de pantalla, y la confirmación cubre esta respuesta y nada más. No se envía nada hasta que confirme.',
  'answer.passkey.confirm': 'Confirmar con la llave de acceso',
  'answer.passkey.change': 'Cambiar mi respuesta',
  'answer.passkey.needsScript':
    'Para confirmar con una llave de acceso se necesitan JavaScript y un navegador compatible con llaves de acceso.',
  'answer.passkey.cancelled': 'La solicitud de la llave de acceso se canceló o caducó. No se envió nada: inténtelo de nuevo.',
  'answer.passkey.failed': 'Su navegador no pudo usar una llave de acceso en este momento. No se envió nada: inténtelo de nuevo.',

  'answer.handoff.heading': 'Responder en el móvil',
  'answer.handoff.qrLabel': 'Código QR del enlace de esta página',
  'answer.handoff.scanPage': 'Escanee este código con la cámara del móvil para abrir esta misma página allí.',
  'answer.handoff.scanForm': 'Escanee este código con la cámara del móvil para abrir este formulario allí.',
  'answer.handoff.loopback':
    'Este enlace apunta a este ordenador, así que un móvil no puede abrirlo. Quien administre este Sess puede configurar {setting} con su dirección en su red (consulte su README).',
  'answer.handoff.openOnPhone': 'Responder en mi móvil',
} as const satisfies Translation<typeof en>;
