import { UNSTORABLE_INPUT_MESSAGE } from '@sess/db';
import { createWorkspaceWithKey, type TestWorkspace } from '@sess/testkit';
import { type AppServer, startAppServer } from '@sess/testkit/app-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpHarness, startMcpHarness } from './support/mcp-harness.ts';

/*
 * The safety net under the input checks: characters PostgreSQL cannot store (NUL in text,
 * `\u0000` in jsonb, an unpaired surrogate in JSON) that reach the database anyway are 400
 * INVALID_ARGUMENTS, not retryable — never a 500 that invites a retry of the same request. The
 * input checks name the field with a JSON pointer; this net, which only sees the database's
 * SQLSTATE, cannot, and says so in one message for every face.
 */

describe('the bad-input net on /v1', () => {
  let server: AppServer;
  let workspace: TestWorkspace;
  beforeAll(async () => {
    server = await startAppServer();
    workspace = await createWorkspaceWithKey(server.database.db);
  });
  afterAll(() => server?.close());

  it.each(['/v1/sessions/ses_a%00b', '/v1/asks/ask_a%00b'])('%s: 400 INVALID_ARGUMENTS, not retryable', async (path) => {
    const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${workspace.apiKey}` } });
    expect(response.status).toBe(400);
    expect(response.headers.get('retry-after')).toBeNull();
    expect(await response.json()).toMatchObject({
      error: { code: 'INVALID_ARGUMENTS', message: UNSTORABLE_INPUT_MESSAGE, retryable: false },
    });
    // The log line names the SQLSTATE, never the value or the statement.
    const line = server.logs.find((l) => l.event === 'http.unstorable_input');
    expect(line?.err).toMatchObject({ database: true, cause: { sqlState: '22021' } });
    expect(JSON.stringify(server.logs)).not.toContain('ses_a\\u0000b');
  });
});

describe('the bad-input net on the MCP tools', () => {
  let h: McpHarness;
  beforeAll(async () => {
    h = await startMcpHarness();
  });
  afterAll(() => h?.close());

  it('sess_list with a cursor that smuggles a NUL to the database: INVALID_ARGUMENTS, not retryable', async () => {
    const client = await h.connect((await h.addPrincipal()).token, 'modern');
    const cursor = Buffer.from(JSON.stringify(['2030-01-01T00:00:00.000Z', 'hdl_\u0000'])).toString('base64url');
    const result = (await client.callTool({ name: 'sess_list', arguments: { cursor } })) as {
      isError?: boolean;
      structuredContent: { error: { code: string; message: string; retryable: boolean } };
    };
    expect(result.isError).toBe(true);
    expect(result.structuredContent.error).toEqual({
      code: 'INVALID_ARGUMENTS',
      message: UNSTORABLE_INPUT_MESSAGE,
      retryable: false,
    });
  });
});
