import type { Translation } from '../../catalog-types.ts';
import type { notify as en } from '../en/notify.ts';

export const notify = {
  'notify.message.form': 'Vaš agent vas nekaj sprašuje.',
  'notify.message.followUp': 'Vaš agent ima o tem novico.',
  'notify.message.reminder': 'Še vedno čakamo na vaš odgovor; povezava kmalu poteče.',
  'notify.message.askAnswer': 'Odgovorov: {answered, number} od {max, number}.',
  'notify.message.askClosed':
    '{count, plural, one {Zaprto, prejet je # odgovor.} two {Zaprto, prejeta sta # odgovora.} few {Zaprto, prejeti so # odgovori.} other {Zaprto, prejetih je # odgovorov.}}',
  'notify.message.askApproved':
    '{count, plural, one {Odločeno: odobreno, prejet je # odgovor.} two {Odločeno: odobreno, prejeta sta # odgovora.} few {Odločeno: odobreno, prejeti so # odgovori.} other {Odločeno: odobreno, prejetih je # odgovorov.}}',
  'notify.message.askRejected':
    '{count, plural, one {Odločeno: zavrnjeno, prejet je # odgovor.} two {Odločeno: zavrnjeno, prejeta sta # odgovora.} few {Odločeno: zavrnjeno, prejeti so # odgovori.} other {Odločeno: zavrnjeno, prejetih je # odgovorov.}}',
  'notify.mail.until': 'Povezava velja do {date}.',
  'notify.mail.inZone': '{time} ({zone})',
  'notify.mail.why':
    'Sess vam to sporočilo pošilja, ker imate v svojem računu vklopljena obvestila po e-pošti. Izklopite jih lahko na strani svojega računa.',

  'notify.page.title': 'Obvestila · Sess',
  'notify.page.heading': 'Obvestila',
  'notify.page.lead':
    'Ko vas agent kaj vpraša, lahko Sess vprašanje pošlje na vaš telefon, tako da vam povezave ni treba prenašati tja. Obveščeni ste samo vi.',
  'notify.page.back': 'Nazaj na vaš račun',
  'notify.status.added': 'Ta naprava je dodana: Sess jo bo obveščal.',
  'notify.status.removed': 'Naprava je odstranjena. Obvestil ne bo več prejemala.',
  'notify.status.saved': 'Nastavitve so shranjene.',

  'notify.device.heading': 'Ta naprava',
  'notify.device.nameLabel': 'Ime naprave',
  'notify.device.nameHint': 'Pod tem imenom bo naprava navedena spodaj. Lahko ga spremenite.',
  'notify.device.button': 'Obveščaj to napravo',
  'notify.device.iosTitle': 'Na iPhonu ali iPadu najprej dodajte Sess na začetni zaslon.',
  'notify.device.iosShare': 'Tapnite Deli (kvadrat s puščico) in nato Dodaj na začetni zaslon.',
  'notify.device.iosOpen': 'Odprite Sess z začetnega zaslona.',
  'notify.device.iosTap': 'Tam tapnite »Obveščaj to napravo«.',
  'notify.device.iosVersion': 'Web Push deluje v sistemu iOS 16.4 ali novejšem.',
  'notify.device.insecure':
    'Brskalniki sprejemajo potisna obvestila samo na straneh, ki jih strežnik pošlje prek HTTPS (ali prek localhost na tem računalniku). Odprite Sess na njegovem naslovu https://, da dodate to napravo, ali pa se zanesite na e-pošto.',
  'notify.device.unsupported':
    'Ta brskalnik ne more prejemati potisnih obvestil. Poskusite z drugim brskalnikom ali se zanesite na e-pošto.',
  'notify.device.denied':
    'Obvestila za to spletno mesto so v tem brskalniku blokirana. Dovolite jih v nastavitvah spletnega mesta v brskalniku in nato znova naložite to stran.',
  'notify.device.noScript': 'Za dodajanje naprave potrebujete JavaScript.',

  'notify.devices.heading': 'Vaše naprave',
  'notify.devices.none': 'Naprav še ni.',
  'notify.devices.added': 'Dodana {date}',
  'notify.devices.lastDelivery': 'Zadnja dostava: {date}',
  'notify.devices.noDelivery': 'Dostave še ni bilo',
  'notify.devices.lastFailure': 'Zadnja napaka: {date}',
  'notify.devices.remove': 'Odstrani',
  'notify.devices.removeLabel': 'Odstrani {name}',

  'notify.settings.heading': 'Nastavitve',
  'notify.settings.channels': 'Kanali',
  'notify.settings.push': 'Potisna obvestila na moje naprave',
  'notify.settings.email': 'E-pošta',
  'notify.settings.emailHint': 'Povezava po e-pošti, ko potisnega obvestila ne sprejme nobena vaša naprava.',
  'notify.settings.emailMissing':
    'Za e-pošto potrebuje strežnik nastavitve SMTP (SMTP_URL in naslov pošiljatelja). Ta strežnik jih še nima, zato e-pošte ne pošilja.',
  'notify.settings.quiet': 'Tihi čas',
  'notify.settings.quietCheck': 'Med tihim časom zadrži obvestila',
  'notify.settings.quietHint': 'Poslana bodo, ko se tihi čas konča, če bo povezava še odprta.',
  'notify.settings.from': 'Od',
  'notify.settings.to': 'Do',
  'notify.settings.timeZone': 'Časovni pas',
  'notify.settings.timeZoneHint': 'Na primer Europe/Ljubljana ali UTC.',
  'notify.settings.reminders': 'Opomniki',
  'notify.settings.remindersCheck': 'Opomni me malo preden neodgovorjena povezava poteče',
  'notify.settings.ask': 'Novice o vprašanjih Ask',
  'notify.settings.askHint': 'Ko vprašanje Ask, ki ga je vaš agent delil z drugimi, dobi odgovore, me obvesti:',
  'notify.settings.askEach': 'Ob vsakem odgovoru',
  'notify.settings.askClosed': 'Ko se zapre',
  'notify.settings.askOff': 'Nikoli',
  'notify.settings.apiKeys': 'Ključi API',
  'notify.settings.apiKeyCheck': 'Obvesti me tudi o obrazcih, ustvarjenih s ključi API tega delovnega prostora',
  'notify.settings.apiKeyHint':
    'Za delovne prostore, ki so vaši. O obrazcih, ki jih za vas ustvarijo povezane aplikacije, ste obveščeni vedno.',
  'notify.settings.save': 'Shrani nastavitve',

  'notify.error.quietStart': 'Tihi čas potrebuje začetni čas, na primer 22:00.',
  'notify.error.quietEnd': 'Tihi čas potrebuje končni čas, na primer 07:00.',
  'notify.error.quietSame': 'Začetek in konec tihega časa morata biti različna.',
  'notify.error.timeZone': 'Vpišite časovni pas, na primer Europe/Ljubljana ali UTC.',
  'notify.error.askUpdates': 'Izberite, kdaj naj vas dosežejo novice o vprašanjih Ask.',
  'notify.error.expiredTitle': 'Nič ni bilo spremenjeno',
  'notify.error.expired': 'Ta stran je potekla (ali zahteva ni prišla z nje). Znova jo naložite in poskusite še enkrat.',
  'notify.error.noDeviceTitle': 'Te naprave ni',
  'notify.error.noDevice': 'Te naprave ni na vašem seznamu (morda je že odstranjena).',
  'notify.error.backToPage': 'Nazaj na obvestila',
  'notify.error.signIn': 'Najprej se prijavite v Sess.',
  'notify.error.subscription':
    'Potisne naročnine tega brskalnika ni bilo mogoče uporabiti, zato naprava ni bila dodana. Poskusite z drugim brskalnikom.',
  'notify.error.deviceName':
    'Ime naprave je predolgo ali vsebuje znake, ki jih Sess ne sprejme. Skrajšajte ga in poskusite znova.',
  'notify.error.tooManyDevices':
    '{max, plural, one {Imate # napravo, kar je največ, kolikor jih Sess hrani.} two {Imate # napravi, kar je največ, kolikor jih Sess hrani.} few {Imate # naprave, kar je največ, kolikor jih Sess hrani.} other {Imate # naprav, kar je največ, kolikor jih Sess hrani.}} Odstranite eno, ki je ne uporabljate več, in poskusite znova.',

  'notify.script.deviceName': '{browser} ({system})',
  'notify.script.thisDevice': 'ta naprava',
  'notify.script.browser': 'Brskalnik',
  'notify.script.notAllowed': 'Obvestila niso bila dovoljena, zato ta naprava ni bila dodana.',
  'notify.script.adding': 'Dodajanje te naprave …',
  'notify.script.silent':
    'Storitev za potisna obvestila vašega brskalnika se ni odzvala v {seconds, number} sekundah, zato ta naprava ni bila dodana. Preverite, ali je naprava povezana v splet (VPN, požarni zid ali blokator vsebine lahko storitev naredi nedosegljivo), in nato znova tapnite »Obveščaj to napravo«.',
  'notify.script.subscribeFailed':
    'Ta brskalnik se trenutno ni mogel naročiti na potisna sporočila. Poskusite znova ali uporabite drug brskalnik.',
  'notify.script.late':
    'Sess se ni odzval pravočasno, zato ta naprava morda ni dodana. Znova naložite stran, da preverite, in poskusite še enkrat, če je ni na seznamu.',
  'notify.script.unreachable': 'Sess ni bil dosegljiv, zato ta naprava ni bila dodana. Preverite povezavo in poskusite znova.',
  'notify.script.refused': 'Sess te naprave ni mogel dodati. Znova naložite stran in poskusite še enkrat.',
  'notify.script.failed': 'Pri dodajanju te naprave je šlo nekaj narobe. Znova naložite stran in poskusite še enkrat.',
  'notify.error.endpointNotPublic':
    'Storitev potisnih obvestil tega brskalnika ni na javnem naslovu, na katerega Sess sme pošiljati, zato ta naprava ni bila dodana. Poskusite z drugim brskalnikom.',
} as const satisfies Translation<typeof en>;
