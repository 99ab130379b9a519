import type { Translation } from '../../catalog-types.ts';
import type { answer as en } from '../en/answer.ts';

export const answer = {
  'answer.documentTitle': '{title} · Sess',
  'answer.title.error': 'Napaka: {title}',
  'answer.title.passkey': 'Potrdite s ključem za dostop: {title}',
  'answer.title.passkeyError': 'Napaka: Potrdite s ključem za dostop: {title}',
  'answer.title.answered': 'Poslano: {title}',
  'answer.title.done': 'Končano',
  'answer.title.doneWith': 'Končano: {title}',
  'answer.title.withdrawn': 'Umaknjeno',
  'answer.title.decided': 'Že odločeno',
  'answer.title.linkClosed': 'Povezava je zaprta',
  'answer.title.lapsed': 'Čas je potekel: {title}',
  'answer.title.notFound': 'Ni najdeno',
  'answer.title.refused': 'Zastarela stran',
  'answer.title.tooLarge': 'Preveč za pošiljanje',
  'answer.title.unavailable': 'Poskusite znova',
  'answer.title.someoneElse': 'Ta obrazec je namenjen nekomu drugemu',
  'answer.title.noPasskey': 'Za odgovor dodajte ključ za dostop',

  'answer.form.submit': 'Pošlji',
  'answer.form.required': '(obvezno)',
  'answer.form.chooseAtLeastOne': '(izberite vsaj eno)',
  'answer.form.errorLabel': 'Napaka:',
  'answer.form.choose': 'Izberite …',
  'answer.form.ratingLowest': '{value, number} – najnižje',
  'answer.form.ratingHighest': '{value, number} – najvišje',
  'answer.form.passkeyNext':
    'Ko izberete, vas naprava prosi za ključ za dostop, s katerim potrdite ta odgovor; pred tem se nič ne pošlje.',
  'answer.form.closesSoon': 'Ta povezava se zapre čez manj kot minuto.',
  'answer.form.closesInMinutes':
    'Ta povezava se zapre čez približno {minutes, plural, one {# minuto} two {# minuti} few {# minute} other {# minut}}.',
  'answer.form.closesInHours':
    'Ta povezava se zapre čez približno {hours, plural, one {# uro} two {# uri} few {# ure} other {# ur}}.',
  'answer.form.closesInDays':
    'Ta povezava se zapre čez približno {days, plural, one {# dan} two {# dneva} few {# dni} other {# dni}}.',
  'answer.number.any': 'Število, na primer {example}.',
  'answer.number.between': 'Število od {min} do {max}.',
  'answer.number.atLeast': 'Število {min} ali več.',
  'answer.number.atMost': 'Število {max} ali manj.',
  'answer.integer.any': 'Celo število.',
  'answer.integer.between': 'Celo število od {min} do {max}.',
  'answer.integer.atLeast': 'Celo število {min} ali več.',
  'answer.integer.atMost': 'Celo število {max} ali manj.',

  'answer.errors.heading': 'Prišlo je do težave',
  'answer.errors.item': '{label}: {message}',
  'answer.error.required': 'Za nadaljevanje odgovorite na to.',
  'answer.error.type':
    '{expected, select, text {Vnesite besedilo.} number {Vnesite število.} integer {Vnesite celo število.} boolean {Označite polje ali ga pustite prazno.} list {Izberite med ponujenimi možnostmi.} other {Vnesite veljavno vrednost.}}',
  'answer.error.enum': 'Izberite eno od možnosti.',
  'answer.error.duplicate': 'Vsako možnost izberite le enkrat.',
  'answer.error.tooShort':
    'Vnesite vsaj {limit, plural, one {# znak} two {# znaka} few {# znake} other {# znakov}} (zdaj jih je {length, number}).',
  'answer.error.tooLong':
    'Vnesite največ {limit, plural, one {# znak} two {# znaka} few {# znake} other {# znakov}} (zdaj jih je {length, number}).',
  'answer.error.tooSmall': 'Vnesite {limit} ali več.',
  'answer.error.tooBig': 'Vnesite {limit} ali manj.',
  'answer.error.tooFew': 'Izberite vsaj {limit, number}.',
  'answer.error.tooMany': 'Izberite največ {limit, number}.',
  'answer.error.pattern': 'Vnesite v zahtevani obliki.',
  'answer.error.format':
    '{format, select, email {Vnesite e-poštni naslov, na primer ime@example.com.} uri {Vnesite celoten spletni naslov, na primer https://example.com.} date {Vnesite datum, na primer 2025-06-30.} dateTime {Vnesite datum in čas, na primer 2025-06-30T14:30.} time {Vnesite čas, na primer 14:30.} other {Vnesite veljavno vrednost.}}',
  'answer.error.character':
    'Besedilo vsebuje {kind, select, control {neviden krmilni znak} other {znak, ki ga ni mogoče shraniti}} ({codePoint}) na mestu {position, number}. Odstranite ga in pošljite znova.',
  'answer.error.unknownField': 'Ta obrazec nima takega polja. Znova naložite stran in poskusite še enkrat.',
  'answer.error.unknownAction': 'Tega gumba ni v tem obrazcu. Znova naložite stran in poskusite še enkrat.',
  'answer.error.actionRequired': 'Izberite enega od gumbov.',

  'answer.follow.newStep':
    'Agent je poslal nov korak, zato tega obrazca ni več mogoče poslati. Kar ste vnesli, ostane tukaj, dokler ne naložite novega koraka.',
  'answer.follow.loadNewStep': 'Naloži nov korak',
  'answer.follow.answered':
    'Na to vprašanje je bil odgovor že poslan iz drugega zavihka ali naprave. Velja prvi poslani odgovor.',
  'answer.follow.completed': 'Agent je to vprašanje zaključil: ne sprejema več odgovorov.',
  'answer.follow.withdrawn': 'Agent je to vprašanje umaknil: ne sprejema več odgovorov.',
  'answer.follow.lapsed': 'Čas za odgovor je potekel. Odgovora ni mogoče poslati, razen če prosite za več časa.',
  'answer.follow.expired': 'Ta povezava je zaprta: ne sprejema več odgovorov.',
  'answer.follow.show': 'Prikaži',
  'answer.follow.showWhatToDo': 'Prikaži, kaj storiti',

  'answer.status.keptFirst': 'To vprašanje je že imelo odgovor, zato vaš ni bil poslan: velja prvi poslani odgovor.',
  'answer.status.sentHeading': 'Poslano – čakanje na naslednji korak',
  'answer.status.keptHeading': 'Že odgovorjeno – čakanje na naslednji korak',
  'answer.status.sent': 'Vaš odgovor je bil poslan.',
  'answer.status.nextShowsInChat': 'Naslednji korak, če bo, se bo prikazal tukaj.',
  'answer.status.keepOpen': 'Pustite to stran odprto: naslednji korak, če bo, se bo prikazal tukaj.',
  'answer.status.closeAndReopen': 'Lahko jo tudi zaprete in povezavo znova odprete pozneje.',
  'answer.status.checkNext': 'Preveri, ali je na voljo naslednji korak',
  'answer.status.yourAnswer': 'Vaš odgovor',
  'answer.status.answerKept': 'Veljavni odgovor',
  'answer.status.decided': '{decided, select, approved {Odločeno je: odobreno.} other {Odločeno je: zavrnjeno.}}',
  'answer.status.doneHeading': 'Končano',
  'answer.status.doneYours': 'Agent je prejel vaš odgovor. Nič več ni treba storiti: to stran lahko zaprete.',
  'answer.status.doneKept': 'Agent je prejel ta odgovor. Nič več ni treba storiti: to stran lahko zaprete.',
  'answer.status.withdrawnHeading': 'Vprašanje je bilo umaknjeno',
  'answer.status.withdrawn': 'Agent tukaj ne potrebuje več odgovora. Ničesar vam ni treba storiti: to stran lahko zaprete.',
  'answer.status.decidedHeading': 'Že odločeno',
  'answer.status.decidedNotNeeded': 'Vaš odgovor ni več potreben: to stran lahko zaprete.',
  'answer.status.closedHeading': 'Ta povezava je zaprta',
  'answer.status.closed':
    'Čas za odgovor je minil, zato ta povezava ne sprejema več odgovorov. Če je odgovor še potreben, prosite za novo povezavo.',
  'answer.status.lapsedHeading': 'Čas za odgovor je potekel',
  'answer.status.lapsedInChat': 'Še vedno lahko odgovorite: na strani za odgovor prosite za več časa in obrazec se znova odpre.',
  'answer.status.lapsedOpenLink': 'Še vedno lahko odgovorite: odprite povezavo, ki ste jo prejeli, in tam prosite za več časa.',
  'answer.status.lapsedExtend': 'Še vedno lahko odgovorite: prosite za več časa in obrazec se znova odpre.',
  'answer.status.lapsedNoMore': 'Ta povezava ne sprejema več odgovorov. Če je odgovor še potreben, prosite za novo povezavo.',
  'answer.status.askMoreTime': 'Prosi za več časa',
  'answer.ask.shareInChat': 'Vsak odgovori na svoji strani: povezavo delite z ljudmi, ki jih sprašujete.',
  'answer.ask.pressStart':
    'Pritisnite »Začni«, da odprete svojo stran za odgovor. Drugi, ki imajo to povezavo, odgovarjajo na svojih straneh.',
  'answer.ask.start': 'Začni',
  'answer.ask.full':
    'Vsa mesta so trenutno zasedena. Če kdo ne odgovori pravočasno, se njegovo mesto sprosti: poskusite znova pozneje.',
  'answer.ask.tryAgain': 'Poskusi znova',
  'answer.ask.noMore': 'To vprašanje ne sprejema več odgovorov.',
  'answer.plain.notFoundHeading': 'Tukaj ni ničesar',
  'answer.plain.notFound': 'Ta povezava ni veljavna. Preverite, ali ste odprli celotno povezavo, ki ste jo prejeli.',
  'answer.plain.refusedHeading': 'Ta stran je bila zastarela',
  'answer.plain.refused': 'Vaš odgovor ni bil poslan. Znova odprite stran in ga pošljite od tam.',
  'answer.plain.openAgain': 'Znova odpri stran',
  'answer.plain.tooLargeHeading': 'To je bilo preveč za pošiljanje',
  'answer.plain.tooLarge': 'Vaš odgovor ni bil poslan. Skrajšajte ga in ga pošljite znova.',
  'answer.plain.someoneElseHeading': 'Ta obrazec je namenjen nekomu drugemu',
  'answer.plain.someoneElse':
    'Nanj mora odgovoriti oseba, ki ji je namenjen, prijavljena v Sess. Račun, ki je prijavljen v tem brskalniku, ni njen, zato ni bilo nič poslano in nič spremenjeno.',
  'answer.plain.someoneElseWhat':
    'Če je obrazec namenjen vam, se odjavite, prijavite se s svojim računom in znova odprite povezavo.',
  'answer.plain.openAccount': 'Odpri svoj račun',
  'answer.plain.noPasskeyHeading': 'Za odgovor dodajte ključ za dostop',
  'answer.plain.noPasskey':
    'Ta obrazec je treba potrditi s ključem za dostop, vaš račun Sess pa ga še nima. Nič ni bilo poslano in nič spremenjeno.',
  'answer.plain.noPasskeyWhat': 'V svoj račun dodajte ključ za dostop, nato znova odprite povezavo in odgovorite.',
  'answer.plain.addPasskey': 'Dodaj ključ za dostop',
  'answer.plain.unavailableHeading': 'Pri nas je šlo nekaj narobe',
  'answer.plain.unavailable': 'Nič se ni izgubilo. Poskusite znova čez trenutek.',

  'answer.own.noAnswer': 'Brez odgovora',
  'answer.own.yes': 'Da',
  'answer.own.no': 'Ne',
  'answer.own.ratingOf': '{value, number} od {max, number}',
  'answer.own.youChose': 'Izbrali ste',
  'answer.own.download': 'Prenesi potrdilo',
  'answer.own.provesLink':
    'Potrdilo je podpisal Sess: dokazuje, da je bil ta odgovor dan prek te povezave. Preverite ga z ukazom {command} v kopiji Sess.',
  'answer.own.provesAccount':
    'Potrdilo je podpisal Sess: dokazuje, da je bil ta odgovor dan prek te povezave z vašim prijavljenim računom Sess. Preverite ga z ukazom {command} v kopiji Sess.',
  'answer.own.provesPasskey':
    'Potrdilo je podpisal Sess: dokazuje, da je bil ta odgovor dan prek te povezave z vašim računom Sess in potrjen z vašim ključem za dostop. Preverite ga z ukazom {command} v kopiji Sess.',

  'answer.passkey.notSent': 'Vaš odgovor ni bil poslan',
  'answer.passkey.heading': 'Potrdite s ključem za dostop',
  'answer.passkey.lead':
    'Ta obrazec morate potrditi sami, s svojim ključem za dostop. Naprava vas prosi za prstni odtis, obraz, PIN ali zaklepanje zaslona, potrditev pa velja samo za ta odgovor. Dokler ne potrdite, se nič ne pošlje.',
  'answer.passkey.confirm': 'Potrdi s ključem za dostop',
  'answer.passkey.change': 'Spremeni odgovor',
  'answer.passkey.needsScript':
    'Za potrditev s ključem za dostop potrebujete JavaScript in brskalnik, ki podpira ključe za dostop.',
  'answer.passkey.cancelled':
    'Zahteva za ključ za dostop je bila preklicana ali je potekla. Nič ni bilo poslano: poskusite znova.',
  'answer.passkey.failed': 'Vaš brskalnik trenutno ni mogel uporabiti ključa za dostop. Nič ni bilo poslano: poskusite znova.',

  'answer.handoff.heading': 'Odgovorite na telefonu',
  'answer.handoff.qrLabel': 'Koda QR s povezavo do te strani',
  'answer.handoff.scanPage': 'Skenirajte to kodo s kamero telefona, da tam odprete to isto stran.',
  'answer.handoff.scanForm': 'Skenirajte to kodo s kamero telefona, da tam odprete ta obrazec.',
  'answer.handoff.loopback':
    'Ta povezava kaže na ta računalnik, zato je telefon ne more odpreti. Kdor upravlja ta Sess, lahko {setting} nastavi na njegov naslov v vašem omrežju (glejte README).',
  'answer.handoff.openOnPhone': 'Odgovori na telefonu',
} as const satisfies Translation<typeof en>;
