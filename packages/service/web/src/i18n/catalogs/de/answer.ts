import type { Translation } from '../../catalog-types.ts';
import type { answer as en } from '../en/answer.ts';

export const answer = {
  'answer.documentTitle': '{title} · Sess',
  'answer.title.error': 'Fehler: {title}',
  'answer.title.passkey': 'Mit Ihrem Passkey bestätigen: {title}',
  'answer.title.passkeyError': 'Fehler: Mit Ihrem Passkey bestätigen: {title}',
  'answer.title.answered': 'Gesendet: {title}',
  'answer.title.done': 'Erledigt',
  'answer.title.doneWith': 'Erledigt: {title}',
  'answer.title.withdrawn': 'Zurückgezogen',
  'answer.title.decided': 'Bereits entschieden',
  'answer.title.linkClosed': 'Link geschlossen',
  'answer.title.lapsed': 'Zeit abgelaufen: {title}',
  'answer.title.notFound': 'Nicht gefunden',
  'answer.title.refused': 'Seite veraltet',
  'answer.title.tooLarge': 'Zu viel zum Senden',
  'answer.title.unavailable': 'Bitte erneut versuchen',
  'answer.title.someoneElse': 'Dieses Formular ist für jemand anderen',
  'answer.title.noPasskey': 'Passkey hinzufügen, um zu antworten',

  'answer.form.submit': 'Absenden',
  'answer.form.required': '(Pflichtfeld)',
  'answer.form.chooseAtLeastOne': '(mindestens eine Auswahl)',
  'answer.form.errorLabel': 'Fehler:',
  'answer.form.choose': 'Bitte wählen …',
  'answer.form.ratingLowest': '{value, number} = niedrigster Wert',
  'answer.form.ratingHighest': '{value, number} = höchster Wert',
  'answer.form.passkeyNext':
    'Nach Ihrer Auswahl fragt Ihr Gerät nach Ihrem Passkey, um diese Antwort zu bestätigen; vorher wird nichts gesendet.',
  'answer.form.closesSoon': 'Dieser Link schließt in weniger als einer Minute.',
  'answer.form.closesInMinutes': 'Dieser Link schließt in etwa {minutes, plural, one {# Minute} other {# Minuten}}.',
  'answer.form.closesInHours': 'Dieser Link schließt in etwa {hours, plural, one {# Stunde} other {# Stunden}}.',
  'answer.form.closesInDays': 'Dieser Link schließt in etwa {days, plural, one {# Tag} other {# Tagen}}.',
  'answer.number.any': 'Eine Zahl, zum Beispiel {example}.',
  'answer.number.between': 'Eine Zahl von {min} bis {max}.',
  'answer.number.atLeast': 'Eine Zahl ab {min}.',
  'answer.number.atMost': 'Eine Zahl bis höchstens {max}.',
  'answer.integer.any': 'Eine ganze Zahl.',
  'answer.integer.between': 'Eine ganze Zahl von {min} bis {max}.',
  'answer.integer.atLeast': 'Eine ganze Zahl ab {min}.',
  'answer.integer.atMost': 'Eine ganze Zahl bis höchstens {max}.',

  'answer.errors.heading': 'Es gibt ein Problem',
  'answer.errors.item': '{label}: {message}',
  'answer.error.required': 'Bitte beantworten Sie dies, um fortzufahren.',
  'answer.error.type':
    '{expected, select, text {Bitte geben Sie Text ein.} number {Bitte geben Sie eine Zahl ein.} integer {Bitte geben Sie eine ganze Zahl ein.} boolean {Setzen Sie das Häkchen oder lassen Sie das Feld leer.} list {Bitte wählen Sie aus den Optionen.} other {Bitte geben Sie einen gültigen Wert ein.}}',
  'answer.error.enum': 'Bitte wählen Sie eine der Optionen.',
  'answer.error.duplicate': 'Bitte wählen Sie jede Option nur einmal.',
  'answer.error.tooShort':
    'Bitte geben Sie mindestens {limit, plural, one {# Zeichen} other {# Zeichen}} ein (derzeit {length, number}).',
  'answer.error.tooLong':
    'Bitte geben Sie höchstens {limit, plural, one {# Zeichen} other {# Zeichen}} ein (derzeit {length, number}).',
  'answer.error.tooSmall': 'Bitte geben Sie {limit} oder mehr ein.',
  'answer.error.tooBig': 'Bitte geben Sie {limit} oder weniger ein.',
  'answer.error.tooFew': 'Bitte wählen Sie mindestens {limit, number} aus.',
  'answer.error.tooMany': 'Bitte wählen Sie höchstens {limit, number} aus.',
  'answer.error.pattern': 'Bitte geben Sie es im verlangten Format ein.',
  'answer.error.format':
    '{format, select, email {Bitte geben Sie eine E-Mail-Adresse ein, etwa name@example.com.} uri {Bitte geben Sie eine vollständige Webadresse ein, etwa https://example.com.} date {Bitte geben Sie ein Datum ein, etwa 2025-06-30.} dateTime {Bitte geben Sie Datum und Uhrzeit ein, etwa 2025-06-30T14:30.} time {Bitte geben Sie eine Uhrzeit ein, etwa 14:30.} other {Bitte geben Sie einen gültigen Wert ein.}}',
  'answer.error.character':
    'Der Text enthält {kind, select, control {ein unsichtbares Steuerzeichen} other {ein Zeichen, das nicht gespeichert werden kann}} ({codePoint}) an Stelle {position, number}. Entfernen Sie es und senden Sie erneut.',
  'answer.error.unknownField': 'Dieses Formular hat kein solches Feld. Laden Sie die Seite neu und versuchen Sie es noch einmal.',
  'answer.error.unknownAction':
    'Diese Schaltfläche gehört nicht zu diesem Formular. Laden Sie die Seite neu und versuchen Sie es noch einmal.',
  'answer.error.actionRequired': 'Bitte wählen Sie eine der Schaltflächen.',

  'answer.follow.newStep':
    'Der Agent hat einen neuen Schritt gesendet, daher kann dieses Formular nicht mehr gesendet werden. Ihre Eingaben bleiben hier, bis Sie ihn laden.',
  'answer.follow.loadNewStep': 'Neuen Schritt laden',
  'answer.follow.answered':
    'Diese Frage wurde bereits beantwortet, in einem anderen Tab oder auf einem anderen Gerät. Es gilt die zuerst gesendete Antwort.',
  'answer.follow.completed': 'Der Agent hat diese Frage abgeschlossen: Sie nimmt keine Antworten mehr an.',
  'answer.follow.withdrawn': 'Der Agent hat diese Frage zurückgezogen: Sie nimmt keine Antworten mehr an.',
  'answer.follow.lapsed':
    'Die Zeit zum Antworten ist abgelaufen. Ihre Antwort kann nur gesendet werden, wenn Sie um mehr Zeit bitten.',
  'answer.follow.expired': 'Dieser Link ist geschlossen: Er nimmt keine Antworten mehr an.',
  'answer.follow.show': 'Anzeigen',
  'answer.follow.showWhatToDo': 'Zeigen, was zu tun ist',

  'answer.status.keptFirst':
    'Diese Frage hatte bereits eine Antwort, deshalb wurde Ihre nicht gesendet: Es gilt die zuerst gesendete Antwort.',
  'answer.status.sentHeading': 'Gesendet – warten auf den nächsten Schritt',
  'answer.status.keptHeading': 'Bereits beantwortet – warten auf den nächsten Schritt',
  'answer.status.sent': 'Ihre Antwort wurde gesendet.',
  'answer.status.nextShowsInChat': 'Der nächste Schritt erscheint hier, falls es einen gibt.',
  'answer.status.keepOpen': 'Lassen Sie diese Seite geöffnet: Der nächste Schritt erscheint hier, falls es einen gibt.',
  'answer.status.closeAndReopen': 'Sie können sie auch schließen und den Link später wieder öffnen.',
  'answer.status.checkNext': 'Nach dem nächsten Schritt sehen',
  'answer.status.yourAnswer': 'Ihre Antwort',
  'answer.status.answerKept': 'Die gültige Antwort',
  'answer.status.decided':
    '{decided, select, approved {Es wurde entschieden: genehmigt.} other {Es wurde entschieden: abgelehnt.}}',
  'answer.status.doneHeading': 'Erledigt',
  'answer.status.doneYours': 'Der Agent hat Ihre Antwort. Sonst ist nichts nötig: Sie können diese Seite schließen.',
  'answer.status.doneKept': 'Der Agent hat diese Antwort. Sonst ist nichts nötig: Sie können diese Seite schließen.',
  'answer.status.withdrawnHeading': 'Die Frage wurde zurückgezogen',
  'answer.status.withdrawn':
    'Der Agent braucht hier keine Antwort mehr. Es gibt nichts mehr zu tun: Sie können diese Seite schließen.',
  'answer.status.decidedHeading': 'Bereits entschieden',
  'answer.status.decidedNotNeeded': 'Ihre Antwort wird nicht mehr benötigt: Sie können diese Seite schließen.',
  'answer.status.closedHeading': 'Dieser Link ist geschlossen',
  'answer.status.closed':
    'Die Zeit zum Antworten ist vorbei, daher nimmt dieser Link keine Antworten mehr an. Falls noch eine Antwort nötig ist, bitten Sie um einen neuen Link.',
  'answer.status.lapsedHeading': 'Die Zeit zum Antworten ist abgelaufen',
  'answer.status.lapsedInChat':
    'Sie können noch antworten: Bitten Sie auf der Antwortseite um mehr Zeit, dann öffnet sich das Formular wieder.',
  'answer.status.lapsedOpenLink':
    'Sie können noch antworten: Öffnen Sie den Link, den Sie erhalten haben, und bitten Sie dort um mehr Zeit.',
  'answer.status.lapsedExtend': 'Sie können noch antworten: Bitten Sie um mehr Zeit, dann öffnet sich das Formular wieder.',
  'answer.status.lapsedNoMore':
    'Dieser Link nimmt keine Antworten mehr an. Falls noch eine Antwort nötig ist, bitten Sie um einen neuen Link.',
  'answer.status.askMoreTime': 'Um mehr Zeit bitten',
  'answer.ask.shareInChat':
    'Jede Person antwortet auf ihrer eigenen Seite: Teilen Sie den Link mit den Personen, die Sie fragen.',
  'answer.ask.pressStart':
    'Klicken Sie auf „Starten“, um Ihre eigene Antwortseite zu öffnen. Andere mit diesem Link antworten auf ihren eigenen Seiten.',
  'answer.ask.start': 'Starten',
  'answer.ask.full':
    'Im Moment sind alle Plätze vergeben. Wenn jemand nicht rechtzeitig antwortet, wird der Platz wieder frei: Versuchen Sie es später noch einmal.',
  'answer.ask.tryAgain': 'Erneut versuchen',
  'answer.ask.noMore': 'Diese Frage nimmt keine Antworten mehr an.',
  'answer.plain.notFoundHeading': 'Hier gibt es nichts',
  'answer.plain.notFound':
    'Dieser Link ist ungültig. Prüfen Sie, ob Sie den vollständigen Link geöffnet haben, den Sie erhalten haben.',
  'answer.plain.refusedHeading': 'Diese Seite war veraltet',
  'answer.plain.refused': 'Ihre Antwort wurde nicht gesendet. Öffnen Sie die Seite erneut und senden Sie sie von dort.',
  'answer.plain.openAgain': 'Seite erneut öffnen',
  'answer.plain.tooLargeHeading': 'Das war zu viel zum Senden',
  'answer.plain.tooLarge': 'Ihre Antwort wurde nicht gesendet. Kürzen Sie sie und senden Sie sie erneut.',
  'answer.plain.someoneElseHeading': 'Dieses Formular ist für jemand anderen',
  'answer.plain.someoneElse':
    'Es muss von der Person beantwortet werden, für die es erstellt wurde, angemeldet bei Sess. Das in diesem Browser angemeldete Konto ist nicht ihres, daher wurde nichts gesendet und nichts geändert.',
  'answer.plain.someoneElseWhat':
    'Wenn das Formular für Sie ist, melden Sie sich ab, melden Sie sich mit Ihrem eigenen Konto an und öffnen Sie den Link dann erneut.',
  'answer.plain.openAccount': 'Ihr Konto öffnen',
  'answer.plain.noPasskeyHeading': 'Passkey hinzufügen, um zu antworten',
  'answer.plain.noPasskey':
    'Dieses Formular muss mit Ihrem Passkey bestätigt werden, und Ihr Sess-Konto hat noch keinen. Es wurde nichts gesendet und nichts geändert.',
  'answer.plain.noPasskeyWhat': 'Fügen Sie Ihrem Konto einen Passkey hinzu, öffnen Sie dann den Link erneut und antworten Sie.',
  'answer.plain.addPasskey': 'Passkey hinzufügen',
  'answer.plain.unavailableHeading': 'Bei uns ist etwas schiefgelaufen',
  'answer.plain.unavailable': 'Es ist nichts verloren gegangen. Versuchen Sie es gleich noch einmal.',

  'answer.own.noAnswer': 'Keine Antwort',
  'answer.own.yes': 'Ja',
  'answer.own.no': 'Nein',
  'answer.own.ratingOf': '{value, number} von {max, number}',
  'answer.own.youChose': 'Ihre Wahl',
  'answer.own.download': 'Quittung herunterladen',
  'answer.own.provesLink':
    'Die Quittung ist von Sess signiert: Sie belegt, dass diese Antwort über diesen Link gegeben wurde. Prüfen Sie sie mit {command} in einem Sess-Checkout.',
  'answer.own.provesAccount':
    'Die Quittung ist von Sess signiert: Sie belegt, dass diese Antwort über diesen Link von Ihrem angemeldeten Sess-Konto gegeben wurde. Prüfen Sie sie mit {command} in einem Sess-Checkout.',
  'answer.own.provesPasskey':
    'Die Quittung ist von Sess signiert: Sie belegt, dass diese Antwort über diesen Link von Ihrem Sess-Konto gegeben und mit Ihrem Passkey bestätigt wurde. Prüfen Sie sie mit {command} in einem Sess-Checkout.',

  'answer.passkey.notSent': 'Ihre Antwort wurde nicht gesendet',
  'answer.passkey.heading': 'Mit Ihrem Passkey bestätigen',
  'answer.passkey.lead':
    'Dieses Formular müssen Sie selbst mit Ihrem Passkey bestätigen. Ihr Gerät fragt nach Fingerabdruck, Gesicht, PIN oder Bildschirmsperre, und die Bestätigung gilt nur für diese Antwort. Bis Sie bestätigen, wird nichts gesendet.',
  'answer.passkey.confirm': 'Mit Passkey bestätigen',
  'answer.passkey.change': 'Antwort ändern',
  'answer.passkey.needsScript':
    'Die Bestätigung mit einem Passkey braucht JavaScript und einen Browser, der Passkeys unterstützt.',
  'answer.passkey.cancelled':
    'Die Passkey-Anfrage wurde abgebrochen oder ist abgelaufen. Es wurde nichts gesendet: Versuchen Sie es erneut.',
  'answer.passkey.failed':
    'Ihr Browser konnte gerade keinen Passkey verwenden. Es wurde nichts gesendet: Versuchen Sie es erneut.',

  'answer.handoff.heading': 'Auf dem Smartphone antworten',
  'answer.handoff.qrLabel': 'QR-Code mit dem Link dieser Seite',
  'answer.handoff.scanPage': 'Scannen Sie diesen Code mit der Kamera Ihres Smartphones, um dieselbe Seite dort zu öffnen.',
  'answer.handoff.scanForm': 'Scannen Sie diesen Code mit der Kamera Ihres Smartphones, um dieses Formular dort zu öffnen.',
  'answer.handoff.loopback':
    'Dieser Link verweist auf diesen Computer, daher kann ein Smartphone ihn nicht öffnen. Wer dieses Sess betreibt, kann {setting} auf seine Adresse in Ihrem Netzwerk setzen (siehe README).',
  'answer.handoff.openOnPhone': 'Auf meinem Smartphone antworten',
} as const satisfies Translation<typeof en>;
