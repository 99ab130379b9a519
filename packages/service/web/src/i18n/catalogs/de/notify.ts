import type { Translation } from '../../catalog-types.ts';
import type { notify as en } from '../en/notify.ts';

export const notify = {
  'notify.message.form': 'Ihr Agent hat eine Frage an Sie.',
  'notify.message.followUp': 'Ihr Agent hat eine Neuigkeit dazu.',
  'notify.message.reminder': 'Ihre Antwort steht noch aus; der Link läuft bald ab.',
  'notify.message.askAnswer': '{answered, number} von {max, number} Antworten sind eingegangen.',
  'notify.message.askClosed': '{count, plural, one {Abgeschlossen mit # Antwort.} other {Abgeschlossen mit # Antworten.}}',
  'notify.message.askApproved':
    '{count, plural, one {Entschieden: genehmigt, mit # Antwort.} other {Entschieden: genehmigt, mit # Antworten.}}',
  'notify.message.askRejected':
    '{count, plural, one {Entschieden: abgelehnt, mit # Antwort.} other {Entschieden: abgelehnt, mit # Antworten.}}',
  'notify.mail.until': 'Der Link gilt bis {date}.',
  'notify.mail.inZone': '{time} ({zone})',
  'notify.mail.why':
    'Sie erhalten diese E-Mail von Sess, weil für Ihr Konto E-Mail-Benachrichtigungen eingeschaltet sind. Sie können sie auf Ihrer Kontoseite ausschalten.',

  'notify.page.title': 'Benachrichtigungen · Sess',
  'notify.page.heading': 'Benachrichtigungen',
  'notify.page.lead':
    'Wenn ein Agent Ihnen eine Frage stellt, kann Sess sie an Ihr Handy schicken – Sie müssen den Link also nicht selbst dorthin bringen. Benachrichtigt werden nur Sie.',
  'notify.page.back': 'Zurück zu Ihrem Konto',
  'notify.status.added': 'Dieses Gerät ist hinzugefügt: Sess benachrichtigt es ab jetzt.',
  'notify.status.removed': 'Gerät entfernt. Es erhält keine Benachrichtigungen mehr.',
  'notify.status.saved': 'Einstellungen gespeichert.',

  'notify.device.heading': 'Dieses Gerät',
  'notify.device.nameLabel': 'Gerätename',
  'notify.device.nameHint': 'So wird dieses Gerät unten aufgeführt. Sie können den Namen ändern.',
  'notify.device.button': 'Dieses Gerät benachrichtigen',
  'notify.device.iosTitle': 'Auf einem iPhone oder iPad fügen Sie Sess zuerst zum Home-Bildschirm hinzu.',
  'notify.device.iosShare': 'Tippen Sie auf „Teilen“ (das Quadrat mit dem Pfeil) und dann auf „Zum Home-Bildschirm“.',
  'notify.device.iosOpen': 'Öffnen Sie Sess über Ihren Home-Bildschirm.',
  'notify.device.iosTap': 'Tippen Sie dort auf „Dieses Gerät benachrichtigen“.',
  'notify.device.iosVersion': 'Web Push setzt iOS 16.4 oder neuer voraus.',
  'notify.device.insecure':
    'Browser nehmen Push-Benachrichtigungen nur auf Seiten an, die über HTTPS ausgeliefert werden (oder über localhost auf demselben Computer). Öffnen Sie Sess unter seiner https://-Adresse, um dieses Gerät hinzuzufügen, oder verlassen Sie sich auf E-Mail.',
  'notify.device.unsupported':
    'Dieser Browser kann keine Push-Benachrichtigungen empfangen. Versuchen Sie es mit einem anderen Browser oder verlassen Sie sich auf E-Mail.',
  'notify.device.denied':
    'Benachrichtigungen sind für diese Website in diesem Browser blockiert. Erlauben Sie sie in den Website-Einstellungen des Browsers und laden Sie diese Seite dann neu.',
  'notify.device.noScript': 'Zum Hinzufügen eines Geräts wird JavaScript benötigt.',

  'notify.devices.heading': 'Ihre Geräte',
  'notify.devices.none': 'Noch keine Geräte.',
  'notify.devices.added': 'Hinzugefügt am {date}',
  'notify.devices.lastDelivery': 'Zuletzt zugestellt: {date}',
  'notify.devices.noDelivery': 'Noch nichts zugestellt',
  'notify.devices.lastFailure': 'Letzter Fehler: {date}',
  'notify.devices.remove': 'Entfernen',
  'notify.devices.removeLabel': '{name} entfernen',

  'notify.settings.heading': 'Einstellungen',
  'notify.settings.channels': 'Kanäle',
  'notify.settings.push': 'Push-Benachrichtigungen an meine Geräte',
  'notify.settings.email': 'E-Mail',
  'notify.settings.emailHint': 'Der Link per E-Mail, wenn keines Ihrer Geräte eine Push-Nachricht annimmt.',
  'notify.settings.emailMissing':
    'Für E-Mail braucht der Server SMTP-Einstellungen (SMTP_URL und eine Absenderadresse). Dieser Server hat noch keine, daher werden keine E-Mails verschickt.',
  'notify.settings.quiet': 'Ruhezeiten',
  'notify.settings.quietCheck': 'Benachrichtigungen während der Ruhezeiten zurückhalten',
  'notify.settings.quietHint': 'Sie werden nach dem Ende der Ruhezeiten verschickt, sofern der Link dann noch offen ist.',
  'notify.settings.from': 'Von',
  'notify.settings.to': 'Bis',
  'notify.settings.timeZone': 'Zeitzone',
  'notify.settings.timeZoneHint': 'Zum Beispiel Europe/Berlin oder UTC.',
  'notify.settings.reminders': 'Erinnerungen',
  'notify.settings.remindersCheck': 'Mich kurz bevor ein unbeantworteter Link abläuft erinnern',
  'notify.settings.ask': 'Neuigkeiten zu Asks',
  'notify.settings.askHint': 'Wenn ein Ask, den Ihr Agent mit anderen geteilt hat, Antworten erhält, benachrichtigen Sie mich:',
  'notify.settings.askEach': 'Bei jeder Antwort',
  'notify.settings.askClosed': 'Wenn er abgeschlossen ist',
  'notify.settings.askOff': 'Gar nicht',
  'notify.settings.apiKeys': 'API-Schlüssel',
  'notify.settings.apiKeyCheck':
    'Mich auch bei Formularen benachrichtigen, die mit den API-Schlüsseln dieses Arbeitsbereichs erstellt wurden',
  'notify.settings.apiKeyHint':
    'Für Arbeitsbereiche, die Ihnen gehören. Bei Formularen, die Ihre verbundenen Apps für Sie erstellen, werden Sie immer benachrichtigt.',
  'notify.settings.save': 'Einstellungen speichern',

  'notify.error.quietStart': 'Für die Ruhezeiten fehlt eine Anfangszeit, zum Beispiel 22:00.',
  'notify.error.quietEnd': 'Für die Ruhezeiten fehlt eine Endzeit, zum Beispiel 07:00.',
  'notify.error.quietSame': 'Anfang und Ende der Ruhezeiten müssen verschieden sein.',
  'notify.error.timeZone': 'Geben Sie eine Zeitzone wie Europe/Berlin oder UTC an.',
  'notify.error.askUpdates': 'Wählen Sie, wann Neuigkeiten zu Asks Sie erreichen sollen.',
  'notify.error.expiredTitle': 'Nichts wurde geändert',
  'notify.error.expired':
    'Diese Seite war abgelaufen (oder die Anfrage kam nicht von ihr). Laden Sie sie neu und versuchen Sie es noch einmal.',
  'notify.error.noDeviceTitle': 'Gerät nicht gefunden',
  'notify.error.noDevice': 'Dieses Gerät steht nicht auf Ihrer Liste (vielleicht wurde es schon entfernt).',
  'notify.error.backToPage': 'Zurück zu den Benachrichtigungen',
  'notify.error.signIn': 'Melden Sie sich zuerst bei Sess an.',
  'notify.error.subscription':
    'Das Push-Abonnement dieses Browsers ließ sich nicht verwenden, daher wurde das Gerät nicht hinzugefügt. Versuchen Sie es mit einem anderen Browser.',
  'notify.error.deviceName':
    'Der Gerätename ist zu lang oder enthält Zeichen, die Sess nicht annimmt. Kürzen Sie ihn und versuchen Sie es noch einmal.',
  'notify.error.tooManyDevices':
    '{max, plural, one {Sie haben # Gerät, mehr speichert Sess nicht.} other {Sie haben # Geräte, mehr speichert Sess nicht.}} Entfernen Sie eines, das Sie nicht mehr nutzen, und versuchen Sie es dann noch einmal.',

  'notify.script.deviceName': '{browser} auf {system}',
  'notify.script.thisDevice': 'diesem Gerät',
  'notify.script.browser': 'Browser',
  'notify.script.notAllowed': 'Benachrichtigungen wurden nicht erlaubt, daher wurde dieses Gerät nicht hinzugefügt.',
  'notify.script.adding': 'Dieses Gerät wird hinzugefügt …',
  'notify.script.silent':
    'Der Push-Dienst Ihres Browsers hat nicht innerhalb von {seconds, number} Sekunden geantwortet, daher wurde dieses Gerät nicht hinzugefügt. Prüfen Sie, ob das Gerät online ist (ein VPN, eine Firewall oder ein Inhaltsblocker kann den Push-Dienst unerreichbar machen), und tippen Sie dann erneut auf „Dieses Gerät benachrichtigen“.',
  'notify.script.subscribeFailed':
    'Dieser Browser konnte gerade keine Push-Nachrichten abonnieren. Versuchen Sie es noch einmal oder mit einem anderen Browser.',
  'notify.script.late':
    'Sess hat nicht rechtzeitig geantwortet, daher wurde dieses Gerät möglicherweise nicht hinzugefügt. Laden Sie die Seite neu, um nachzusehen, und versuchen Sie es erneut, wenn es nicht aufgeführt ist.',
  'notify.script.unreachable':
    'Sess war nicht erreichbar, daher wurde dieses Gerät nicht hinzugefügt. Prüfen Sie Ihre Verbindung und versuchen Sie es noch einmal.',
  'notify.script.refused': 'Sess konnte dieses Gerät nicht hinzufügen. Laden Sie die Seite neu und versuchen Sie es noch einmal.',
  'notify.script.failed':
    'Beim Hinzufügen dieses Geräts ist etwas schiefgegangen. Laden Sie die Seite neu und versuchen Sie es noch einmal.',
  'notify.error.endpointNotPublic':
    'Der Push-Dienst dieses Browsers liegt nicht unter einer öffentlichen Adresse, an die Sess senden darf; dieses Gerät wurde daher nicht hinzugefügt. Versuchen Sie einen anderen Browser.',
} as const satisfies Translation<typeof en>;
