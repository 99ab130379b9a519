/*
 * Every /v1 method of the client against the real app: a full round (create, the person answers
 * on the page, wait, verify, publish, answer, complete), reads and lists, withdraw, Asks, and the
 * failures the server decides (bad input, stale If-Match, another workspace, a bad key).
 */

import { isSessClientError, type SessClient, SessClientError } from '@sess/client';
import { answerAskOnPage, answerOnPage, samplePushInteraction, type TestWorkspace } from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClientHarness, commitInteraction, recordLink, startClientHarness } from './support/harness.ts';

let h: ClientHarness;
let mine: TestWorkspace;
let client: SessClient;

beforeAll(async () => {
  h = await startClientHarness();
  mine = await h.workspace();
  client = h.client(mine);
});
afterAll(async () => {
  await h?.close();
});

/** The SessClientError a promise rejects with (fails the test if it resolves or throws anything else). */
async function failure(promise: Promise<unknown>): Promise<SessClientError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SessClientError) return error;
    throw error;
  }
  throw new Error('expected a SessClientError, but the call succeeded');
}

async function createOne(c: SessClient = client, title?: string) {
  const created = await c.sessions.create({ interaction: commitInteraction(title), expires_in: 3600 });
  recordLink(created.data.humanUrl);
  return created;
}

describe('a full round', () => {
  it('create → the person answers on the page → wait → verifyResponse → publish → answer → complete', async () => {
    const created = await createOne();
    expect(created.status).toBe(201);
    expect(created.workspaceId).toBe(mine.workspaceId);
    expect(created.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.data).toMatchObject({ kind: 'interaction', revision: 1, state: 'waiting' });
    expect(created.data.humanUrl.startsWith(`${h.server.url}/s/`)).toBe(true);
    const { sessionId, surfaceSha256 } = created.data;

    expect(await answerOnPage(created.data.humanUrl, { message: 'Greet users by their first name' }, 'approve')).toBe(303);
    const answered = await client.sessions.wait(sessionId, { waitMs: 10_000 });
    expect(answered.data).toMatchObject({ state: 'answered', revision: 1 });
    const response = answered.data.response!;
    expect(response).toMatchObject({ actionId: 'approve', values: { message: 'Greet users by their first name' } });

    const verified = await client.receipts.verifyResponse({
      response,
      sessionId,
      revision: 1,
      eventId: response.eventId,
      surfaceSha256,
      workspaceId: created.workspaceId,
    });
    expect(verified).toMatchObject({
      eventId: response.eventId,
      revision: 1,
      actionId: 'approve',
      values: { message: 'Greet users by their first name' },
      respondentId: undefined,
    });
    expect(verified.kid).toMatch(/^sk_/);
    expect(verified.claims).toMatchObject({ session_id: sessionId, workspace_id: mine.workspaceId });

    const published = await client.sessions.publish(sessionId, {
      expected_revision: 1,
      response_event_id: response.eventId,
      interaction: samplePushInteraction(),
    });
    expect(published.data).toMatchObject({ sessionId, revision: 2, state: 'waiting', response: null });
    expect(published.idempotencyKey).toBeTruthy();

    // The same link now shows the follow-up.
    expect(await answerOnPage(created.data.humanUrl, {}, 'push')).toBe(303);
    const second = await client.sessions.wait(sessionId, { revision: 2, waitMs: 10_000 });
    expect(second.data).toMatchObject({ state: 'answered', revision: 2, response: { actionId: 'push', revision: 2 } });
    const secondVerified = await client.receipts.verifyResponse({
      response: second.data.response!,
      sessionId,
      revision: 2,
      surfaceSha256: published.data.surfaceSha256,
      workspaceId: published.workspaceId,
    });
    expect(secondVerified.actionId).toBe('push');

    const completed = await client.sessions.complete(sessionId, {
      expected_revision: 2,
      response_event_id: second.data.response!.eventId,
    });
    expect(completed.data).toMatchObject({ sessionId, revision: 2, state: 'completed' });
    expect((await client.sessions.read(sessionId)).data.state).toBe('completed');
    // Revision 1 keeps its own answer.
    expect((await client.sessions.read(sessionId, { revision: 1 })).data.response?.eventId).toBe(response.eventId);
  });
});

