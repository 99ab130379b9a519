import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { authenticateApiKey, createApiKey, createApiKeyAuthenticator, listApiKeys, revokeApiKey } from '@sess/accounts';
import { apiKeys } from '@sess/db';
import { type FormsRuntime, submitLinkAnswer } from '@sess/forms';
import { key, refusal } from '@sess/forms/test-helpers';
import { createLocalKeySet, verifyReceipt } from '@sess/receipts';
import { buildApp, loadConfig } from '@sess/server';
import {
  createTestDatabase,
  createTestFormsRuntime,
  createTestLogger,
  createWorkspaceWithKey,
  sampleAskArguments,
  sampleSurface,
  TEST_PUBLIC_URL,
  TEST_SECRET,
  type TestDatabase,
  type TestWorkspace,
  tokenOf,
} from '@sess/testkit';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let database: TestDatabase;
let runtime: FormsRuntime;
let server: ReturnType<typeof serve>;
let base: string;
let mine: TestWorkspace;
let theirs: TestWorkspace;

beforeAll(async () => {
  database = await createTestDatabase();
  const config = loadConfig({ NODE_ENV: 'test', PORT: '0', PUBLIC_URL: TEST_PUBLIC_URL, SESS_SECRET: TEST_SECRET });
  // The app's own runtime, so the test can see its waiters; the same secret and URL as the server.
  runtime = createTestFormsRuntime(database);
  const app = buildApp({
    config,
    database,
    logger: createTestLogger(),
    secret: TEST_SECRET,
    now: () => new Date(),
    forms: runtime,
  });
  server = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    s.once('error', reject);
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  mine = await createWorkspaceWithKey(database.db, { plan: 'pro' });
  theirs = await createWorkspaceWithKey(database.db, { plan: 'pro' });
});
afterAll(async () => {
  await runtime.close();
  await new Promise((resolve) => server.close(resolve));
  await database.destroy();
});

type Options = {
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  as?: TestWorkspace | null;
  signal?: AbortSignal;
};

async function call(method: string, path: string, options: Options = {}) {
  const headers: Record<string, string> = { ...options.headers };
  const as = options.as === undefined ? mine : options.as;
  if (as) headers.authorization = `Bearer ${as.apiKey}`;
  let body: string | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  if (method === 'POST' && !('idempotency-key' in headers)) headers['idempotency-key'] = key();
  const response = await fetch(`${base}${path}`, { method, headers, body, signal: options.signal });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : undefined };
}

async function createOne(title = 'Approve this commit?') {
  const created = await call('POST', '/v1/sessions', { body: { interaction: sampleSurface(title), expires_in: 3600 } });
  expect(created.status).toBe(201);
  return created.json as { sessionId: string; humanUrl: string };
}

async function answerOne(humanUrl: string, revision = 1) {
  const result = await submitLinkAnswer(runtime, tokenOf(humanUrl), {
    revision,
    actionId: 'approve',
    submitted: { message: 'ok' },
  });
  if (!result.ok) throw new Error('refused');
  return result.eventId;
}

