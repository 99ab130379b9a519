/*
 * The browser side of the test host (bundled by esbuild for Chromium at test time): a page that
 * renders an MCP App the way the hosts do, on ext-apps' own AppBridge (the host side of the
 * protocol) and its PostMessageTransport, in a sandboxed iframe under the hosts' CSP. What the app
 * asks of the host goes to the Node side through the page's exposed functions (see index.ts).
 */
import {
  AppBridge,
  type McpUiHostCapabilities,
  type McpUiHostContext,
  PostMessageTransport,
} from '@modelcontextprotocol/ext-apps/app-bridge';

/** What the Node side starts the host with. */
export interface HostPageConfig {
  html: string;
  csp: string;
  hostCapabilities: McpUiHostCapabilities;
  hostContext: McpUiHostContext;
  /** Answer `ui/message` with an error, as a host that will not post for the app. */
  refuseMessages: boolean;
}

/** The functions the Node side exposes on the page (page.exposeFunction). */
interface NodeSide {
  sessHostCallTool(params: unknown): Promise<unknown>;
  sessHostMessage(params: unknown): Promise<void>;
  sessHostOpenLink(url: string): Promise<void>;
  sessHostModelContext(params: unknown): Promise<void>;
  sessHostSize(height: number): Promise<void>;
}

/** The document with the CSP as its first element, as hosts that serve srcdoc do. */
function withCsp(html: string, csp: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${csp.replace(/"/g, '&quot;')}">`;
  const head = /<head[^>]*>/i.exec(html);
  if (!head) throw new Error('the UI resource has no <head>');
  return html.slice(0, head.index + head[0].length) + meta + html.slice(head.index + head[0].length);
}

async function start(config: HostPageConfig): Promise<void> {
  const node = window as unknown as NodeSide;
  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', 'allow-scripts allow-forms');
  iframe.title = 'Sess';
  document.getElementById('app')?.append(iframe);
  const target = iframe.contentWindow;
  if (!target) throw new Error('no iframe window');

  const bridge = new AppBridge(null, { name: 'sess-test-host', version: '1.0.0' }, config.hostCapabilities, {
    hostContext: config.hostContext,
  });
  bridge.oncalltool = async (params) =>
    (await node.sessHostCallTool(params)) as Awaited<ReturnType<NonNullable<AppBridge['oncalltool']>>>;
  bridge.onmessage = async (params) => {
    await node.sessHostMessage(params);
    if (config.refuseMessages) throw new Error('This host does not post messages for apps.');
    return {};
  };
  bridge.onopenlink = async ({ url }) => {
    await node.sessHostOpenLink(url);
    return {};
  };
  bridge.onupdatemodelcontext = async (params) => {
    await node.sessHostModelContext(params);
    return {};
  };
  // The host fits the iframe to the height the app reports: no nested scroll.
  bridge.onsizechange = ({ height }) => {
    if (height !== undefined) {
      iframe.style.height = `${height}px`;
      void node.sessHostSize(height);
    }
  };
  const initialized = new Promise<void>((resolve) => {
    bridge.oninitialized = () => resolve();
  });
  const transport = new PostMessageTransport(target, target);
  await bridge.connect(transport);
  // Requests from the app not yet answered, so a test can wait until the app has every reply.
  let unanswered = 0;
  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if ('method' in message && 'id' in message) unanswered += 1;
    receive?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    await send(message, options);
    if ('id' in message && ('result' in message || 'error' in message)) unanswered -= 1;
  };
  (window as unknown as { sessHostUnanswered: () => number }).sessHostUnanswered = () => unanswered;
  iframe.srcdoc = withCsp(config.html, config.csp);
  await initialized;
  const host = window as unknown as { sessBridge: AppBridge };
  host.sessBridge = bridge;
}

(window as unknown as { sessHostStart: typeof start }).sessHostStart = start;
