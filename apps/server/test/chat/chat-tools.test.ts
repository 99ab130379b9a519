import { listedTools } from '@sess/contract';
import { queryRows } from '@sess/db';
import { createTestUser, sampleSurface } from '@sess/testkit';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOnPage } from '../support/answer-page.ts';
import { type AppServer, startAppServer } from '../support/app-server.ts';
import { connectChatClient, type Era, errorOf, interactionOf, UI_CAPABILITIES, viewOf } from '../support/chat-client.ts';

/*
 * The form inside the chat over MCP, without a browser: what a host that renders apps is listed
 * and given, what one that renders nothing still gets (exactly what it got before), and the
 * app-only tools refusing everyone but the view.
 */

let server: AppServer;
beforeAll(async () => {
  server = await startAppServer();
});
afterAll(async () => server?.close());

const ERAS: Era[] = ['modern', 'legacy'];

async function storedAnswers(sessionIdOf: string) {
  return queryRows<{ via: string; via_principal_id: string | null }>(
    server.database.db,
    sql`select a.via, a.via_principal_id from form_answers a join mcp_handles h on h.session_id = a.session_id where h.handle = ${sessionIdOf}`,
  );
}

describe.each(ERAS)('a host that renders nothing (%s era)', (era) => {
  it('is listed the seven tools exactly as before, no resources, and results without a view', async () => {
    const user = await createTestUser(server.database.db);
    const { client } = await connectChatClient(server, user, era, { ui: false });
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: false } });
    const listed = await client.listTools();
    expect(JSON.parse(JSON.stringify(listed.tools))).toEqual(JSON.parse(JSON.stringify(listedTools())));
    const created = await client.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface() } });
    // Only what the SDK puts on every 2026-era result (its server info), never the view.
    expect(Object.keys(created._meta ?? {}).filter((key) => !key.startsWith('io.modelcontextprotocol/'))).toEqual([]);
    expect(
      Object.keys(created)
        .filter((key) => key !== '_meta')
        .sort(),
    ).toEqual(['content', 'structuredContent']);
    const called = await client
      .callTool({
        name: 'sess_view_status',
        arguments: { handle: interactionOf(created).handle, revision: 1, token: 'v1.1.x' },
      })
      .catch((error: Error) => error);
    expect(String((called as Error).message ?? JSON.stringify(called))).toMatch(/not found/i);
    await client.close();
  });
});

