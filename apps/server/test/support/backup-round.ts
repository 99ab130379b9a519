import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { newId } from '@sess/core';
import { createLocalKeySet, verifyReceipt } from '@sess/receipts';
import {
  type AuthorizedTestClient,
  answerOnPage,
  recordSecret,
  sampleSurface,
  signInAndAuthorize,
  type TestUser,
  type TestWorkspace,
} from '@sess/testkit';
import { expect } from 'vitest';

/*
 * What a backup must keep, made on a running Sess before it and checked on the restored one
 * (the embedded database's `sess backup`/`sess restore`, and PostgreSQL's pg_dump/pg_restore):
 * a form still open and one answered with its receipt (/v1, an API key), and an OAuth
 * connection (its access and refresh tokens) with an open hosted form made over /mcp.
 */

export interface BeforeBackup {
  openSessionId: string;
  openHumanUrl: string;
  answeredSessionId: string;
  receipt: string;
  /** The kid that signed `receipt`. */
  receiptKid: string;
  oauth: AuthorizedTestClient;
  handle: string;
  handleHumanUrl: string;
}

// biome-ignore lint/suspicious/noExplicitAny: a test reads the bodies it asserts on
type Json = Record<string, any>;

async function v1(
  base: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Json }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body ? { 'content-type': 'application/json', 'idempotency-key': newId('session') } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, json: (await response.json()) as Json };
}

async function createForm(base: string, key: string, title: string): Promise<{ sessionId: string; humanUrl: string }> {
  const created = await v1(base, key, 'POST', '/v1/sessions', { interaction: sampleSurface(title) });
  expect(created.status).toBe(201);
  recordSecret(created.json.humanUrl, 'link');
  return { sessionId: created.json.sessionId, humanUrl: created.json.humanUrl };
}

const kidOf = (jws: string) => JSON.parse(Buffer.from(jws.split('.')[0]!, 'base64url').toString('utf8')).kid as string;

/** A receipt checked against the server's own JWKS, as anyone who holds it would. */
async function expectReceiptVerifies(base: string, workspaceId: string, read: Json): Promise<void> {
  const jwks = await (await fetch(`${base}/.well-known/jwks.json`)).json();
  const verified = await verifyReceipt(read.response.receipt, {
    keys: await createLocalKeySet(jwks),
    issuer: base,
    expected: {
      workspaceId,
      sessionId: read.sessionId,
      revision: read.revision,
      eventId: read.response.eventId,
      surfaceSha256: read.surfaceSha256,
    },
  });
  expect(verified).toMatchObject({ ok: true });
}

async function mcpClient(base: string, accessToken: string): Promise<Client> {
  const client = new Client({ name: 'sess-backup-test', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${accessToken}` } },
    }),
  );
  return client;
}

const interactionOf = (result: unknown) => (result as { structuredContent: { interaction: Json } }).structuredContent.interaction;

/** Makes everything the restored server must still have, on the server at `base`. */
export async function makeBeforeBackup(base: string, workspace: TestWorkspace, user: TestUser): Promise<BeforeBackup> {
  const open = await createForm(base, workspace.apiKey, 'Still open after the restore');
  const answered = await createForm(base, workspace.apiKey, 'Answered before the backup');
  expect(await answerOnPage(answered.humanUrl, { message: 'before' }, 'approve')).toBe(303);
  const read = await v1(base, workspace.apiKey, 'GET', `/v1/sessions/${answered.sessionId}`);
  expect(read.json).toMatchObject({ state: 'answered' });
  await expectReceiptVerifies(base, workspace.workspaceId, read.json);

  const oauth = await signInAndAuthorize({ baseUrl: base, user });
  recordSecret(oauth.tokens.accessToken, 'token');
  recordSecret(oauth.tokens.refreshToken, 'token');
  const client = await mcpClient(base, oauth.tokens.accessToken);
  const created = interactionOf(
    await client.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface('Open over OAuth') } }),
  );
  await client.close();
  recordSecret(created.humanUrl, 'link');
  return {
    openSessionId: open.sessionId,
    openHumanUrl: open.humanUrl,
    answeredSessionId: answered.sessionId,
    receipt: read.json.response.receipt,
    receiptKid: kidOf(read.json.response.receipt),
    oauth,
    handle: created.handle,
    handleHumanUrl: created.humanUrl,
  };
}

/**
 * On the restored server at `base` (same PUBLIC_URL): the API key reads both forms, the receipt
 * made before verifies against today's JWKS, the open form is answered and its new receipt is
 * signed with the same key, the OAuth access token issued before calls /mcp, its refresh token
 * is exchanged, and the hosted form made over OAuth is answered and read through the new token.
 */
export async function expectRestored(base: string, workspace: TestWorkspace, before: BeforeBackup): Promise<void> {
  const old = await v1(base, workspace.apiKey, 'GET', `/v1/sessions/${before.answeredSessionId}`);
  expect(old.status).toBe(200);
  expect(old.json.response.receipt).toBe(before.receipt);
  await expectReceiptVerifies(base, workspace.workspaceId, old.json);

  const waiting = await v1(base, workspace.apiKey, 'GET', `/v1/sessions/${before.openSessionId}`);
  expect(waiting.json).toMatchObject({ state: 'waiting', response: null });
  expect(await answerOnPage(before.openHumanUrl, { message: 'after' }, 'approve')).toBe(303);
  const answered = await v1(base, workspace.apiKey, 'GET', `/v1/sessions/${before.openSessionId}`);
  expect(answered.json).toMatchObject({ state: 'answered', response: { values: { message: 'after' } } });
  await expectReceiptVerifies(base, workspace.workspaceId, answered.json);
  // The signing key came back with the database and the secret: the same kid signs.
  expect(kidOf(answered.json.response.receipt)).toBe(before.receiptKid);

  const withOldToken = await mcpClient(base, before.oauth.tokens.accessToken);
  expect(
    interactionOf(
      await withOldToken.callTool({ name: 'sess_response', arguments: { handle: before.handle, revision: 1, wait_ms: 0 } }),
    ),
  ).toMatchObject({ state: 'waiting' });
  await withOldToken.close();
  expect(await answerOnPage(before.handleHumanUrl, { message: 'over oauth' }, 'approve')).toBe(303);
  const refreshed = await before.oauth.refresh();
  recordSecret(refreshed.accessToken, 'token');
  recordSecret(refreshed.refreshToken, 'token');
  const withNewToken = await mcpClient(base, refreshed.accessToken);
  expect(
    interactionOf(
      await withNewToken.callTool({ name: 'sess_response', arguments: { handle: before.handle, revision: 1, wait_ms: 0 } }),
    ),
  ).toMatchObject({ state: 'answered', response: { values: { message: 'over oauth' }, verified: true } });
  await withNewToken.close();
}
