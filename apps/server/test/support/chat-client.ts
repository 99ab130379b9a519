import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import type { TestUser } from '@sess/testkit';
import { expect } from 'vitest';
import type { AppServer } from './app-server.ts';
import { PersonAtTheKeyboard } from './oauth-provider.ts';

/** What a host that renders MCP Apps declares (the extension and the MIME type of its views). */
export const UI_CAPABILITIES = {
  extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
};

export type Era = 'modern' | 'legacy';

/**
 * The real v2 MCP client, signed in through the whole OAuth flow (a person at the keyboard on the
 * real sign-in and consent pages), in one protocol era, declaring the UI extension or not.
 */
export async function connectChatClient(
  server: AppServer,
  user: TestUser,
  era: Era,
  options: { ui: boolean },
): Promise<{ client: Client; transport: StreamableHTTPClientTransport; provider: PersonAtTheKeyboard }> {
  const url = new URL(`${server.url}/mcp`);
  const provider = new PersonAtTheKeyboard(server.url, user);
  const clientOptions = {
    ...(era === 'modern' ? { versionNegotiation: { mode: 'auto' as const } } : {}),
    capabilities: options.ui ? UI_CAPABILITIES : {},
  };
  const info = { name: options.ui ? 'sess-test-host' : 'sess-test', version: '1' };
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await expect(new Client(info, clientOptions).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  await first.finishAuth(provider.callback!);
  const client = new Client(info, clientOptions);
  const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await client.connect(transport);
  return { client, transport, provider };
}

export type ToolResult = {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
};

export type ViewPayload = {
  v: 1;
  handle: string;
  revision: number;
  state: string;
  html: string;
  token?: string;
  link?: string;
  poll: boolean;
  message?: string;
};

/** The view's payload in a result, or undefined. */
export function viewOf(result: unknown): ViewPayload | undefined {
  return (result as ToolResult)._meta?.['si.sess/view'] as ViewPayload | undefined;
}

export const interactionOf = (result: unknown) =>
  (
    result as {
      structuredContent: { interaction: Record<string, unknown> & { handle: string; revision: number; state: string } };
    }
  ).structuredContent.interaction;

export const errorOf = (result: unknown) =>
  (result as { structuredContent: { error: { code: string; message: string; field?: string } } }).structuredContent.error;
