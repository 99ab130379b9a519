import { queryRows } from '@sess/db';
import { createRemoteKeySet, verifyReceipt } from '@sess/receipts';
import { hashAnswer, hashSurface } from '@sess/surface';
import { createTestUser, onlyOn, sampleSurface } from '@sess/testkit';
import { launchTestBrowser, SCREEN_SIZES, SCREENSHOTS_DIR, sidewaysOverflow } from '@sess/testkit/browser';
import { type AppHost, type CallToolResult, openAppHost } from '@sess/testkit/mcp-app-host';
import { sql } from 'drizzle-orm';
import type { Browser, BrowserContextOptions } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOnPage } from '../support/answer-page.ts';
import { type AppServer, startAppServer } from '../support/app-server.ts';
import { connectChatClient, type Era, interactionOf, viewOf } from '../support/chat-client.ts';

/*
 * The form inside the chat, the whole way: a running Sess, the real v2 MCP client signed in over
 * OAuth as a host that renders apps, and that host's page in Chromium built on ext-apps' own
 * AppBridge (@sess/testkit/mcp-app-host) rendering the UI resource Sess serves in a sandboxed
 * iframe under the hosts' CSP. Every tool call the view makes goes through the signed-in client
 * to Sess. A person fills and sends the form; the agent's sess_response gets the verified answer.
 */

const SLOW = { timeout: 120_000 };

