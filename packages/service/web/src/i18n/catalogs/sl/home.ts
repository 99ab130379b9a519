import type { Translation } from '../../catalog-types.ts';
import type { home as en } from '../en/home.ts';

export const home = {
  'home.documentTitle': 'Sess: vprašajte človeka in nadaljujte z odgovorom',
  'home.lead':
    'S storitvijo Sess vas lahko agent UI nekaj vpraša in nadaljuje delo z vašim odgovorom. Agent vam pošlje zasebno povezavo do kratkega obrazca; odgovorite na telefonu, agent pa prejme vaš odgovor s podpisanim potrdilom.',
  'home.account': 'Vaš račun',
  'home.signIn': 'Prijava',
  'home.signUp': 'Ustvari račun',

  'home.connect.title': 'Povežite svojega agenta',
  'home.connect.intro': 'Agentu dajte ta URL MCP. Sess odpre v vašem brskalniku: prijavite se in izberite {allow}.',
  'home.connect.copy': 'Kopiraj',
  'home.connect.copied': 'Kopirano.',
  'home.connect.copyFailed': 'Označeno: kopirajte s tipkovnico ali prek menija.',
  'home.connect.claudeCode': 'Zaženite oba ukaza: prvi le zapiše nastavitve, drugi vas prijavi.',
  'home.connect.cursor': 'V {project} (projekt) ali {global}:',
  'home.connect.cline': 'MCP Servers → {configure}, nato dodajte v {file} (ključ ne sodi v datoteko):',
  'home.connect.vscode': 'V {file}:',
  'home.connect.hostedUnreachable':
    'Te aplikacije se povezujejo iz interneta, zato potrebujejo Sess na javnem HTTPS. Naslov tega strežnika, {url}, tega ne izpolnjuje: Sess postavite za posrednika TLS z javnim imenom in {variable} nastavite nanj.',
  'home.connect.hosted':
    'Dodajte konektor po meri z URL-jem MCP, se prijavite in izberite »Dovoli«. claude.ai: Customize → Connectors → {claude}. ChatGPT: Plugins → {chatgpt} (vaš paket mora dovoljevati orodja, ki izvajajo spremembe). grok.com: Connectors → {grokNew} → {grokCustom}. Grok Build:',
  'home.connect.localName': 'sess-mcp na vašem računalniku',
  'home.connect.local':
    'Lokalni strežnik (stdio), ki namesto prijave uporablja ključ API. Ključ ustvarite pod {keys}, ga shranite v {variable} (nikoli v klepet) in agentu dodajte tole kot lokalni strežnik MCP:',
  'home.connect.apiKeys': 'Ključi API',
  'home.connect.openclaw':
    'Vtičnik Sess vašemu Clawu da enaka orodja. OpenClaw vtičnik namesti iz datoteke, ne z URL-ja: prenesite ga, nato ga namestite.',
  'home.connect.openclawEnv':
    'Nato prehodu (Gateway) v {file} dajte ključ API in naslov tega strežnika ({key} in {origin}) ter ga znova zaženite.',
  'home.connect.codeName': 'Vaša lastna koda (brez MCP)',
  'home.connect.code': '{package}, tipiziran odjemalec za API {api} s ključem API, preveri potrdilo vsakega odgovora:',
  'home.connect.published': 'Ko bo paket objavljen na npm, bo delovalo tudi tole:',
  'home.connect.unbuilt':
    'Ta strežnik je bil zgrajen brez odjemalskih paketov ({command} jih zapakira), na npm pa jih še ni. Ko bodo:',
  'home.connect.example': 'Nato na primer prosite: »S storitvijo Sess me na telefonu vprašaj, kdaj jutri mi ustreza klic.«',
} as const satisfies Translation<typeof en>;