describe.each(ERAS)('a host that renders apps (%s era)', (era) => {
  it('is listed the form UI on three tools, two app-only tools and one plain UI resource', async () => {
    const user = await createTestUser(server.database.db);
    const { client } = await connectChatClient(server, user, era, { ui: true });
    expect(client.getServerCapabilities()).toMatchObject({
      tools: {},
      resources: {},
      extensions: { 'io.modelcontextprotocol/ui': {} },
    });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      ...listedTools().map((tool) => tool.name),
      'sess_view_answer',
      'sess_view_status',
    ]);
    const { resources } = await client.listResources();
    expect(resources).toHaveLength(1);
    const uri = resources[0]!.uri;
    expect(uri).toMatch(/^ui:\/\/sess\/form-[0-9a-f]{12}\.html$/);
    expect(resources[0]!.mimeType).toBe('text/html;profile=mcp-app');
    const { resourceTemplates } = await client.listResourceTemplates().catch(() => ({ resourceTemplates: [] }));
    expect(resourceTemplates).toEqual([]);
    for (const tool of tools) {
      const meta = tool._meta as { ui?: { resourceUri?: string; visibility?: string[] }; 'ui/resourceUri'?: string } | undefined;
      if (['sess_request', 'sess_ask', 'sess_publish'].includes(tool.name)) {
        expect(meta?.ui?.resourceUri).toBe(uri);
        expect(meta?.['ui/resourceUri']).toBe(uri);
        expect(meta?.ui?.visibility).toBeUndefined();
      } else if (tool.name.startsWith('sess_view_')) {
        expect(meta?.ui).toEqual({ resourceUri: uri, visibility: ['app'] });
      } else {
        expect(meta).toBeUndefined();
      }
    }
    const read = await client.readResource({ uri });
    const content = read.contents[0] as { mimeType: string; text: string; _meta: Record<string, unknown> };
    expect(content.mimeType).toBe('text/html;profile=mcp-app');
    expect(content.text.startsWith('<!doctype html>') || content.text.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(Buffer.byteLength(content.text)).toBeLessThan(60 * 1024);
    expect(content._meta.ui).toEqual({ csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true });
    expect(content._meta['openai/widgetCSP']).toEqual({
      connect_domains: [],
      resource_domains: [],
      redirect_domains: [new URL(server.url).origin],
    });
    expect(JSON.stringify(content._meta)).not.toContain('permissions');
    await expect(client.readResource({ uri: 'ui://sess/form-000000000000.html' })).rejects.toThrow();
    await client.close();
  });

  it('gets the view with sess_request: the form, a token, the link; the view answers, sess_response says via chat', async () => {
    const user = await createTestUser(server.database.db);
    const { client } = await connectChatClient(server, user, era, { ui: true });
    const created = await client.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface() } });
    const interaction = interactionOf(created);
    const view = viewOf(created)!;
    expect(view).toMatchObject({
      v: 1,
      handle: interaction.handle,
      revision: 1,
      state: 'open',
      poll: true,
      link: interaction.humanUrl,
    });
    expect(view.token).toMatch(/^v1\./);
    expect(view.html).toContain('Commit message');
    // The text and structured content are what any host gets.
    expect(created.structuredContent).toEqual({ interaction });

    const answered = await client.callTool({
      name: 'sess_view_answer',
      arguments: {
        handle: interaction.handle,
        revision: 1,
        token: view.token,
        action_id: 'approve',
        values: { message: 'From the chat' },
      },
    });
    expect(answered.isError).toBeFalsy();
    const after = viewOf(answered)!;
    expect(after.state).toBe('answered');
    expect(after.message).toContain('sess_response');
    expect(after.message).toContain(interaction.handle);

    const read = interactionOf(
      await client.callTool({ name: 'sess_response', arguments: { handle: interaction.handle, revision: 1, wait_ms: 5000 } }),
    );
    expect(read).toMatchObject({
      state: 'answered',
      response: { actionId: 'approve', values: { message: 'From the chat' }, via: 'chat' },
    });
    const rows = await storedAnswers(interaction.handle);
    expect(rows).toEqual([{ via: 'chat', via_principal_id: expect.any(String) }]);

    // The page behind the link shows the answer given in the chat: it takes no second one.
    const page = await (await fetch(interaction.humanUrl as string)).text();
    expect(page).toContain('From the chat');
    expect(page).not.toContain('name="message"');
    await client.close();
  });

  it('an answer on the phone first: the view then says so and its answer is refused, nothing changed', async () => {
    const user = await createTestUser(server.database.db);
    const { client } = await connectChatClient(server, user, era, { ui: true });
    const created = await client.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface() } });
    const { handle, humanUrl } = interactionOf(created) as unknown as { handle: string; humanUrl: string };
    const token = viewOf(created)!.token!;
    expect((await answerOnPage(humanUrl, { message: 'From the phone' }, 'approve')).status).toBe(303);

    const status = await client.callTool({ name: 'sess_view_status', arguments: { handle, revision: 1, token } });
    expect(viewOf(status)).toMatchObject({ state: 'answered', poll: true });
    const late = await client.callTool({
      name: 'sess_view_answer',
      arguments: { handle, revision: 1, token, action_id: 'stop', values: { message: 'From the chat' } },
    });
    expect(late.isError).toBe(true);
    expect(errorOf(late).code).toBe('ALREADY_ANSWERED');
    expect(viewOf(late)!.state).toBe('answered');
    const read = interactionOf(await client.callTool({ name: 'sess_response', arguments: { handle, revision: 1, wait_ms: 0 } }));
    expect(read).toMatchObject({ state: 'answered', response: { values: { message: 'From the phone' }, via: 'link' } });
    await client.close();
  });
});

describe('the view reads what the form shows now', () => {
  it('withdrawn: the view says so and stops (no token, no polling); lapsed: it says so and keeps following', async () => {
    const user = await createTestUser(server.database.db);
    const { client } = await connectChatClient(server, user, 'legacy', { ui: true });
    const withdrawn = await client.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface('Withdrawn') } });
    const one = interactionOf(withdrawn).handle;
    await client.callTool({ name: 'sess_cancel', arguments: { handle: one } });
    const gone = await client.callTool({
      name: 'sess_view_status',
      arguments: { handle: one, revision: 1, token: viewOf(withdrawn)!.token },
    });
    expect(viewOf(gone)).toMatchObject({ state: 'withdrawn', poll: false });
    expect(viewOf(gone)!.token).toBeUndefined();

    const lapsing = await client.callTool({
      name: 'sess_request',
      arguments: { interaction: sampleSurface('Lapsing'), expires_in: 600 },
    });
    const two = interactionOf(lapsing).handle;
    server.clock.advance(11 * 60_000);
    const lapsed = await client.callTool({
      name: 'sess_view_status',
      arguments: { handle: two, revision: 1, token: viewOf(lapsing)!.token },
    });
    expect(viewOf(lapsed)).toMatchObject({ state: 'lapsed', poll: true });
    await client.close();
  });
});

