import type { Translation } from '../../catalog-types.ts';
import type { home as en } from '../en/home.ts';

export const home = {
  'home.documentTitle': 'Sess: einen Menschen fragen, mit der Antwort weiterarbeiten',
  'home.lead':
    'Mit Sess kann ein KI-Agent Ihnen eine Frage stellen und mit Ihrer Antwort weiterarbeiten. Der Agent schickt Ihnen einen privaten Link zu einem kurzen Formular; Sie antworten auf dem Handy, und der Agent erhält Ihre Antwort mit einer signierten Quittung.',
  'home.account': 'Ihr Konto',
  'home.signIn': 'Anmelden',
  'home.signUp': 'Konto erstellen',

  'home.connect.title': 'Ihren Agenten verbinden',
  'home.connect.intro':
    'Geben Sie Ihrem Agenten diese MCP-URL. Er öffnet Sess in Ihrem Browser: Melden Sie sich an und wählen Sie {allow}.',
  'home.connect.copy': 'Kopieren',
  'home.connect.copied': 'Kopiert.',
  'home.connect.copyFailed': 'Markiert: Kopieren Sie den Text mit der Tastatur oder über das Menü.',
  'home.connect.claudeCode': 'Führen Sie beide Befehle aus: Der erste schreibt nur die Konfiguration, der zweite meldet Sie an.',
  'home.connect.cursor': 'In {project} (Projekt) oder {global}:',
  'home.connect.cline': 'MCP Servers → {configure}, dann in {file} eintragen (ein Schlüssel gehört nicht in die Datei):',
  'home.connect.vscode': 'In {file}:',
  'home.connect.hostedUnreachable':
    'Diese Apps verbinden sich aus dem Internet und brauchen Sess daher unter öffentlichem HTTPS. Die Adresse dieses Servers, {url}, ist das nicht: Betreiben Sie Sess hinter einem TLS-Proxy unter einem öffentlichen Namen und setzen Sie {variable} auf diesen.',
  'home.connect.hosted':
    'Fügen Sie einen eigenen Connector mit der MCP-URL hinzu, melden Sie sich dann an und wählen Sie „Erlauben“. claude.ai: Customize → Connectors → {claude}. ChatGPT: Plugins → {chatgpt} (Ihr Tarif muss Tools erlauben, die Änderungen vornehmen). grok.com: Connectors → {grokNew} → {grokCustom}. Grok Build:',
  'home.connect.localName': 'sess-mcp auf Ihrem eigenen Rechner',
  'home.connect.local':
    'Ein lokaler (stdio-)Server, der statt einer Anmeldung einen API-Schlüssel verwendet. Erstellen Sie einen Schlüssel unter {keys}, legen Sie ihn in {variable} ab (niemals in einem Chat) und fügen Sie Folgendes Ihrem Agenten als lokalen MCP-Server hinzu:',
  'home.connect.apiKeys': 'API-Schlüssel',
  'home.connect.openclaw':
    'Das Sess-Plugin gibt Ihrem Claw dieselben Werkzeuge. OpenClaw installiert Plugins aus einer Datei, nicht von einer URL: Laden Sie es herunter und installieren Sie es dann.',
  'home.connect.openclawEnv':
    'Geben Sie dem Gateway dann in {file} einen API-Schlüssel und die Adresse dieses Servers ({key} und {origin}) und starten Sie es neu.',
  'home.connect.codeName': 'Ihr eigener Code (ohne MCP)',
  'home.connect.code': '{package}, ein typisierter Client für die {api}-API mit API-Schlüssel, prüft die Quittung jeder Antwort:',
  'home.connect.published': 'Sobald das Paket auf npm veröffentlicht ist, funktioniert auch das:',
  'home.connect.unbuilt':
    'Dieser Server wurde ohne seine Client-Pakete gebaut ({command} packt sie), und auf npm sind sie noch nicht. Sobald sie es sind:',
  'home.connect.example': 'Bitten Sie dann zum Beispiel: „Frag mich auf meinem Handy mit Sess, wann morgen ein Anruf passt.“',
} as const satisfies Translation<typeof en>;