describe('sessions.read and sessions.wait', () => {
  it('reads a waiting session at once, and a read with wait_ms returns still waiting when nothing happens', async () => {
    const { data } = await createOne();
    const read = await client.sessions.read(data.sessionId);
    expect(read).toMatchObject({ status: 200, workspaceId: mine.workspaceId });
    expect(read.data).toMatchObject({ sessionId: data.sessionId, state: 'waiting', revision: 1, response: null });
    expect(read.requestId).toBeTruthy();
    const held = await client.sessions.read(data.sessionId, { wait_ms: 200 });
    expect(held.data.state).toBe('waiting');
  });

  it('wait returns as soon as the person answers, and returns waiting when its time is up', async () => {
    const { data } = await createOne();
    const idle = await client.sessions.wait(data.sessionId, { waitMs: 300 });
    expect(idle.data.state).toBe('waiting');
    const waiting = client.sessions.wait(data.sessionId, { waitMs: 20_000 });
    expect(await answerOnPage(data.humanUrl, {}, 'stop')).toBe(303);
    expect((await waiting).data).toMatchObject({ state: 'answered', response: { actionId: 'stop' } });
  });

  it('refuses a bad wait_ms or revision before sending', async () => {
    for (const query of [{ wait_ms: 45_001 }, { wait_ms: -1 }, { wait_ms: 1.5 }, { revision: 0 }]) {
      expect(await failure(client.sessions.read('ses_whatever', query))).toMatchObject({ kind: 'configuration', sent: false });
    }
    expect(await failure(client.sessions.read(''))).toMatchObject({ kind: 'configuration' });
    expect(await failure(client.sessions.wait('ses_whatever', { waitMs: -5 }))).toMatchObject({ kind: 'configuration' });
  });
});

describe('sessions.list', () => {
  it('lists the workspace’s sessions newest first, filtered by status and kind, a page at a time', async () => {
    const own = await h.workspace();
    const c = h.client(own);
    const first = await createOne(c, 'First question?');
    h.server.clock.advance(1_000); // newest first needs two different creation times
    const second = await createOne(c, 'Second question?');
    await c.sessions.withdraw(first.data.sessionId);

    const all = await c.sessions.list();
    expect(all.data.sessions.map((s) => s.sessionId)).toEqual([second.data.sessionId, first.data.sessionId]);
    expect(all.data.sessions[0]).toMatchObject({ kind: 'interaction', status: 'waiting', title: 'Second question?' });
    expect(all.data.nextCursor).toBeNull();

    const withdrawn = await c.sessions.list({ status: ['withdrawn'] });
    expect(withdrawn.data.sessions.map((s) => s.sessionId)).toEqual([first.data.sessionId]);
    expect((await c.sessions.list({ kind: 'ask' })).data.sessions).toEqual([]);

    const page = await c.sessions.list({ limit: 1 });
    expect(page.data.sessions.map((s) => s.sessionId)).toEqual([second.data.sessionId]);
    const next = await c.sessions.list({ limit: 1, cursor: page.data.nextCursor! });
    expect(next.data.sessions.map((s) => s.sessionId)).toEqual([first.data.sessionId]);
  });
});

describe('sessions.withdraw', () => {
  it('withdraws, idempotently: the page says so and the session reads withdrawn', async () => {
    const { data } = await createOne();
    const withdrawn = await client.sessions.withdraw(data.sessionId);
    expect(withdrawn.data).toMatchObject({ sessionId: data.sessionId, kind: 'interaction', state: 'withdrawn', revision: 1 });
    const again = await client.sessions.withdraw(data.sessionId);
    expect(again.data.withdrawnAt).toBe(withdrawn.data.withdrawnAt);
    expect((await client.sessions.read(data.sessionId)).data.state).toBe('withdrawn');
    expect(await (await fetch(data.humanUrl)).text()).toContain('The question was withdrawn');
  });
});

