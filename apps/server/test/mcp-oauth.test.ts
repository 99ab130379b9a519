import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { queryRows } from '@sess/db';
import { disconnectApp } from '@sess/oauth';
import { createTestUser, sampleSurface, signInAndAuthorize, type TestUser } from '@sess/testkit';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOnPage, pageText } from './support/answer-page.ts';
import { type AppServer, startAppServer } from './support/app-server.ts';
import { PersonAtTheKeyboard } from './support/oauth-provider.ts';

/*
 * The MCP endpoint of the real app, reached by the v2 MCP client that signs in through the whole
 * OAuth flow by itself (discovery from the 401, DCR, PKCE, the real sign-in and consent pages,
 * the token request), in both protocol eras, and a person answering on the real page.
 */

type Interaction = {
  handle: string;
  revision: number;
  state: string;
  humanUrl?: string;
  response?: { eventId: string; actionId: string; values: Record<string, unknown>; verified: boolean };
};

let server: AppServer;
beforeAll(async () => {
  server = await startAppServer();
});
afterAll(async () => server?.close());

const interactionOf = (result: unknown) =>
  (result as { structuredContent: { interaction: Interaction } }).structuredContent.interaction;
const errorOf = (result: unknown) => (result as { structuredContent: { error: { code: string } } }).structuredContent.error;

async function connectSignedIn(
  user: TestUser,
  era: 'modern' | 'legacy',
): Promise<{ client: Client; provider: PersonAtTheKeyboard }> {
  const url = new URL(`${server.url}/mcp`);
  const provider = new PersonAtTheKeyboard(server.url, user);
  const options = era === 'modern' ? { versionNegotiation: { mode: 'auto' as const } } : {};
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await expect(new Client({ name: 'sess-test', version: '1' }, options).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.callback?.get('code')).toBeTruthy();
  await first.finishAuth(provider.callback!);
  const client = new Client({ name: 'sess-test', version: '1' }, options);
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  return { client, provider };
}

