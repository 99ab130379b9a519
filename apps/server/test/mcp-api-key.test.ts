import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { API_KEYS_CHANNEL, createApiKey, revokeApiKey } from '@sess/accounts';
import { createTestUser, createWorkspaceWithKey, listenForMessage, recordSecret, signInAndAuthorize } from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOnPage } from './support/answer-page.ts';
import { type AppServer, startAppServer } from './support/app-server.ts';

/*
 * /mcp with a workspace API key as the bearer (headless agents, `npm run demo`): the real app,
 * the real MCP client, keys made and revoked by @sess/accounts' own verbs.
 */

type Interaction = {
  handle: string;
  revision: number;
  state: string;
  humanUrl?: string;
  response?: { eventId: string; values: Record<string, unknown>; verified: boolean; receipt: string };
};

const ASK = {
  question: 'What time works for a call tomorrow?',
  fields: [{ name: 'time', label: 'Time', type: 'choice', options: ['10:00', '14:00'] }],
  submit_label: 'Send',
};

let server: AppServer;
beforeAll(async () => {
  server = await startAppServer();
});
afterAll(async () => server?.close());

const interactionOf = (result: unknown) =>
  (result as { structuredContent: { interaction: Interaction } }).structuredContent.interaction;
const errorOf = (result: unknown) => (result as { structuredContent: { error: { code: string } } }).structuredContent.error;

async function connect(bearer: string): Promise<Client> {
  const client = new Client({ name: 'sess-test', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${bearer}` } },
    }),
  );
  return client;
}

function toolsList(bearer: string): Promise<Response> {
  return fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      authorization: `Bearer ${bearer}`,
    },
    body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
  });
}

describe('/mcp with a workspace API key', () => {
  it('a live key asks, reads the verified answer and completes, like an OAuth client', async () => {
    const workspace = await createWorkspaceWithKey(server.database.db);
    const client = await connect(workspace.apiKey);
    const created = interactionOf(await client.callTool({ name: 'sess_ask', arguments: ASK }));
    expect(created).toMatchObject({ revision: 1, state: 'waiting' });
    expect((await answerOnPage(created.humanUrl!, { time: '14:00' })).status).toBe(303);
    const answered = interactionOf(
      await client.callTool({ name: 'sess_response', arguments: { handle: created.handle, revision: 1, wait_ms: 0 } }),
    );
    expect(answered.state).toBe('answered');
    expect(answered.response).toMatchObject({ values: { time: '14:00' }, verified: true });
    const completed = interactionOf(
      await client.callTool({
        name: 'sess_complete',
        arguments: { handle: created.handle, expected_revision: 1, response_event_id: answered.response!.eventId },
      }),
    );
    expect(completed.state).toBe('completed');
    await client.close();
    expect(server.rawLogs.join('\n')).not.toContain(workspace.apiKey);
  });

  it("a key's handles are its own: another key of the workspace, another workspace and an OAuth grant get HANDLE_NOT_FOUND", async () => {
    const user = await createTestUser(server.database.db);
    const mine = await createApiKey({
      ctx: { db: server.database.db, now: () => new Date() },
      input: { workspaceId: user.workspaceId, name: 'agent one', createdBy: user.userId },
    });
    const sibling = await createApiKey({
      ctx: { db: server.database.db, now: () => new Date() },
      input: { workspaceId: user.workspaceId, name: 'agent two', createdBy: user.userId },
    });
    for (const key of [mine, sibling]) recordSecret(key.key, 'api-key');
    const stranger = await createWorkspaceWithKey(server.database.db);
    const owner = await signInAndAuthorize({ baseUrl: server.url, user });

    const client = await connect(mine.key);
    const created = interactionOf(await client.callTool({ name: 'sess_ask', arguments: ASK }));
    for (const bearer of [sibling.key, stranger.apiKey, owner.tokens.accessToken]) {
      const other = await connect(bearer);
      const read = await other.callTool({
        name: 'sess_response',
        arguments: { handle: created.handle, revision: 1, wait_ms: 0 },
      });
      expect(read.isError).toBe(true);
      expect(errorOf(read).code).toBe('HANDLE_NOT_FOUND');
      const listed = (await other.callTool({ name: 'sess_list', arguments: {} })) as {
        structuredContent: { interactions: unknown[] };
      };
      expect(listed.structuredContent.interactions).toEqual([]);
      await other.close();
    }
    // The key itself still sees it.
    const listed = (await client.callTool({ name: 'sess_list', arguments: {} })) as {
      structuredContent: { interactions: Array<{ handle: string }> };
    };
    expect(listed.structuredContent.interactions.map((i) => i.handle)).toEqual([created.handle]);
    await client.close();
  });

  it('a revoked key is refused at once (401), not after the cache expires', async () => {
    const workspace = await createWorkspaceWithKey(server.database.db);
    expect((await toolsList(workspace.apiKey)).status).toBe(200);
    const heard = await listenForMessage(server.database.bus, API_KEYS_CHANNEL, workspace.apiKeyId);
    await revokeApiKey({
      ctx: { db: server.database.db, now: () => new Date() },
      workspaceId: workspace.workspaceId,
      apiKeyId: workspace.apiKeyId,
    });
    // The revocation reaches the cache through the bus; the server's clock stands still, so the
    // cached key never expires on its own: only the notification can drop it.
    await heard();
    expect((await toolsList(workspace.apiKey)).status).toBe(401);
  });

  it.each([
    ['a key-shaped string no one issued', `sess_${'A'.repeat(43)}`],
    ['the prefix with garbage', 'sess_garbage'],
    ['anything else', 'not-a-key-at-all'],
  ])('%s: 401 with the invalid_token challenge', async (_name, bearer) => {
    const response = await toolsList(bearer);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
  });
});