describe('idempotency', () => {
  it('a repeat with the same key replays the first result: one session, the same link', async () => {
    const own = await h.workspace();
    const c = h.client(own);
    const input = { interaction: commitInteraction('Only once?'), expires_in: 3600 };
    const first = await c.sessions.create(input, { idempotencyKey: 'order-42-create' });
    recordLink(first.data.humanUrl);
    const replay = await c.sessions.create(input, { idempotencyKey: 'order-42-create' });
    expect(replay.idempotencyKey).toBe('order-42-create');
    expect(replay.data).toEqual(first.data);
    expect((await c.sessions.list()).data.sessions).toHaveLength(1);
  });

  it('the same key with another body is api IDEMPOTENCY_KEY_REUSED', async () => {
    const key = crypto.randomUUID();
    const first = await client.sessions.create({ interaction: commitInteraction('One?') }, { idempotencyKey: key });
    recordLink(first.data.humanUrl);
    const error = await failure(client.sessions.create({ interaction: commitInteraction('Another?') }, { idempotencyKey: key }));
    expect(error).toMatchObject({ kind: 'api', code: 'IDEMPOTENCY_KEY_REUSED', status: 409, idempotencyKey: key, sent: true });
  });

  it('refuses a key that is not visible ASCII before sending', async () => {
    const error = await failure(client.sessions.create({ interaction: commitInteraction() }, { idempotencyKey: 'a key' }));
    expect(error).toMatchObject({ kind: 'configuration', sent: false });
  });
});

describe('If-Match', () => {
  it('a stale expected_revision is api REVISION_MISMATCH with currentRevision', async () => {
    const { data } = await createOne();
    expect(await answerOnPage(data.humanUrl, { message: 'Ship it' }, 'approve')).toBe(303);
    const answered = await client.sessions.wait(data.sessionId, { waitMs: 10_000 });
    const eventId = answered.data.response!.eventId;
    await client.sessions.publish(data.sessionId, {
      expected_revision: 1,
      response_event_id: eventId,
      interaction: samplePushInteraction(),
    });
    const error = await failure(client.sessions.complete(data.sessionId, { expected_revision: 1, response_event_id: eventId }));
    expect(error).toMatchObject({ kind: 'api', code: 'REVISION_MISMATCH', currentRevision: 2, status: 409, retryable: false });
    expect(error.idempotencyKey).toBeTruthy();
  });

  it('refuses an expected_revision that is not a whole number from 1 before sending', async () => {
    for (const expected_revision of [0, 1.5, Number.NaN]) {
      const error = await failure(client.sessions.complete('ses_whatever', { expected_revision, response_event_id: 'evt_x' }));
      expect(error).toMatchObject({ kind: 'configuration', sent: false });
    }
  });
});

describe('bad input', () => {
  it('a title over its limit is api INVALID_ARGUMENTS with field, limit and length', async () => {
    const error = await failure(client.sessions.create({ interaction: commitInteraction('x'.repeat(90)) }));
    expect(error).toMatchObject({
      kind: 'api',
      code: 'INVALID_ARGUMENTS',
      status: 400,
      field: '/interaction/title',
      limit: 80,
      length: 90,
      retryable: false,
    });
  });

  it('an unknown property is api INVALID_ARGUMENTS at its pointer', async () => {
    const error = await failure(
      client.sessions.create({ interaction: commitInteraction(), surprise: true } as unknown as Parameters<
        SessClient['sessions']['create']
      >[0]),
    );
    expect(error).toMatchObject({ kind: 'api', code: 'INVALID_ARGUMENTS' });
    expect(error.field).toBeTruthy();
  });
});

describe('another workspace', () => {
  it("cannot read, wait on, publish, complete or withdraw this workspace's session: api NOT_FOUND", async () => {
    const { data } = await createOne();
    const theirs = h.client(await h.workspace());
    const calls = [
      () => theirs.sessions.read(data.sessionId),
      () => theirs.sessions.wait(data.sessionId, { waitMs: 100 }),
      () =>
        theirs.sessions.publish(data.sessionId, {
          expected_revision: 1,
          response_event_id: 'evt_x',
          interaction: samplePushInteraction(),
        }),
      () => theirs.sessions.complete(data.sessionId, { expected_revision: 1, response_event_id: 'evt_x' }),
      () => theirs.sessions.withdraw(data.sessionId),
      () => theirs.asks.read(data.sessionId),
    ];
    for (const call of calls) {
      expect(await failure(call())).toMatchObject({ kind: 'api', code: 'NOT_FOUND', status: 404 });
    }
    expect((await theirs.sessions.list()).data.sessions).toEqual([]);
    expect((await client.sessions.read(data.sessionId)).data.state).toBe('waiting');
  });
});

