import type { Translation } from '../../catalog-types.ts';
import type { oauth as en } from '../en/oauth.ts';

export const oauth = {
  'oauth.client.unverified': '(ime ni preverjeno)',
  'oauth.client.identity': '({host})',

  'oauth.consent.title': 'Ali aplikaciji {app} dovolite uporabo storitve Sess?',
  'oauth.consent.canDo': 'Aplikacija bo lahko:',
  'oauth.consent.inWorkspace': 'V delovnem prostoru {workspace}.',
  'oauth.consent.workspace': 'Delovni prostor',
  'oauth.consent.workspaceHint': 'Aplikacija deluje samo v delovnem prostoru, ki ga izberete.',
  'oauth.consent.redirectLoopback':
    'Nato vas vrne na ta računalnik ({host}). Dovolite le, če ste povezovanje pravkar začeli v aplikaciji na tem računalniku.',
  'oauth.consent.redirect':
    '{kind, select, app {Nato vas vrne na {host} (aplikacija na tej napravi).} other {Nato vas vrne na {host}.}}',
  'oauth.consent.allow': 'Dovoli',
  'oauth.consent.deny': 'Zavrni',
  'oauth.consent.unverifiedNote': 'Aplikacija si je ime »{app}« izbrala sama ob registraciji; Sess ga ni preveril.',
  'oauth.consent.disconnectLater': 'Povezavo lahko kadar koli prekinete v razdelku Račun → Povezane aplikacije.',
  'oauth.consent.chooseWorkspace': 'Izberite enega od svojih delovnih prostorov.',

  'oauth.scope.interact': 'Vam pošiljati obrazce in vprašanja, brati vaše odgovore ter vprašanja posodabljati ali zapirati.',

  'oauth.apps.title': 'Povezane aplikacije',
  'oauth.apps.none': 'Ni povezanih aplikacij. Ko aplikaciji, kot sta Claude ali Cursor, dovolite dostop, se prikaže tukaj.',
  'oauth.apps.some':
    '{count, plural, one {Ta aplikacija lahko uporablja Sess v vašem imenu. Ko jo odklopite, takoj preneha delovati.} two {Ti # aplikaciji lahko uporabljata Sess v vašem imenu. Ko katero odklopite, takoj preneha delovati.} few {Te # aplikacije lahko uporabljajo Sess v vašem imenu. Ko katero odklopite, takoj preneha delovati.} other {Teh # aplikacij lahko uporablja Sess v vašem imenu. Ko katero odklopite, takoj preneha delovati.}}',
  'oauth.apps.workspace': 'Delovni prostor',
  'oauth.apps.redirects': 'Vrača vas na',
  'oauth.apps.can': 'Lahko',
  'oauth.apps.connected': 'Povezano',
  'oauth.apps.lastUsed': 'Nazadnje uporabljeno',
  'oauth.apps.never': 'Nikoli',
  'oauth.apps.disconnect': 'Odklopi',
  'oauth.apps.disconnectLabel': 'Odklopi {app} iz delovnega prostora {workspace}',
  'oauth.apps.disconnected': 'Odklopljeno. Aplikacija ne more več uporabljati storitve Sess.',
  'oauth.apps.back': 'Nazaj na vaš račun',

  'oauth.error.clientTitle': 'Ta aplikacija se ne more povezati',
  'oauth.error.client': 'Sess ni mogel ugotoviti, za katero aplikacijo gre, zato se ne more povezati.',
  'oauth.error.requestTitle': 'Te zahteve za povezavo ni mogoče uporabiti',
  'oauth.error.request': 'Aplikacija je poslala zahtevo za povezavo, ki je Sess ne more sprejeti.',
  'oauth.error.busyTitle': 'Preveč novih aplikacij hkrati',
  'oauth.error.busy':
    'Sess je v zadnji minuti preveril preveč novih aplikacij za vaše omrežje. Poskusite znova čez {minutes, plural, one {# minuto} two {# minuti} few {# minute} other {# minut}}.',
  'oauth.error.noWorkspace': 'Vaš račun nima delovnega prostora, zato ni česa, s čimer bi se aplikacija lahko povezala.',
  'oauth.error.formExpired':
    'Ta obrazec je potekel ali ni prišel iz storitve Sess, zato ni bilo nič dovoljeno. Povezovanje znova začnite v aplikaciji.',
  'oauth.error.noDecision': 'Izberite »Dovoli« ali »Zavrni«.',
  'oauth.error.detail': 'Podrobnosti za razvijalce aplikacije:',
  'oauth.error.next': 'Vrnite se v aplikacijo in znova začnite povezovanje. Če se to ponavlja, obvestite razvijalce aplikacije.',
  'oauth.error.unchangedTitle': 'Nič ni bilo spremenjeno',
  'oauth.error.badForm': 'Obrazca ni bilo mogoče prebrati.',
  'oauth.error.pageExpired':
    'Ta stran je potekla (ali zahteva ni prišla z nje). Vrnite se, znova naložite stran in poskusite še enkrat.',
  'oauth.error.noSuchAppTitle': 'Te povezane aplikacije ni',
  'oauth.error.noSuchApp': 'Ta aplikacija ni povezana z vašim računom (morda je že odklopljena).',
  'oauth.error.backToApps': 'Nazaj na povezane aplikacije',
} as const satisfies Translation<typeof en>;
