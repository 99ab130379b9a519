import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import {
  buildV1OpenApiDocument,
  CompleteSessionRequestSchema,
  CreateAskRequestSchema,
  CreateSessionRequestSchema,
  findV1Route,
  PublishSessionRequestSchema,
  V1_ROUTES,
  type V1ResponseHeader,
} from '@sess/contract';
import { verifyEventChain } from '@sess/core';
import { type EventWorker, startEventWorker } from '@sess/events';
import { type AnswerWay, type FormsRuntime, startRespondent, submitLinkAnswer } from '@sess/forms';
import { key } from '@sess/forms/test-helpers';
import { buildApp, loadConfig } from '@sess/server';
import { RESPONDENT_NAME_FIELD } from '@sess/surface';
import {
  createTestClock,
  createTestDatabase,
  createTestFormsRuntime,
  createTestLogger,
  createTestSession,
  createWorkspaceWithKey,
  recordSecret,
  sampleAskArguments,
  sampleSurface,
  TEST_PUBLIC_URL,
  TEST_SECRET,
  type TestDatabase,
  type TestWorkspace,
  tokenOf,
} from '@sess/testkit';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * The contract cannot drift from the wire: what GET /v1/openapi.json serves is what the contract
 * generates, and real responses of every route — successes and the errors the flows can reach —
 * parse with the route's zod schema for that status (and nothing in them is left out of it),
 * validate against the served document's JSON Schema, and carry the headers the route documents.
 */

interface Recorded {
  method: string;
  path: string;
  status: number;
  headers: Headers;
  json: unknown;
}

let database: TestDatabase;
let runtime: FormsRuntime;
let events: EventWorker;
let server: ReturnType<typeof serve>;
let base: string;
let mine: TestWorkspace;
let theirs: TestWorkspace;
const clock = createTestClock(new Date());
const recorded: Recorded[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const config = loadConfig({ NODE_ENV: 'test', PORT: '0', PUBLIC_URL: TEST_PUBLIC_URL, SESS_SECRET: TEST_SECRET });
  runtime = createTestFormsRuntime(database, { now: clock.now });
  events = startEventWorker({ database, logger: createTestLogger(), now: clock.now, background: false });
  const app = buildApp({ config, database, logger: createTestLogger(), secret: TEST_SECRET, now: clock.now, forms: runtime });
  server = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    s.once('error', reject);
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  mine = await createWorkspaceWithKey(database.db, { plan: 'pro' });
  theirs = await createWorkspaceWithKey(database.db, { plan: 'pro' });
});
afterAll(async () => {
  await events.close();
  await runtime.close();
  await new Promise((resolve) => server.close(resolve));
  await database.destroy();
});

type Options = { body?: unknown; raw?: string; headers?: Record<string, string>; as?: TestWorkspace | null };

/** A real request; every answer is recorded for the contract checks at the end. */
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
  const response = await fetch(`${base}${path}`, { method, headers, body });
  const text = await response.text();
  // An export is JSON Lines: each line is recorded as one body of its route's schema.
  const lines = response.headers.get('content-type')?.startsWith('application/x-ndjson');
  const bodies: unknown[] = lines
    ? text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [text ? JSON.parse(text) : undefined];
  const json: unknown = lines ? bodies : bodies[0];
  for (const url of [(json as { humanUrl?: unknown } | undefined)?.humanUrl].filter((u) => typeof u === 'string')) {
    recordSecret(url, 'link');
    recordSecret(tokenOf(url as string), 'link');
  }
  for (const one of bodies) {
    recorded.push({ method, path: new URL(path, base).pathname, status: response.status, headers: response.headers, json: one });
  }
  // biome-ignore lint/suspicious/noExplicitAny: a test reads the bodies it asserts on
  return { status: response.status, headers: response.headers, json: json as any };
}

async function answer(humanUrl: string, revision: number, way?: AnswerWay): Promise<string> {
  const result = await submitLinkAnswer(
    runtime,
    tokenOf(humanUrl),
    { revision, actionId: 'approve', submitted: { message: 'ok' } },
    way,
  );
  if (!result.ok) throw new Error('refused');
  return result.eventId;
}

describe('GET /v1/openapi.json', () => {
  it('serves exactly what the contract generates', async () => {
    const served = await call('GET', '/v1/openapi.json', { as: null });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('application/json');
    expect(served.json).toEqual(buildV1OpenApiDocument(TEST_PUBLIC_URL));
    expect((await call('GET', '/.well-known/jwks.json', { as: null })).json.keys.length).toBeGreaterThan(0);
  });
});