describe('unauthenticated requests get a 401 challenge before anything else', () => {
  it.each([
    [
      'initialize (2025)',
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
      },
      {},
    ],
    [
      'server/discover (2026-07-28)',
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'server/discover',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'probe', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      },
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' },
    ],
  ])('%s without a token: 401, bare challenge with resource_metadata and scope, no error=', async (_name, body, headers) => {
    const response = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate')!;
    expect(challenge).toBe(
      `Bearer resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp", scope="sess:interact"`,
    );
    expect(challenge).not.toContain('error=');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('a bad token: 401 with error="invalid_token"', async () => {
    const response = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer not.a.token' },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(
      /^Bearer error="invalid_token", error_description="[^"]+", resource_metadata=/,
    );
  });

  it('the protected resource metadata names this endpoint and our authorization server', async () => {
    const prm = (await (await fetch(`${server.url}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>;
    expect(prm.resource).toBe(`${server.url}/mcp`);
    expect(prm.authorization_servers).toEqual([server.url]);
  });
});

describe.each(['modern', 'legacy'] as const)('signed in by the client itself, %s era', (era) => {
  it('sess_request → approve on the page → answered + verified → sess_publish → answer → sess_complete → page shows Done', async () => {
    const user = await createTestUser(server.database.db);
    const { client } = await connectSignedIn(user, era);
    expect(client.getNegotiatedProtocolVersion()).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');

    const created = interactionOf(await client.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface() } }));
    expect(created.humanUrl!.startsWith(`${server.url}/s/`)).toBe(true);
    const approved = await answerOnPage(created.humanUrl!, { message: 'Greet by first name' }, 'approve');
    expect(approved.status).toBe(303);

    const first = interactionOf(
      await client.callTool({ name: 'sess_response', arguments: { handle: created.handle, revision: 1, wait_ms: 5000 } }),
    );
    expect(first).toMatchObject({
      state: 'answered',
      response: { actionId: 'approve', values: { message: 'Greet by first name' }, verified: true },
    });

    const published = interactionOf(
      await client.callTool({
        name: 'sess_publish',
        arguments: {
          handle: created.handle,
          expected_revision: 1,
          response_event_id: first.response!.eventId,
          interaction: sampleSurface('Push to main now?'),
        },
      }),
    );
    expect(published).toMatchObject({ state: 'waiting', revision: 2 });
    expect(await answerOnPage(created.humanUrl!, {}, 'stop')).toMatchObject({ status: 303 });
    const second = interactionOf(
      await client.callTool({ name: 'sess_response', arguments: { handle: created.handle, revision: 2, wait_ms: 5000 } }),
    );
    expect(second).toMatchObject({ state: 'answered', revision: 2, response: { actionId: 'stop' } });
    const done = interactionOf(
      await client.callTool({
        name: 'sess_complete',
        arguments: { handle: created.handle, expected_revision: 2, response_event_id: second.response!.eventId },
      }),
    );
    expect(done.state).toBe('completed');
    expect(pageText(await (await fetch(created.humanUrl!)).text())).toMatch(/Done/i);
  });

  it('a token refresh (same grant generation) keeps the handles', async () => {
    const user = await createTestUser(server.database.db);
    const connected = await signInAndAuthorize({ baseUrl: server.url, user });
    const url = new URL(`${server.url}/mcp`);
    const options = era === 'modern' ? { versionNegotiation: { mode: 'auto' as const } } : {};
    const withToken = async (token: string) => {
      const c = new Client({ name: 't', version: '1' }, options);
      await c.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
      return c;
    };
    const before = await withToken(connected.tokens.accessToken);
    const created = interactionOf(await before.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface() } }));
    await connected.refresh();
    const after = await withToken(connected.tokens.accessToken);
    const read = interactionOf(
      await after.callTool({ name: 'sess_response', arguments: { handle: created.handle, revision: 1, wait_ms: 0 } }),
    );
    expect(read.state).toBe('waiting');
    await before.close();
    await after.close();
  });
});

describe('binding of handles to the OAuth authority', () => {
  it('another principal gets HANDLE_NOT_FOUND; a Disconnect and a new sign-in (new grant generation) get BINDING_MISMATCH', async () => {
    const alice = await createTestUser(server.database.db);
    const bob = await createTestUser(server.database.db);
    const url = new URL(`${server.url}/mcp`);
    const withToken = async (token: string) => {
      const c = new Client({ name: 't', version: '1' }, { versionNegotiation: { mode: 'auto' } });
      await c.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
      return c;
    };
    const aliceConnected = await signInAndAuthorize({ baseUrl: server.url, user: alice });
    const aliceClient = await withToken(aliceConnected.tokens.accessToken);
    const created = interactionOf(
      await aliceClient.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface() } }),
    );

    const bobConnected = await signInAndAuthorize({ baseUrl: server.url, user: bob });
    const bobClient = await withToken(bobConnected.tokens.accessToken);
    const foreign = await bobClient.callTool({
      name: 'sess_response',
      arguments: { handle: created.handle, revision: 1, wait_ms: 0 },
    });
    expect(foreign.isError).toBe(true);
    expect(errorOf(foreign).code).toBe('HANDLE_NOT_FOUND');

    // Disconnect on the account page's verb: the old token stops working on every replica within
    // about a second (the grant's NOTIFY reaches the verifier's cache; PostgreSQL delivers it
    // asynchronously, so the test waits for it as the other Disconnect tests do).
    const [grant] = await queryRows<{ id: string }>(
      server.database.db,
      sql`select id from oauth_grants where client_id = ${aliceConnected.clientId} and revoked_at is null`,
    );
    expect(await disconnectApp(server.database.db, { userId: alice.userId, grantId: grant!.id, now: server.clock.now() })).toBe(
      true,
    );
    const listWithOldToken = () =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${aliceConnected.tokens.accessToken}`,
        },
        body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      });
    await expect.poll(async () => (await listWithOldToken()).status, { timeout: 2000, interval: 20 }).toBe(401);
    const refused = await listWithOldToken();
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer /);

    // Alice connects the same app again: the grant is re-issued at a new generation.
    const again = await signInAndAuthorize({
      baseUrl: server.url,
      user: alice,
      client: { kind: 'existing', clientId: aliceConnected.clientId, redirectUri: aliceConnected.redirectUri },
    });
    const aliceAgain = await withToken(again.tokens.accessToken);
    const stale = await aliceAgain.callTool({
      name: 'sess_response',
      arguments: { handle: created.handle, revision: 1, wait_ms: 0 },
    });
    expect(stale.isError).toBe(true);
    expect(errorOf(stale).code).toBe('BINDING_MISMATCH');
    for (const c of [aliceClient, bobClient, aliceAgain]) await c.close();
  });
});