describe('credentials', () => {
  it('a key the server does not know is configuration (401), for reads and writes alike', async () => {
    const bad = h.client(mine, { apiKey: `sess_${'A'.repeat(43)}` });
    for (const call of [() => bad.sessions.list(), () => bad.sessions.create({ interaction: commitInteraction() })]) {
      const error = await failure(call());
      expect(error).toMatchObject({ kind: 'configuration', status: 401, code: 'UNAUTHORIZED', retryable: false });
      expect(isSessClientError(error, 'configuration')).toBe(true);
    }
  });

  it('a credential provider is called per request; its failure is configuration and nothing is sent', async () => {
    let calls = 0;
    const viaProvider = h.client(mine, {
      apiKey: undefined,
      credential: async () => {
        calls += 1;
        return mine.apiKey;
      },
    });
    await viaProvider.sessions.list();
    await viaProvider.sessions.list();
    expect(calls).toBe(2);
    const failing = h.client(mine, {
      apiKey: undefined,
      credential: async () => {
        throw new Error('vault sealed');
      },
    });
    expect(await failure(failing.sessions.list())).toMatchObject({ kind: 'configuration', sent: false });
  });
});

describe('Asks', () => {
  const askInput = (max: number) => ({
    question: 'Where should we go on Saturday?',
    fields: [{ name: 'place', label: 'Where to?', type: 'choice' as const, options: ['Beach', 'Mountains', 'City'] }],
    submit_label: 'Plan it',
    respondents: { max },
  });

  it('create → people answer on the shared link → read with verified answers → withdraw', async () => {
    const created = await client.asks.create(askInput(3));
    recordLink(created.data.humanUrl);
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ kind: 'ask', state: 'waiting', revision: 1 });
    const { askId, sessionId, surfaceSha256 } = created.data;

    expect(await answerAskOnPage(created.data.humanUrl, { place: 'Beach' })).toBe(303);
    expect(await answerAskOnPage(created.data.humanUrl, { place: 'City' })).toBe(303);
    const read = await client.asks.read(askId);
    expect(read.data).toMatchObject({ askId, kind: 'ask', state: 'waiting', open: true, counts: { answered: 2, max: 3 } });
    // Both answers carry the same time (the app's clock only moves when a test moves it), so no order.
    expect(read.data.answers.map((a) => a.values.place).sort()).toEqual(['Beach', 'City']);
    for (const answer of read.data.answers) {
      const verified = await client.receipts.verifyResponse({
        response: answer,
        sessionId,
        revision: 1,
        surfaceSha256,
        workspaceId: read.workspaceId,
      });
      expect(verified.respondentId).toBe(answer.respondentId);
      expect(verified.respondentId).toMatch(/^rsp_/);
    }

    const listed = await client.sessions.list({ kind: 'ask' });
    expect(listed.data.sessions.some((s) => s.sessionId === askId || s.sessionId === sessionId)).toBe(true);

    const withdrawn = await client.asks.withdraw(askId);
    expect(withdrawn.data).toMatchObject({ kind: 'ask', state: 'withdrawn' });
    expect((await client.asks.read(askId)).data).toMatchObject({ state: 'withdrawn', open: false });
  });

  it('an Ask without respondents is api INVALID_ARGUMENTS; an unknown Ask is api NOT_FOUND', async () => {
    const { respondents: _, ...noRespondents } = askInput(2);
    const error = await failure(client.asks.create(noRespondents as unknown as Parameters<SessClient['asks']['create']>[0]));
    expect(error).toMatchObject({ kind: 'api', code: 'INVALID_ARGUMENTS' });
    expect(await failure(client.asks.read('ask_aaaaaaaaaaaaaaaaaaaaaaaaaa'))).toMatchObject({ kind: 'api', code: 'NOT_FOUND' });
  });
});