describe('flows over every route', () => {
  it('an interaction: create, read, answer, read an older revision, publish, complete', async () => {
    const body = { interaction: sampleSurface('Contract'), expires_in: 3600 };
    expect(CreateSessionRequestSchema.safeParse(body).success).toBe(true);
    const created = await call('POST', '/v1/sessions', { body });
    expect(created.status).toBe(201);
    const { sessionId, humanUrl } = created.json;
    expect((await call('GET', `/v1/sessions/${sessionId}`)).json.state).toBe('waiting');
    const first = await answer(humanUrl, 1);
    const answered = await call('GET', `/v1/sessions/${sessionId}?revision=1&wait_ms=1000`);
    expect(answered.json).toMatchObject({ state: 'answered', response: { eventId: first, via: 'link' } });
    expect('viaPrincipalId' in answered.json.response).toBe(false);
    const publish = { response_event_id: first, interaction: sampleSurface('Next') };
    expect(PublishSessionRequestSchema.safeParse(publish).success).toBe(true);
    const published = await call('POST', `/v1/sessions/${sessionId}/publish`, { body: publish, headers: { 'if-match': '"1"' } });
    expect(published.json).toMatchObject({ revision: 2, state: 'waiting', response: null });
    expect((await call('GET', `/v1/sessions/${sessionId}?revision=1`)).json.response.eventId).toBe(first);
    // The next step answered inside the agent's chat: the answer says so, with the principal.
    const second = await answer(humanUrl, 2, { via: 'chat', principalId: 'usr_ffffffffffffffffffffffffff' });
    const complete = { response_event_id: second };
    expect(CompleteSessionRequestSchema.safeParse(complete).success).toBe(true);
    const completed = await call('POST', `/v1/sessions/${sessionId}/complete`, { body: complete, headers: { 'if-match': '2' } });
    expect(completed.json).toMatchObject({
      state: 'completed',
      response: { eventId: second, via: 'chat', viaPrincipalId: 'usr_ffffffffffffffffffffffffff' },
    });
    expect((await call('GET', `/v1/sessions/${sessionId}`)).json.state).toBe('completed');
    // Refusals of a finished session.
    expect((await call('POST', `/v1/sessions/${sessionId}/withdraw`)).status).toBe(409);
    const stale = await call('POST', `/v1/sessions/${sessionId}/complete`, { body: complete, headers: { 'if-match': '1' } });
    expect(stale.json.error.code).toBe('INVALID_STATE');
  });

  it('an interaction withdrawn, one expired, one not answered yet', async () => {
    const withdrawn = (await call('POST', '/v1/sessions', { body: { interaction: sampleSurface('Withdraw me') } })).json;
    expect((await call('POST', `/v1/sessions/${withdrawn.sessionId}/withdraw`)).status).toBe(200);
    expect((await call('POST', `/v1/sessions/${withdrawn.sessionId}/withdraw`, { body: {} })).json.state).toBe('withdrawn');
    expect((await call('GET', `/v1/sessions/${withdrawn.sessionId}`)).json.withdrawnAt).toEqual(expect.any(String));

    const waiting = (await call('POST', '/v1/sessions', { body: { interaction: sampleSurface('Not yet') } })).json;
    const early = await call('POST', `/v1/sessions/${waiting.sessionId}/complete`, {
      body: { response_event_id: 'evt_nothing' },
      headers: { 'if-match': '"1"' },
    });
    expect(early.json.error).toMatchObject({ code: 'INVALID_STATE', state: 'waiting', currentRevision: 1 });
    expect((await call('GET', `/v1/sessions/${waiting.sessionId}?revision=2`)).json.error).toMatchObject({
      code: 'REVISION_MISMATCH',
      currentRevision: 1,
    });

    const expiring = (await call('POST', '/v1/sessions', { body: { interaction: sampleSurface('Expiring'), expires_in: 30 } }))
      .json;
    expect(expiring).toMatchObject({ extendable: true, horizonAt: expect.any(String) });
    const fixed = (await call('POST', '/v1/sessions', { body: { interaction: sampleSurface('Fixed'), expires_in: 86_400 } }))
      .json;
    expect(fixed).toMatchObject({ extendable: false, horizonAt: null });
    clock.advance(8 * 86_400_000);
    expect((await call('GET', `/v1/sessions/${expiring.sessionId}`)).json.state).toBe('expired');
    expect((await call('GET', `/v1/sessions/${fixed.sessionId}`)).json.state).toBe('expired');
  });

  it('an Ask: create, a named respondent answers, read; another workspace gets 404', async () => {
    const body = sampleAskArguments({ max: 2, name: true });
    expect(CreateAskRequestSchema.safeParse(body).success).toBe(true);
    const created = await call('POST', '/v1/asks', { body });
    expect(created.status).toBe(201);
    const started = await startRespondent(runtime, tokenOf(created.json.humanUrl));
    recordSecret(started.respondentToken, 'link');
    const answered = await submitLinkAnswer(runtime, started.respondentToken, {
      revision: 1,
      submitted: { place: 'Beach', [RESPONDENT_NAME_FIELD]: 'Ana' },
    });
    expect(answered.ok).toBe(true);
    const read = await call('GET', `/v1/asks/${created.json.askId}`);
    expect(read.json).toMatchObject({
      state: 'waiting',
      counts: { started: 1, answered: 1, max: 2 },
      answers: [{ respondentName: 'Ana' }],
    });
    const unnamed = await call('POST', '/v1/asks', { body: sampleAskArguments({ max: 1 }) });
    const s2 = await startRespondent(runtime, tokenOf(unnamed.json.humanUrl));
    recordSecret(s2.respondentToken, 'link');
    await submitLinkAnswer(runtime, s2.respondentToken, { revision: 1, submitted: { place: 'City' } });
    expect((await call('GET', `/v1/asks/${unnamed.json.askId}`)).json).toMatchObject({ state: 'closed', open: false });
    expect((await call('GET', `/v1/sessions/${unnamed.json.askId}`)).json.error).toMatchObject({
      code: 'INVALID_STATE',
      kind: 'ask',
    });
    expect((await call('GET', `/v1/asks/${created.json.askId}`, { as: theirs })).status).toBe(404);
    expect((await call('POST', `/v1/sessions/${unnamed.json.askId}/withdraw`)).json).toMatchObject({ kind: 'ask' });
    expect((await call('GET', `/v1/asks/${unnamed.json.askId}`)).json.state).toBe('withdrawn');
  });

  it('lists by status and kind, page by page', async () => {
    const page = await call('GET', '/v1/sessions?status=waiting,answered,completed,expired,withdrawn,closed&limit=1');
    expect(page.json.nextCursor).toEqual(expect.any(String));
    const next = await call('GET', `/v1/sessions?limit=100&cursor=${page.json.nextCursor}`);
    expect(next.json.nextCursor).toBeNull();
    const statuses = new Set([...page.json.sessions, ...next.json.sessions].map((s: { status: string }) => s.status));
    for (const status of ['completed', 'expired', 'withdrawn', 'waiting']) expect(statuses).toContain(status);
    expect((await call('GET', '/v1/sessions?kind=ask')).json.sessions.length).toBeGreaterThan(0);
  });

  it('webhooks: register, list, test, deliveries, rotate, remove; a private address refused', async () => {
    const created = await call('POST', '/v1/webhooks', {
      body: { url: 'https://hooks.example.com/sess', eventTypes: ['answered'] },
    });
    expect(created.status).toBe(201);
    recordSecret(created.json.secret, 'response-secret');
    const id = created.json.id as string;
    expect((await call('GET', '/v1/webhooks')).json.webhooks).toHaveLength(1);
    expect((await call('POST', `/v1/webhooks/${id}/test`)).status).toBe(202);
    expect((await call('GET', `/v1/webhooks/${id}/deliveries`)).json.deliveries).toHaveLength(1);
    const rotated = await call('POST', `/v1/webhooks/${id}/rotate`);
    expect(rotated.status).toBe(200);
    recordSecret(rotated.json.secret, 'response-secret');
    expect((await call('DELETE', `/v1/webhooks/${id}`, { as: theirs })).status).toBe(404);
    expect((await call('DELETE', `/v1/webhooks/${id}`)).status).toBe(200);
    const refused = await call('POST', '/v1/webhooks', { body: { url: 'https://10.0.0.7/hook' } });
    expect([refused.status, refused.json.error.code, refused.json.error.field]).toEqual([400, 'WEBHOOK_URL_REFUSED', '/url']);
  });

  it('events: a timeline page by page, the export of the chain verifies; another workspace’s is not found', async () => {
    const created = (await call('POST', '/v1/sessions', { body: { interaction: sampleSurface('Timeline') } })).json;
    await answer(created.humanUrl, 1);
    const first = await call('GET', `/v1/sessions/${created.sessionId}/events?limit=1`);
    expect(first.json.events.map((e: { type: string }) => e.type)).toEqual(['created']);
    const rest = await call('GET', `/v1/sessions/${created.sessionId}/events?cursor=${first.json.nextCursor}`);
    expect(rest.json).toMatchObject({ events: [{ type: 'answered', revision: 1 }], nextCursor: null });
    expect((await call('GET', `/v1/sessions/${created.sessionId}/events`, { as: theirs })).status).toBe(404);
    expect((await call('GET', `/v1/sessions/${created.sessionId}/events?cursor=page2`)).json.error).toMatchObject({
      code: 'INVALID_ARGUMENTS',
      field: '/cursor',
    });
    expect((await call('GET', '/v1/sessions/ses_unknown/events')).status).toBe(404);

    await events.runOnce();
    const exported = await call('GET', '/v1/events?since=2000-01-01T00:00:00Z');
    expect(exported.headers.get('content-type')).toBe('application/x-ndjson');
    const lines = (exported.json as unknown[]).map((e) => JSON.stringify(e));
    expect(lines.length).toBeGreaterThan(2);
    expect(verifyEventChain(lines)).toMatchObject({ ok: true, firstSeq: 1 });
    expect(lines.join('\n')).not.toContain(created.humanUrl);
    const theirExport = await call('GET', '/v1/events?since=2000-01-01T00:00:00Z', { as: theirs });
    expect(theirExport.json).toEqual([]);
    expect((await call('GET', '/v1/events')).json.error).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/since' });
    expect((await call('GET', '/v1/events?since=yesterday')).json.error).toMatchObject({ field: '/since' });
    const resumed = await call('GET', `/v1/events?after=${lines.length - 1}`);
    expect((resumed.json as { seq: number }[]).map((e) => e.seq)).toEqual([lines.length]);
  });

  it('errors: 400, 401, 404, 409, 413, 415, 422, 428', async () => {
    expect((await call('GET', '/v1/sessions', { as: null })).status).toBe(401);
    expect((await call('GET', '/v1/sessions?colour=red')).status).toBe(400);
    expect((await call('GET', '/v1/sessions?status=lost')).status).toBe(400);
    const unknownField = { interaction: sampleSurface(), colour: 'red' };
    expect(CreateSessionRequestSchema.safeParse(unknownField).success).toBe(false);
    expect((await call('POST', '/v1/sessions', { body: unknownField })).status).toBe(400);
    expect((await call('POST', '/v1/sessions', { raw: 'x=1', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    expect((await call('POST', '/v1/sessions', { body: { interaction: sampleSurface(), pad: 'x'.repeat(70_000) } })).status).toBe(
      413,
    );
    expect(
      (await call('POST', '/v1/asks', { body: sampleAskArguments({ max: 1 }), headers: { 'idempotency-key': '' } })).status,
    ).toBe(428);
    const k = key();
    await call('POST', '/v1/asks', { body: sampleAskArguments({ max: 1 }), headers: { 'idempotency-key': k } });
    expect(
      (await call('POST', '/v1/asks', { body: sampleAskArguments({ max: 2 }), headers: { 'idempotency-key': k } })).status,
    ).toBe(409);
    expect((await call('GET', '/v1/sessions/ses_unknown')).status).toBe(404);
    expect((await call('GET', '/v1/asks/ask_unknown')).status).toBe(404);
    const ses = (await call('POST', '/v1/sessions', { body: { interaction: sampleSurface() } })).json;
    const body = { response_event_id: 'evt_x', interaction: sampleSurface() };
    expect((await call('POST', `/v1/sessions/${ses.sessionId}/publish`, { body })).status).toBe(428);
    expect((await call('POST', `/v1/sessions/${ses.sessionId}/publish`, { body, headers: { 'if-match': 'W/"1"' } })).status).toBe(
      400,
    );
    expect((await call('POST', `/v1/sessions/${ses.sessionId}/publish`, { body, headers: { 'if-match': '"3"' } })).status).toBe(
      409,
    );
    expect((await call('POST', '/v1/sessions/ses_unknown/publish', { body, headers: { 'if-match': '"1"' } })).status).toBe(404);
    expect((await call('POST', '/v1/sessions/ses_unknown/complete', { body: {}, headers: { 'if-match': '"1"' } })).status).toBe(
      400,
    );
    expect((await call('POST', '/v1/sessions/ses_unknown/withdraw')).status).toBe(404);

    const free = await createWorkspaceWithKey(database.db, { plan: 'free' });
    for (let i = 0; i < 100; i++) await createTestSession(runtime, free.workspaceId, { expiresIn: 3600 });
    const full = await call('POST', '/v1/sessions', { body: { interaction: sampleSurface() }, as: free });
    expect(full.json.error).toMatchObject({ code: 'PLAN_LIMIT_REACHED', limit: 100, plan: 'free' });
    expect((await call('POST', '/v1/asks', { body: sampleAskArguments({ max: 1 }), as: free })).status).toBe(422);
  });
});

describe('every recorded response', () => {
  let validators: (route: string, method: string, status: number) => ValidateFunction;

  beforeAll(async () => {
    const served = (await (await fetch(`${base}/v1/openapi.json`)).json()) as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content: Record<string, { schema: Record<string, unknown> }> }> }>
      >;
    };
    const ajv = addFormats(new Ajv2020({ strict: false }));
    ajv.addSchema({ $id: 'openapi', ...served });
    const compiled = new Map<string, ValidateFunction>();
    validators = (route, method, status) => {
      const id = `${method} ${route} ${status}`;
      let validate = compiled.get(id);
      if (!validate) {
        const content = served.paths[route]![method]!.responses[String(status)]!.content;
        const schema = Object.values(content)[0]!.schema;
        validate = ajv.compile(typeof schema.$ref === 'string' ? { $ref: `openapi${schema.$ref}` } : schema);
        compiled.set(id, validate);
      }
      return validate;
    };
  });

  it('parses with its route’s zod schema for its status, leaving nothing out', () => {
    expect(recorded.length).toBeGreaterThan(40);
    for (const r of recorded) {
      const route = findV1Route(r.method, r.path);
      expect(route, `${r.method} ${r.path}`).toBeDefined();
      const documented = route!.responses[r.status];
      expect([r.method, r.path, r.status, documented !== undefined]).toEqual([r.method, r.path, r.status, true]);
      const parsed = documented!.schema.safeParse(r.json);
      expect([r.method, r.path, r.status, parsed.error?.issues ?? []]).toEqual([r.method, r.path, r.status, []]);
      // z.object drops what it does not name: a parse that changes the body means a field is undocumented.
      expect(parsed.data).toEqual(r.json);
    }
  });

  it('validates against the served document’s JSON Schema for its route and status', () => {
    for (const r of recorded) {
      const route = findV1Route(r.method, r.path)!;
      const validate = validators(route.path, route.method, r.status);
      expect([r.method, r.path, r.status, validate(r.json), validate.errors ?? []]).toEqual([
        r.method,
        r.path,
        r.status,
        true,
        [],
      ]);
    }
  });

  it('carries the headers its route documents for that status', () => {
    const expected: Record<V1ResponseHeader, (r: Recorded) => unknown> = {
      ETag: (r) => /^"\d+"$/.test(r.headers.get('etag') ?? ''),
      Location: (r) => r.headers.get('location')?.startsWith('/v1/'),
      'Sess-Workspace-Id': (r) => /^ws_/.test(r.headers.get('sess-workspace-id') ?? ''),
      'Retry-After': (r) => /^\d+$/.test(r.headers.get('retry-after') ?? ''),
      'WWW-Authenticate': (r) => r.headers.get('www-authenticate') === 'Bearer realm="sess"',
      'Cache-Control': (r) => (r.headers.get('cache-control') ?? '') !== '',
    };
    for (const r of recorded) {
      const route = findV1Route(r.method, r.path)!;
      const response = route.responses[r.status]!;
      for (const header of response.headers) {
        expect([r.method, r.path, r.status, header, Boolean(expected[header](r))]).toEqual([
          r.method,
          r.path,
          r.status,
          header,
          true,
        ]);
      }
      expect(r.headers.get('x-request-id')).toEqual(expect.any(String));
      if (route.authenticated) {
        expect(r.headers.get('cache-control')).toBe('no-store');
        expect(r.headers.has('sess-workspace-id')).toBe(r.status !== 401);
      }
    }
  });

  it('covers every route’s success, and the error statuses the flows can reach', () => {
    const seen = new Set(recorded.map((r) => `${findV1Route(r.method, r.path)!.operationId} ${r.status}`));
    for (const route of V1_ROUTES) {
      const success = Object.keys(route.responses).find((status) => status.startsWith('2'))!;
      expect(seen).toContain(`${route.operationId} ${success}`);
    }
    for (const status of [400, 401, 404, 409, 413, 415, 422, 428]) {
      expect([...seen].some((entry) => entry.endsWith(` ${status}`))).toBe(true);
    }
  });
});
