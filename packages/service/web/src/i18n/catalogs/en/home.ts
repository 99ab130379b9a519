/** The home page's and the "Connect your agent" block's messages (ICU message syntax). */
export const home = {
  'home.documentTitle': 'Sess: ask a person, carry on with the answer',
  'home.lead':
    'Sess lets an AI agent ask you something and carry on with your answer. The agent sends you a private link to a small form; you answer on your phone, and the agent gets your answer with a signed receipt.',
  'home.account': 'Your account',
  'home.signIn': 'Sign in',
  'home.signUp': 'Create account',

  'home.connect.title': 'Connect your agent',
  'home.connect.intro': 'Give your agent this MCP URL. It opens Sess in your browser: sign in and choose {allow}.',
  'home.connect.copy': 'Copy',
  'home.connect.copied': 'Copied.',
  'home.connect.copyFailed': 'Selected: copy it with your keyboard or menu.',
  'home.connect.claudeCode': 'Run both commands: the first only writes the configuration, the second signs you in.',
  'home.connect.cursor': 'In {project} (project) or {global}:',
  'home.connect.cline': 'MCP Servers → {configure}, then add to {file} (no key goes in the file):',
  'home.connect.vscode': 'In {file}:',
  'home.connect.hostedUnreachable':
    'These apps connect from the internet, so they need Sess on public HTTPS. This server’s address, {url}, is not: run Sess behind a TLS proxy on a public name and set {variable} to it.',
  'home.connect.hosted':
    'Add a custom connector with the MCP URL, then sign in and choose Allow. claude.ai: Customize → Connectors → {claude}. ChatGPT: Plugins → {chatgpt} (your plan must allow tools that make changes). grok.com: Connectors → {grokNew} → {grokCustom}. Grok Build:',
  'home.connect.localName': 'sess-mcp on your own machine',
  'home.connect.local':
    'A local (stdio) server that uses an API key instead of signing in. Make a key under {keys}, put it in {variable} (never in a chat), and add this to your agent as a local MCP server:',
  'home.connect.apiKeys': 'API keys',
  'home.connect.openclaw':
    'The Sess plugin gives your Claw the same tools. OpenClaw installs a plugin from a file, not a URL: download it, then install it.',
  'home.connect.openclawEnv':
    'Then give the Gateway an API key and this server’s address in {file} ({key} and {origin}) and restart it.',
  'home.connect.codeName': 'Your own code (no MCP)',
  'home.connect.code': '{package}, a typed client for the {api} API with an API key, verifies each answer’s receipt:',
  'home.connect.published': 'Once the package is published on npm, this works as well:',
  'home.connect.unbuilt':
    'This server was built without its client packages ({command} packs them), and they are not on npm yet. Once they are:',
  'home.connect.example': 'Then ask, for example: “Ask me on my phone what time works for a call tomorrow, using Sess.”',
} as const;