describe('authentication', () => {
  it('refuses a missing, malformed, unknown or revoked key with 401 and a JSON error', async () => {
    for (const header of [undefined, 'Basic abc', 'Bearer nope', `Bearer sess_${'A'.repeat(43)}`]) {
      const response = await fetch(`${base}/v1/sessions`, { headers: header ? { authorization: header } : {} });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="sess"');
      expect(response.headers.get('sess-workspace-id')).toBeNull();
      expect((await response.json()).error).toMatchObject({ code: 'UNAUTHORIZED', retryable: false });
    }
    const extra = await createApiKey({
      ctx: { db: database.db, now: () => new Date() },
      input: { workspaceId: mine.workspaceId, name: 'to revoke' },
    });
    const as = { ...mine, apiKey: extra.key };
    expect((await call('GET', '/v1/sessions', { as })).status).toBe(200);
    // The key was verified once and is cached; the revocation's notification drops it on every server.
    await revokeApiKey({ ctx: { db: database.db, now: () => new Date() }, workspaceId: mine.workspaceId, apiKeyId: extra.id });
    await expect.poll(async () => (await call('GET', '/v1/sessions', { as })).status, { timeout: 2000, interval: 10 }).toBe(401);
  });

  it('puts Sess-Workspace-Id and no-store on every authenticated response, errors included', async () => {
    const ok = await call('GET', '/v1/sessions');
    expect(ok.headers.get('sess-workspace-id')).toBe(mine.workspaceId);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    const missing = await call('GET', '/v1/sessions/ses_unknown');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('sess-workspace-id')).toBe(mine.workspaceId);
    expect(missing.json.error).toMatchObject({ code: 'NOT_FOUND', retryable: false });
  });

  it('records last use of a key cheaply (at most once a minute)', async () => {
    await call('GET', '/v1/sessions');
    const lastUsed = async () => (await database.db.select().from(apiKeys).where(eq(apiKeys.id, mine.apiKeyId)))[0]?.lastUsedAt;
    await expect.poll(lastUsed).toBeInstanceOf(Date);
    const first = (await lastUsed())!.getTime();
    await call('GET', '/v1/sessions');
    expect((await lastUsed())!.getTime()).toBe(first);
  });
});