describe('a form the agent keeps off the chat (answer_in_chat: false)', () => {
  it('shows its title and the way to its link, never its fields; an answer from the chat is refused, nothing written', async () => {
    const user = await createTestUser(server.database.db);
    const { client } = await connectChatClient(server, user, 'modern', { ui: true });
    const created = await client.callTool({
      name: 'sess_request',
      arguments: { interaction: sampleSurface('Only on the link'), answer_in_chat: false },
    });
    const { handle } = interactionOf(created);
    const view = viewOf(created)!;
    expect(view).toMatchObject({ state: 'open', poll: true });
    expect(view.html).toContain('Only on the link');
    expect(view.html).not.toContain('name="message"');
    const refused = await client.callTool({
      name: 'sess_view_answer',
      arguments: { handle, revision: 1, token: view.token, action_id: 'approve', values: { message: 'From the chat' } },
    });
    expect(refused.isError).toBe(true);
    expect(errorOf(refused).code).toBe('ANSWER_IN_CHAT_OFF');
    expect(await storedAnswers(handle)).toEqual([]);
    const read = interactionOf(await client.callTool({ name: 'sess_response', arguments: { handle, revision: 1, wait_ms: 0 } }));
    expect(read.state).toBe('waiting');
    await client.close();
  });
});

describe('a passkey form in the chat', () => {
  it('shows its title and the way to its link, never its fields; an answer from the chat is PASSKEY_REQUIRED, nothing written', async () => {
    const user = await createTestUser(server.database.db);
    const { client } = await connectChatClient(server, user, 'modern', { ui: true });
    const created = await client.callTool({
      name: 'sess_request',
      arguments: { interaction: sampleSurface('Confirm on the page'), assurance: 'passkey' },
    });
    const { handle } = interactionOf(created);
    const view = viewOf(created)!;
    expect(view.html).toContain('Confirm on the page');
    expect(view.html).not.toContain('name="message"');
    const refused = await client.callTool({
      name: 'sess_view_answer',
      arguments: { handle, revision: 1, token: view.token, action_id: 'approve', values: { message: 'From the chat' } },
    });
    expect(refused.isError).toBe(true);
    expect(errorOf(refused).code).toBe('PASSKEY_REQUIRED');
    expect(await storedAnswers(handle)).toEqual([]);
    await client.close();
  });
});

describe('the model cannot answer through the app-only tools', () => {
  it('refuses a call without the token, with another handle’s, another revision’s or an expired one; nothing changes', async () => {
    const user = await createTestUser(server.database.db);
    const { client } = await connectChatClient(server, user, 'modern', { ui: true });
    const one = await client.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface('One') } });
    const two = await client.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface('Two') } });
    const handle = interactionOf(one).handle;
    const values = { message: 'Model says yes' };
    const attempts: Array<Record<string, unknown>> = [
      { handle, revision: 1, action_id: 'approve', values },
      { handle, revision: 1, token: '', action_id: 'approve', values },
      { handle, revision: 1, token: viewOf(two)!.token, action_id: 'approve', values },
      { handle, revision: 2, token: viewOf(one)!.token, action_id: 'approve', values },
      { handle, revision: 1, token: `${viewOf(one)!.token}x`, action_id: 'approve', values },
    ];
    for (const args of attempts) {
      const refused = await client.callTool({ name: 'sess_view_answer', arguments: args });
      expect(refused.isError).toBe(true);
      expect(['VIEW_TOKEN_INVALID', 'INVALID_ARGUMENTS']).toContain(errorOf(refused).code);
      expect(viewOf(refused)).toBeUndefined();
    }
    const tokenless = await client.callTool({
      name: 'sess_view_answer',
      arguments: { handle, revision: 1, token: 'v1.9999999999.' + 'A'.repeat(43), values },
    });
    expect(errorOf(tokenless)).toMatchObject({ code: 'VIEW_TOKEN_INVALID', field: '/token' });

    // Thirty minutes on, the view's own token has expired.
    server.clock.advance(31 * 60_000);
    const expired = await client.callTool({
      name: 'sess_view_answer',
      arguments: { handle, revision: 1, token: viewOf(one)!.token, action_id: 'approve', values },
    });
    expect(errorOf(expired).code).toBe('VIEW_TOKEN_INVALID');
    const read = interactionOf(await client.callTool({ name: 'sess_response', arguments: { handle, revision: 1, wait_ms: 0 } }));
    expect(read.state).toBe('waiting');
    await client.close();
  });

  it('another principal holding a view token of someone else’s form gets nothing', async () => {
    const alice = await createTestUser(server.database.db);
    const bob = await createTestUser(server.database.db);
    const a = await connectChatClient(server, alice, 'modern', { ui: true });
    const b = await connectChatClient(server, bob, 'modern', { ui: true });
    const created = await a.client.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface() } });
    const { handle } = interactionOf(created);
    const stolen = await b.client.callTool({
      name: 'sess_view_status',
      arguments: { handle, revision: 1, token: viewOf(created)!.token },
    });
    expect(errorOf(stolen).code).toBe('VIEW_TOKEN_INVALID');
    expect(viewOf(stolen)).toBeUndefined();
    await a.client.close();
    await b.client.close();
  });

  it('a 2025 client that declared the extension gets a session id that says so', async () => {
    const user = await createTestUser(server.database.db);
    const { transport, client } = await connectChatClient(server, user, 'legacy', { ui: true });
    expect(transport.sessionId).toMatch(/^sess-ui\./);
    await client.close();
    expect(UI_CAPABILITIES.extensions['io.modelcontextprotocol/ui'].mimeTypes).toContain('text/html;profile=mcp-app');
  });
});
