import type { Translation } from '../../catalog-types.ts';
import type { home as en } from '../en/home.ts';

export const home = {
  'home.documentTitle': 'Sess : poser la question à une personne, continuer avec sa réponse',
  'home.lead':
    'Sess permet à un agent d’IA de vous poser une question et de continuer avec votre réponse. L’agent vous envoie un lien privé vers un court formulaire ; vous répondez sur votre téléphone et l’agent reçoit votre réponse avec un reçu signé.',
  'home.account': 'Votre compte',
  'home.signIn': 'Se connecter',
  'home.signUp': 'Créer un compte',

  'home.connect.title': 'Connecter votre agent',
  'home.connect.intro':
    'Donnez cette URL MCP à votre agent. Il ouvre Sess dans votre navigateur : connectez-vous et choisissez {allow}.',
  'home.connect.copy': 'Copier',
  'home.connect.copied': 'Copiée.',
  'home.connect.copyFailed': 'Sélectionnée : copiez-la avec le clavier ou le menu.',
  'home.connect.claudeCode':
    'Exécutez les deux commandes : la première écrit seulement la configuration, la seconde vous connecte.',
  'home.connect.cursor': 'Dans {project} (projet) ou {global} :',
  'home.connect.cline': 'MCP Servers → {configure}, puis ajoutez à {file} (aucune clé ne va dans ce fichier) :',
  'home.connect.vscode': 'Dans {file} :',
  'home.connect.hostedUnreachable':
    'Ces applications se connectent depuis Internet : elles ont besoin de Sess en HTTPS public. L’adresse de ce serveur, {url}, ne l’est pas : placez Sess derrière un proxy TLS sous un nom public et indiquez ce nom dans {variable}.',
  'home.connect.hosted':
    'Ajoutez un connecteur personnalisé avec l’URL MCP, puis connectez-vous et choisissez « Autoriser ». claude.ai : Customize → Connectors → {claude}. ChatGPT : Plugins → {chatgpt} (votre forfait doit autoriser les outils qui effectuent des modifications). grok.com : Connectors → {grokNew} → {grokCustom}. Grok Build :',
  'home.connect.localName': 'sess-mcp sur votre propre machine',
  'home.connect.local':
    'Un serveur local (stdio) qui utilise une clé d’API au lieu d’une connexion. Créez une clé dans {keys}, placez-la dans {variable} (jamais dans une discussion) et ajoutez ceci à votre agent comme serveur MCP local :',
  'home.connect.apiKeys': 'Clés d’API',
  'home.connect.openclaw':
    'Le plugin Sess donne à votre Claw les mêmes outils. OpenClaw installe un plugin à partir d’un fichier, pas d’une URL : téléchargez-le, puis installez-le.',
  'home.connect.openclawEnv':
    'Donnez ensuite à la Gateway une clé d’API et l’adresse de ce serveur dans {file} ({key} et {origin}), puis redémarrez-la.',
  'home.connect.codeName': 'Votre propre code (sans MCP)',
  'home.connect.code': '{package}, un client typé pour l’API {api} avec une clé d’API, vérifie le reçu de chaque réponse :',
  'home.connect.published': 'Une fois le paquet publié sur npm, ceci fonctionnera aussi :',
  'home.connect.unbuilt':
    'Ce serveur a été construit sans ses paquets clients ({command} les empaquette), et ils ne sont pas encore sur npm. Une fois qu’ils y seront :',
  'home.connect.example':
    'Demandez ensuite, par exemple : « Demande-moi sur mon téléphone, avec Sess, à quelle heure je peux prendre un appel demain. »',
} as const satisfies Translation<typeof en>;
