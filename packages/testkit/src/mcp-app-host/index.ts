import { fileURLToPath } from 'node:url';
import type {
  McpUiHostCapabilities,
  McpUiHostContext,
  McpUiMessageRequest,
  McpUiToolResultNotification,
  McpUiUpdateModelContextRequest,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import type { Browser, BrowserContextOptions, Frame, Page } from 'playwright-core';
import type { HostPageConfig } from './host-page.ts';

/*
 * A real MCP Apps host for tests: Chromium renders the app's UI resource in a sandboxed iframe
 * (`allow-scripts allow-forms`, srcdoc, the hosts' default CSP as its first element) and speaks
 * to it through ext-apps' own AppBridge. What the app asks of the host is recorded here, and its
 * tool calls go to the test's `callTool` (a real MCP client, or a function over the view's
 * payloads), so the view is driven exactly as Claude or ChatGPT would drive it.
 */

/** A tool's result as MCP sends it (ext-apps' own type). */
export type CallToolResult = McpUiToolResultNotification['params'];
/** What the app sends to `tools/call`. */
export interface CallToolParams {
  name: string;
  arguments?: Record<string, unknown>;
}

/** The CSP hosts put on an app that declares no domains (ext-apps' default). */
export const DEFAULT_APP_CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'none'";

/** A host's capabilities as the 2026 hosts offer them: links, server tools, messages, model context. */
export const FULL_HOST_CAPABILITIES: McpUiHostCapabilities = {
  openLinks: {},
  serverTools: {},
  message: { text: {} },
  updateModelContext: { text: {} },
};

export interface AppHostOptions {
  /** The UI resource's document. */
  html: string;
  callTool: (params: CallToolParams) => Promise<CallToolResult>;
  /** The browser context: viewport, touch, mobile (SCREEN_SIZES.phone or .desktop). */
  context?: BrowserContextOptions;
  theme?: 'light' | 'dark';
  platform?: 'web' | 'desktop' | 'mobile';
  /** The host's language (`hostContext.locale`, BCP 47). */
  locale?: string;
  hostCapabilities?: McpUiHostCapabilities;
  /** Answer `ui/message` with an error, as a host that refuses to post for the app. */
  refuseMessages?: boolean;
  csp?: string;
  /**
   * Install Playwright's fake clock before the app loads, paused once the handshake is done: the
   * app's timers fire only when the test moves the clock (`page.clock.runFor`).
   */
  fakeClock?: boolean;
}

export interface AppHost {
  page: Page;
  /** The app's iframe. */
  frame: Frame;
  sendToolResult(result: CallToolResult): Promise<void>;
  setHostContext(context: McpUiHostContext): Promise<void>;
  /**
   * Resolves once every request the app made so far has its reply posted to the app, and the
   * app's frame has run a task since: what the app does with a reply is then done.
   */
  settled(): Promise<void>;
  /** `tools/call` requests from the app, in order. */
  toolCalls: CallToolParams[];
  /** `ui/message` requests from the app (also those the host refused). */
  messages: McpUiMessageRequest['params'][];
  openedLinks: string[];
  modelContext: McpUiUpdateModelContextRequest['params'][];
  /** Heights the app reported (`ui/notifications/size-changed`). */
  sizes: number[];
  /** CSP violations in any frame (securitypolicyviolation events, "Refused to …" console lines). */
  cspViolations: string[];
  /** Errors thrown in any frame. */
  pageErrors: string[];
  close(): Promise<void>;
}

const HOST_URL = 'https://mcp-app-host.test/';

let bundle: Promise<string> | undefined;

/** The host page's script: host-page.ts with ext-apps bundled in, built once per process. */
function hostBundle(): Promise<string> {
  bundle ??= import('esbuild').then(async ({ build }) => {
    const out = await build({
      entryPoints: [fileURLToPath(new URL('./host-page.ts', import.meta.url))],
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      target: 'chrome120',
      logLevel: 'silent',
    });
    const file = out.outputFiles[0];
    if (!file) throw new Error('esbuild produced no host bundle');
    return file.text;
  });
  return bundle;
}

/** Reports every CSP violation of every frame (the listener runs before the frame's own scripts). */
const CSP_LISTENER = `addEventListener('securitypolicyviolation', (e) => {
  const report = globalThis.sessHostCspViolation;
  if (typeof report === 'function') report(e.violatedDirective + ' ' + (e.blockedURI || '') + ' ' + (e.sample || ''));
});`;

/** Opens the app's document in a new context of `browser`, after the handshake. */
export async function openAppHost(browser: Browser, options: AppHostOptions): Promise<AppHost> {
  const script = await hostBundle();
  const context = await browser.newContext(options.context ?? {});
  const host: Omit<AppHost, 'page' | 'frame' | 'sendToolResult' | 'setHostContext' | 'settled' | 'close'> = {
    toolCalls: [],
    messages: [],
    openedLinks: [],
    modelContext: [],
    sizes: [],
    cspViolations: [],
    pageErrors: [],
  };
  try {
    const page = await context.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) host.cspViolations.push(message.text());
    });
    page.on('pageerror', (error) => host.pageErrors.push(String(error)));
    await context.route(HOST_URL, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test host</title><meta name="viewport" content="width=device-width, initial-scale=1"><style>body{margin:0}iframe{display:block;width:100%;border:0;height:0}</style></head><body><div id="app"></div><script>${script.replace(/<\/script/gi, '<\\/script')}</script></body></html>`,
      }),
    );
    await context.exposeFunction('sessHostCallTool', async (params: CallToolParams) => {
      host.toolCalls.push(params);
      return options.callTool(params);
    });
    await context.exposeFunction('sessHostMessage', (params: McpUiMessageRequest['params']) => {
      host.messages.push(params);
    });
    await context.exposeFunction('sessHostOpenLink', (url: string) => {
      host.openedLinks.push(url);
    });
    await context.exposeFunction('sessHostModelContext', (params: McpUiUpdateModelContextRequest['params']) => {
      host.modelContext.push(params);
    });
    await context.exposeFunction('sessHostSize', (height: number) => {
      host.sizes.push(height);
    });
    await context.exposeFunction('sessHostCspViolation', (text: string) => {
      host.cspViolations.push(text);
    });
    await context.addInitScript(CSP_LISTENER);
    if (options.fakeClock) await page.clock.install();
    await page.goto(HOST_URL);
    const viewport = page.viewportSize();
    const config: HostPageConfig = {
      html: options.html,
      csp: options.csp ?? DEFAULT_APP_CSP,
      hostCapabilities: options.hostCapabilities ?? FULL_HOST_CAPABILITIES,
      refuseMessages: options.refuseMessages ?? false,
      hostContext: {
        theme: options.theme ?? 'light',
        platform: options.platform ?? 'web',
        ...(options.locale ? { locale: options.locale } : {}),
        displayMode: 'inline',
        availableDisplayModes: ['inline'],
        ...(viewport ? { containerDimensions: { width: viewport.width, maxHeight: 100_000 } } : {}),
      },
    };
    // Passed as plain JSON: Playwright's serializable type cannot follow ext-apps' open-ended context type.
    const json: unknown = config;
    await page.evaluate(
      (c: unknown) => (window as unknown as { sessHostStart(c: unknown): Promise<void> }).sessHostStart(c),
      json,
    );
    const frame = await (await page.waitForSelector('iframe')).contentFrame();
    if (!frame) throw new Error('the app iframe has no frame');
    if (options.fakeClock) await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
    /** Calls one method of the page's AppBridge with one JSON argument. */
    const bridge = async (method: 'sendToolResult' | 'setHostContext', arg: unknown): Promise<void> => {
      await page.evaluate(
        ({ method, arg }: { method: string; arg: unknown }) => {
          const b = (window as unknown as { sessBridge: Record<string, (v: unknown) => Promise<void> | void> }).sessBridge;
          return b[method]?.(arg);
        },
        { method, arg },
      );
    };
    return {
      ...host,
      page,
      frame,
      sendToolResult: async (result) => {
        await bridge('sendToolResult', result);
      },
      setHostContext: async (hostContext) => {
        await bridge('setHostContext', hostContext);
      },
      settled: async () => {
        const unanswered = () =>
          page.evaluate(() => (window as unknown as { sessHostUnanswered(): number }).sessHostUnanswered());
        while ((await unanswered()) > 0) await new Promise((resolve) => setImmediate(resolve));
        await frame.evaluate(() => new Promise<void>((resolve) => queueMicrotask(resolve)));
      },
      close: () => context.close(),
    };
  } catch (error) {
    await context.close();
    throw error;
  }
}
