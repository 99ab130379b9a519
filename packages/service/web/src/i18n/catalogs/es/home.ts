import type { Translation } from '../../catalog-types.ts';
import type { home as en } from '../en/home.ts';

export const home = {
  'home.documentTitle': 'Sess: pregunte a una persona y siga con su respuesta',
  'home.lead':
    'Sess permite que un agente de IA le pregunte algo y continúe con su respuesta. El agente le envía un enlace privado a un breve formulario; usted responde desde el móvil y el agente recibe su respuesta con un recibo firmado.',
  'home.account': 'Su cuenta',
  'home.signIn': 'Iniciar sesión',
  'home.signUp': 'Crear cuenta',

  'home.connect.title': 'Conecte su agente',
  'home.connect.intro': 'Dé a su agente esta URL de MCP. Abrirá Sess en su navegador: inicie sesión y elija {allow}.',
  'home.connect.copy': 'Copiar',
  'home.connect.copied': 'Copiada.',
  'home.connect.copyFailed': 'Seleccionada: cópiela con el teclado o desde el menú.',
  'home.connect.claudeCode': 'Ejecute los dos comandos: el primero solo escribe la configuración y el segundo inicia la sesión.',
  'home.connect.cursor': 'En {project} (proyecto) o en {global}:',
  'home.connect.cline': 'MCP Servers → {configure}; después añada a {file} (en el archivo no va ninguna clave):',
  'home.connect.vscode': 'En {file}:',
  'home.connect.hostedUnreachable':
    'Estas aplicaciones se conectan desde internet, así que necesitan Sess en HTTPS público. La dirección de este servidor, {url}, no lo es: ejecute Sess detrás de un proxy TLS con un nombre público y asigne ese nombre a {variable}.',
  'home.connect.hosted':
    'Añada un conector personalizado con la URL de MCP; después inicie sesión y elija «Permitir». claude.ai: Customize → Connectors → {claude}. ChatGPT: Plugins → {chatgpt} (su plan debe permitir herramientas que hacen cambios). grok.com: Connectors → {grokNew} → {grokCustom}. Grok Build:',
  'home.connect.localName': 'sess-mcp en su propio equipo',
  'home.connect.local':
    'Un servidor local (stdio) que usa una clave de API en lugar de iniciar sesión. Cree una clave en {keys}, guárdela en {variable} (nunca en un chat) y añada esto a su agente como servidor MCP local:',
  'home.connect.apiKeys': 'Claves de API',
  'home.connect.openclaw':
    'El plugin de Sess da a su Claw las mismas herramientas. OpenClaw instala los plugins desde un archivo, no desde una URL: descárguelo y luego instálelo.',
  'home.connect.openclawEnv':
    'Después, dé al Gateway una clave de API y la dirección de este servidor en {file} ({key} y {origin}) y reinícielo.',
  'home.connect.codeName': 'Su propio código (sin MCP)',
  'home.connect.code': '{package}, un cliente tipado para la API {api} con clave de API, verifica el recibo de cada respuesta:',
  'home.connect.published': 'Cuando el paquete esté publicado en npm, esto también funcionará:',
  'home.connect.unbuilt':
    'Este servidor se compiló sin sus paquetes de cliente ({command} los empaqueta) y todavía no están en npm. Cuando lo estén:',
  'home.connect.example':
    'Después pídale, por ejemplo: «Pregúntame en el móvil, con Sess, a qué hora me viene bien una llamada mañana».',
} as const satisfies Translation<typeof en>;