let server: AppServer;
let browser: Browser;
beforeAll(async () => {
  if (!onlyOn('server: the form inside a chat host')) return;
  server = await startAppServer();
  browser = await launchTestBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

interface Chat {
  client: Awaited<ReturnType<typeof connectChatClient>>['client'];
  host: AppHost;
  html: string;
}

/** A signed-in client that renders apps, and its host page showing the UI resource Sess serves. */
async function openChat(era: Era, context: BrowserContextOptions = SCREEN_SIZES.phone): Promise<Chat> {
  const user = await createTestUser(server.database.db);
  const { client } = await connectChatClient(server, user, era, { ui: true });
  const { resources } = await client.listResources();
  const read = await client.readResource({ uri: resources[0]!.uri });
  const html = (read.contents[0] as { text: string }).text;
  const host = await openAppHost(browser, {
    html,
    context,
    // The view's tool calls go to Sess through the signed-in client, as a host proxies them.
    callTool: (params) => client.callTool(params) as Promise<CallToolResult>,
  });
  return { client, host, html };
}

async function closeChat(chat: Chat): Promise<void> {
  expect(chat.host.cspViolations).toEqual([]);
  expect(chat.host.pageErrors).toEqual([]);
  await chat.host.close();
  await chat.client.close();
}

const heading = (chat: Chat, name: string | RegExp) => chat.host.frame.getByRole('heading', { level: 1, name });

const inHost = describe.runIf(onlyOn('server: the form inside a chat host'));

inHost.each([
  ['modern', 'phone', SCREEN_SIZES.phone],
  ['legacy', 'desktop', SCREEN_SIZES.desktop],
] as const)('a person answers in the chat (%s era, %s)', (era, size, context) => {
  it('fills and sends the form; the agent is told, and sess_response returns the answer verified, via chat', SLOW, async () => {
    const chat = await openChat(era, context);
    const surface = sampleSurface(`Ship it? (${era})`);
    const created = await chat.client.callTool({ name: 'sess_request', arguments: { interaction: surface } });
    const { handle } = interactionOf(created);
    await chat.host.sendToolResult(created as CallToolResult);

    const frame = chat.host.frame;
    await heading(chat, surface.title).waitFor();
    const overflow = await sidewaysOverflow(chat.host.page);
    expect(overflow.scrollWidth).toBeLessThanOrEqual(overflow.width);
    await frame.getByLabel('Commit message').fill('Typed in the chat');
    await chat.host.page.screenshot({ path: `${SCREENSHOTS_DIR}/chat-in-host-${size}.png` });
    await frame.getByRole('button', { name: 'Approve and commit' }).click();
    await frame.getByText('Typed in the chat').waitFor();
    await chat.host.settled();

    expect(chat.host.toolCalls.map((call) => call.name)).toContain('sess_view_answer');
    expect(chat.host.messages).toHaveLength(1);
    const told = JSON.stringify(chat.host.messages[0]);
    expect(told).toContain('sess_response');
    expect(told).toContain(handle);

    const read = interactionOf(
      await chat.client.callTool({ name: 'sess_response', arguments: { handle, revision: 1, wait_ms: 5000 } }),
    ) as unknown as {
      state: string;
      response: {
        eventId: string;
        actionId: string;
        values: Record<string, string>;
        receipt: string;
        via: string;
        viaPrincipalId?: string;
      };
    };
    expect(read).toMatchObject({
      state: 'answered',
      response: { actionId: 'approve', values: { message: 'Typed in the chat' }, via: 'chat' },
    });

    // The receipt verifies on its own, against the server's published keys, and says chat.
    const [row] = await queryRows<{ session_id: string; workspace_id: string; principal_id: string }>(
      server.database.db,
      sql`select session_id, workspace_id, principal_id from mcp_handles where handle = ${handle}`,
    );
    const verified = await verifyReceipt(read.response.receipt, {
      keys: createRemoteKeySet(`${server.url}/.well-known/jwks.json`),
      issuer: server.url,
      expected: {
        workspaceId: row!.workspace_id,
        sessionId: row!.session_id,
        revision: 1,
        eventId: read.response.eventId,
        surfaceSha256: hashSurface(surface),
        answerSha256: hashAnswer({ actionId: read.response.actionId, values: read.response.values }),
        via: 'chat',
        viaPrincipalId: row!.principal_id,
      },
    });
    expect(verified.ok).toBe(true);
    await closeChat(chat);
  });
});

inHost('the view follows the form', () => {
  it('answered on the phone while the view is open: the view says so', SLOW, async () => {
    const chat = await openChat('modern', SCREEN_SIZES.desktop);
    const created = await chat.client.callTool({
      name: 'sess_request',
      arguments: { interaction: sampleSurface('Phone first') },
    });
    const { humanUrl } = interactionOf(created) as unknown as { humanUrl: string };
    await chat.host.sendToolResult(created as CallToolResult);
    await heading(chat, 'Phone first').waitFor();
    expect((await answerOnPage(humanUrl, { message: 'Answered on the phone' }, 'approve')).status).toBe(303);
    await chat.host.frame.getByText('Answered on the phone').waitFor({ timeout: 60_000 });
    expect(chat.host.toolCalls.some((call) => call.name === 'sess_view_status')).toBe(true);
    // The view tells the agent only of an answer it saw given in the chat.
    expect(chat.host.messages).toEqual([]);
    await closeChat(chat);
  });

  it('a published next step shows in the view of sess_publish; complete shows done', SLOW, async () => {
    const chat = await openChat('modern', SCREEN_SIZES.phone);
    const created = await chat.client.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface('Step one') } });
    const { handle } = interactionOf(created);
    const token = viewOf(created)!.token!;
    await chat.client.callTool({
      name: 'sess_view_answer',
      arguments: { handle, revision: 1, token, action_id: 'approve', values: { message: 'First' } },
    });
    const first = interactionOf(
      await chat.client.callTool({ name: 'sess_response', arguments: { handle, revision: 1, wait_ms: 5000 } }),
    ) as unknown as { response: { eventId: string } };
    const published = await chat.client.callTool({
      name: 'sess_publish',
      arguments: {
        handle,
        expected_revision: 1,
        response_event_id: first.response.eventId,
        interaction: sampleSurface('Step two'),
      },
    });
    expect(viewOf(published)).toMatchObject({ revision: 2, state: 'open' });
    await chat.host.sendToolResult(published as CallToolResult);
    await heading(chat, 'Step two').waitFor();
    await chat.host.frame.getByRole('button', { name: 'Stop' }).click();
    await chat.host.frame.getByText(/sent/i).first().waitFor();
    const second = interactionOf(
      await chat.client.callTool({ name: 'sess_response', arguments: { handle, revision: 2, wait_ms: 5000 } }),
    ) as unknown as { response: { eventId: string; via: string } };
    expect(second.response.via).toBe('chat');
    await chat.client.callTool({
      name: 'sess_complete',
      arguments: { handle, expected_revision: 2, response_event_id: second.response.eventId },
    });
    // The view reads its status and shows the form done.
    await chat.host.frame
      .getByRole('heading', { level: 1 })
      .filter({ hasText: /done|complete|finished|thank/i })
      .waitFor({ timeout: 60_000 });
    await closeChat(chat);
  });

  it('an Ask shows its link, never a form to answer in the chat', SLOW, async () => {
    const chat = await openChat('legacy', SCREEN_SIZES.desktop);
    const created = await chat.client.callTool({
      name: 'sess_ask',
      arguments: {
        question: 'Which day suits you?',
        fields: [{ name: 'day', label: 'Day', type: 'text' }],
        respondents: { max: 5 },
      },
    });
    expect(created.isError).toBeFalsy();
    await chat.host.sendToolResult(created as CallToolResult);
    await heading(chat, 'Which day suits you?').waitFor();
    expect(await chat.host.frame.locator('form[data-chat-form]').count()).toBe(0);
    await chat.host.frame.getByRole('link', { name: 'Answer on my phone' }).click();
    await chat.host.settled();
    expect(chat.host.openedLinks).toEqual([(interactionOf(created) as unknown as { humanUrl: string }).humanUrl]);
    await closeChat(chat);
  });
});