describe('POST /v1/sessions', () => {
  it('creates a session: 201, Location, ETag, humanUrl on the public URL', async () => {
    const response = await call('POST', '/v1/sessions', { body: { interaction: sampleSurface() } });
    expect(response.status).toBe(201);
    expect(response.json).toMatchObject({ revision: 1, state: 'waiting', kind: 'interaction' });
    expect(response.json.humanUrl).toMatch(/^https:\/\/sess\.test\/s\//);
    expect(response.headers.get('location')).toBe(`/v1/sessions/${response.json.sessionId}`);
    expect(response.headers.get('etag')).toBe('"1"');
  });

  it('needs an Idempotency-Key (428) and replays an identical request; another body with the key is 409', async () => {
    const missing = await call('POST', '/v1/sessions', {
      body: { interaction: sampleSurface() },
      headers: { 'idempotency-key': '' },
    });
    expect(missing.status).toBe(428);
    expect(missing.json.error).toMatchObject({ code: 'PRECONDITION_REQUIRED', header: 'Idempotency-Key' });
    const k = key();
    const body = { interaction: sampleSurface('Same') };
    const first = await call('POST', '/v1/sessions', { body, headers: { 'idempotency-key': k } });
    const replay = await call('POST', '/v1/sessions', { body, headers: { 'idempotency-key': k } });
    expect(replay.status).toBe(201);
    expect(replay.json).toEqual(first.json);
    const reuse = await call('POST', '/v1/sessions', {
      body: { interaction: sampleSurface('Other') },
      headers: { 'idempotency-key': k },
    });
    expect(reuse.status).toBe(409);
    expect(reuse.json.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('refuses bad JSON, unknown fields, a wrong media type and an oversized body', async () => {
    const badJson = await call('POST', '/v1/sessions', {
      raw: '{"interaction":',
      headers: { 'content-type': 'application/json' },
    });
    expect(badJson.status).toBe(400);
    expect(badJson.json.error).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '' });
    const unknown = await call('POST', '/v1/sessions', { body: { interaction: sampleSurface(), colour: 'red' } });
    expect(unknown.json.error).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/colour' });
    const deep = await call('POST', '/v1/sessions', { body: { interaction: { ...sampleSurface(), title: 'x'.repeat(81) } } });
    expect(deep.json.error).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/interaction/title', limit: 80, length: 81 });
    const proto = await call('POST', '/v1/sessions', {
      raw: `{"interaction":${JSON.stringify(sampleSurface())},"__proto__":{"x":1}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(proto.json.error).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/__proto__' });
    const media = await call('POST', '/v1/sessions', { raw: 'interaction=1', headers: { 'content-type': 'text/plain' } });
    expect(media.status).toBe(415);
    expect(media.json.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const big = await call('POST', '/v1/sessions', { body: { interaction: sampleSurface(), pad: 'x'.repeat(70_000) } });
    expect(big.status).toBe(413);
    expect(big.json.error.code).toBe('PAYLOAD_TOO_LARGE');
    const over = await call('POST', '/v1/sessions', { body: { interaction: sampleSurface(), expires_in: 31 * 86_400 } });
    expect(over.status).toBe(400);
    expect(over.json.error).toMatchObject({ field: '/expires_in', limit: 30 * 86_400 });
  });
});

describe('GET /v1/sessions/:id', () => {
  it('reads a session with its ETag; another workspace gets 404, never 403', async () => {
    const { sessionId } = await createOne();
    const read = await call('GET', `/v1/sessions/${sessionId}`);
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).toBe('"1"');
    expect(read.json).toMatchObject({ sessionId, state: 'waiting', revision: 1, response: null });
    const foreign = await call('GET', `/v1/sessions/${sessionId}`, { as: theirs });
    expect(foreign.status).toBe(404);
    expect(foreign.headers.get('sess-workspace-id')).toBe(theirs.workspaceId);
    expect(JSON.stringify(foreign.json)).not.toContain('answer');
  });

  it('waits with wait_ms until the answer lands, and returns a receipt that verifies against the JWKS', async () => {
    const { sessionId, humanUrl } = await createOne();
    const waiting = call('GET', `/v1/sessions/${sessionId}?wait_ms=20000`);
    await expect.poll(() => runtime.waiters.size, { timeout: 5000, interval: 5 }).toBe(1);
    const eventId = await answerOne(humanUrl);
    const read = await waiting;
    expect(read.json).toMatchObject({ state: 'answered', response: { eventId, actionId: 'approve', values: { message: 'ok' } } });
    const jwks = await (await fetch(`${base}/.well-known/jwks.json`)).json();
    const verified = await verifyReceipt(read.json.response.receipt, {
      keys: await createLocalKeySet(jwks),
      issuer: TEST_PUBLIC_URL,
      expected: { workspaceId: mine.workspaceId, sessionId, revision: 1, eventId, surfaceSha256: read.json.surfaceSha256 },
    });
    expect(verified.ok).toBe(true);
  });

  it('frees the waiter at once when the client disconnects', async () => {
    const { sessionId } = await createOne();
    const controller = new AbortController();
    const waiting = call('GET', `/v1/sessions/${sessionId}?wait_ms=30000`, { signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    await expect.poll(() => runtime.waiters.size, { timeout: 5000, interval: 5 }).toBe(1);
    controller.abort();
    await waiting;
    await expect.poll(() => runtime.waiters.size, { timeout: 2000, interval: 5 }).toBe(0);
  });

  it('refuses bad query parameters', async () => {
    const { sessionId } = await createOne();
    const tooLong = await call('GET', `/v1/sessions/${sessionId}?wait_ms=45001`);
    expect(tooLong.json.error).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/wait_ms' });
    expect((await call('GET', `/v1/sessions/${sessionId}?wait_ms=soon`)).json.error.field).toBe('/wait_ms');
    expect((await call('GET', `/v1/sessions/${sessionId}?colour=red`)).json.error.field).toBe('/colour');
    expect((await call('GET', `/v1/sessions/${sessionId}?revision=0`)).json.error.field).toBe('/revision');
  });
});

describe('publish, complete, withdraw', () => {
  it('publish needs If-Match, refuses a stale revision naming the current one, replays identically', async () => {
    const { sessionId, humanUrl } = await createOne();
    const eventId = await answerOne(humanUrl);
    const body = { response_event_id: eventId, interaction: sampleSurface('Next') };
    const noMatch = await call('POST', `/v1/sessions/${sessionId}/publish`, { body });
    expect(noMatch.status).toBe(428);
    expect(noMatch.json.error).toMatchObject({ code: 'PRECONDITION_REQUIRED', header: 'If-Match' });
    const badMatch = await call('POST', `/v1/sessions/${sessionId}/publish`, { body, headers: { 'if-match': 'W/"x"' } });
    expect(badMatch.status).toBe(400);
    const k = key();
    const published = await call('POST', `/v1/sessions/${sessionId}/publish`, {
      body,
      headers: { 'if-match': '"1"', 'idempotency-key': k },
    });
    expect(published.status).toBe(200);
    expect(published.headers.get('etag')).toBe('"2"');
    expect(published.json).toMatchObject({ revision: 2, state: 'waiting' });
    const replay = await call('POST', `/v1/sessions/${sessionId}/publish`, {
      body,
      headers: { 'if-match': '"1"', 'idempotency-key': k },
    });
    expect(replay.json).toEqual(published.json);
    const stale = await call('POST', `/v1/sessions/${sessionId}/publish`, { body, headers: { 'if-match': '"1"' } });
    expect(stale.status).toBe(409);
    expect(stale.json.error).toMatchObject({ code: 'REVISION_MISMATCH', currentRevision: 2, retryable: false });
    const foreign = await call('POST', `/v1/sessions/${sessionId}/publish`, { body, headers: { 'if-match': '"2"' }, as: theirs });
    expect(foreign.status).toBe(404);
  });

  it('complete closes the session; withdraw is idempotent', async () => {
    const { sessionId, humanUrl } = await createOne();
    const eventId = await answerOne(humanUrl);
    const completed = await call('POST', `/v1/sessions/${sessionId}/complete`, {
      body: { response_event_id: eventId },
      headers: { 'if-match': '1' },
    });
    expect(completed.status).toBe(200);
    expect(completed.json).toMatchObject({ state: 'completed', response: { eventId } });
    const badBody = await call('POST', `/v1/sessions/${sessionId}/complete`, {
      body: { response_event_id: 5 },
      headers: { 'if-match': '1' },
    });
    expect(badBody.json.error).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/response_event_id' });
    // The tools' limit (issue 34): 64, and every answer event id Sess makes is 30 characters.
    const tooLong = await call('POST', `/v1/sessions/${sessionId}/complete`, {
      body: { response_event_id: `evt_${'a'.repeat(61)}` },
      headers: { 'if-match': '1' },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.error).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/response_event_id', limit: 64, length: 65 });

    const other = await createOne();
    const first = await call('POST', `/v1/sessions/${other.sessionId}/withdraw`);
    const second = await call('POST', `/v1/sessions/${other.sessionId}/withdraw`, { body: {} });
    expect(first.status).toBe(200);
    expect(second.json).toEqual(first.json);
    expect((await call('POST', `/v1/sessions/${other.sessionId}/withdraw`, { as: theirs })).status).toBe(404);
    expect((await call('GET', `/v1/sessions/${other.sessionId}`)).json.state).toBe('withdrawn');
  });
});

describe('asks and lists', () => {
  it('creates and reads an Ask; another workspace gets 404', async () => {
    const created = await call('POST', '/v1/asks', { body: sampleAskArguments({ max: 3 }) });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ kind: 'ask', ask: { max: 3 } });
    const read = await call('GET', `/v1/asks/${created.json.askId}`);
    expect(read.json).toMatchObject({ state: 'waiting', counts: { started: 0, answered: 0, max: 3 } });
    expect((await call('GET', `/v1/asks/${created.json.askId}`, { as: theirs })).status).toBe(404);
    const bad = await call('POST', '/v1/asks', { body: { ...sampleAskArguments({ max: 3 }), fields: [] } });
    expect(bad.json.error).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/fields' });
  });

  it('lists this workspace’s sessions by status', async () => {
    const { sessionId } = await createOne('Listed');
    const list = await call('GET', '/v1/sessions?status=waiting&kind=interaction&limit=100');
    expect(list.json.sessions.map((s: { sessionId: string }) => s.sessionId)).toContain(sessionId);
    const foreign = await call('GET', '/v1/sessions?limit=100', { as: theirs });
    expect(foreign.json.sessions.map((s: { sessionId: string }) => s.sessionId)).not.toContain(sessionId);
    expect((await call('GET', '/v1/sessions?status=lost')).json.error).toMatchObject({ field: '/status/0' });
  });
});

describe('public documents', () => {
  it('serves the JWKS (active key) with its cache headers, and the OpenAPI document, without a key', async () => {
    const jwks = await fetch(`${base}/.well-known/jwks.json`);
    expect(jwks.status).toBe(200);
    expect(jwks.headers.get('cache-control')).toBe('public, max-age=60, stale-if-error=3600');
    expect(jwks.headers.get('content-type')).toContain('application/jwk-set+json');
    const body = await jwks.json();
    expect(body.keys.length).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(body)).not.toContain('"d"');
    const openapi = await fetch(`${base}/v1/openapi.json`);
    expect(openapi.status).toBe(200);
    expect((await openapi.json()).paths['/v1/sessions/{id}/publish']).toBeDefined();
  });
});

describe('API key authenticator (cache)', () => {
  it('serves a verified key from its cache, forgets it on revocation, never caches unknown keys', async () => {
    const ctx = { db: database.db, now: () => new Date() };
    const authenticator = createApiKeyAuthenticator({ ...ctx, bus: database.bus, ttlMs: 60_000 });
    try {
      const created = await createApiKey({ ctx, input: { workspaceId: mine.workspaceId, name: 'cached' } });
      expect(await authenticator.authenticate(created.key)).toMatchObject({ workspaceId: mine.workspaceId });
      // Revoked behind the cache's back (no notification): the cache still answers until its TTL.
      await database.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, created.id));
      expect(await authenticator.authenticate(created.key)).toMatchObject({ workspaceId: mine.workspaceId });
      // A revocation through the verb notifies, and the key is gone at once.
      await database.db.update(apiKeys).set({ revokedAt: null }).where(eq(apiKeys.id, created.id));
      await revokeApiKey({ ctx, workspaceId: mine.workspaceId, apiKeyId: created.id });
      await expect.poll(() => authenticator.authenticate(created.key), { timeout: 2000, interval: 10 }).toBeNull();
      expect(await authenticator.authenticate('not a key')).toBeNull();
      expect(await authenticator.authenticate(`sess_${'B'.repeat(43)}`)).toBeNull();
    } finally {
      await authenticator.close();
    }
  });
});

describe('API key verbs', () => {
  it('create shows the key once, stores only hash and prefix; list never shows it; revoke is scoped', async () => {
    const ctx = { db: database.db, now: () => new Date() };
    const created = await createApiKey({ ctx, input: { workspaceId: mine.workspaceId, name: '  CI  ' } });
    expect(created).toMatchObject({ name: 'CI', prefix: created.key.slice(0, 12) });
    expect(created.key).toMatch(/^sess_[A-Za-z0-9_-]{43}$/);
    const [row] = await database.db.select().from(apiKeys).where(eq(apiKeys.id, created.id));
    expect(JSON.stringify(row)).not.toContain(created.key);
    const listed = await listApiKeys({ ctx, workspaceId: mine.workspaceId });
    expect(listed.map((k) => k.id)).toContain(created.id);
    expect(JSON.stringify(listed)).not.toContain(created.key);
    expect(await authenticateApiKey(ctx, created.key)).toMatchObject({ workspaceId: mine.workspaceId, plan: 'pro' });
    expect(await refusal(revokeApiKey({ ctx, workspaceId: theirs.workspaceId, apiKeyId: created.id }))).toMatchObject({
      code: 'NOT_FOUND',
    });
    await revokeApiKey({ ctx, workspaceId: mine.workspaceId, apiKeyId: created.id });
    expect(await authenticateApiKey(ctx, created.key)).toBeNull();
    expect(await refusal(createApiKey({ ctx, input: { workspaceId: mine.workspaceId, name: ' ' } }))).toMatchObject({
      field: '/name',
    });
    expect(await refusal(createApiKey({ ctx, input: { workspaceId: 'ws_nope', name: 'x' } }))).toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});
