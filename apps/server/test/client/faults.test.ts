/*
 * Failures the client classifies itself, made real: a loopback proxy in front of the real app
 * holds requests (deadlines, aborts) or lets the app answer and drops the connection (a write
 * whose outcome is lost), and tiny local servers answer what Sess never would (a body that does
 * not fit the contract, a redirect). No module of ours is mocked.
 */

import { createSessClient, type SessClient, SessClientError } from '@sess/client';
import { answerOnPage, type TestWorkspace } from '@sess/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FaultProxy, startFaultProxy, startFixedServer } from './support/fault-proxy.ts';
import { type ClientHarness, commitInteraction, recordLink, startClientHarness } from './support/harness.ts';

let h: ClientHarness;
let proxy: FaultProxy;
let mine: TestWorkspace;
/** The client through the proxy. */
let proxied: SessClient;
/** The same workspace's client straight to the app. */
let direct: SessClient;

beforeAll(async () => {
  h = await startClientHarness();
  proxy = await startFaultProxy(h.server.url);
  mine = await h.workspace();
  direct = h.client(mine);
  proxied = h.client(mine, { origin: proxy.url, timeoutMs: 5_000 });
});
afterAll(async () => {
  await proxy?.close();
  await h?.close();
});
beforeEach(() => {
  proxy.mode = 'pass';
});

async function failure(promise: Promise<unknown>): Promise<SessClientError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SessClientError) return error;
    throw error;
  }
  throw new Error('expected a SessClientError, but the call succeeded');
}

async function createOne(c: SessClient = direct) {
  const created = await c.sessions.create({ interaction: commitInteraction(), expires_in: 3600 });
  recordLink(created.data.humanUrl);
  return created.data;
}

describe('through the proxy, passing', () => {
  it('works like the app itself (the proxy changes nothing)', async () => {
    const created = await createOne(proxied);
    expect((await proxied.sessions.read(created.sessionId)).data.state).toBe('waiting');
  });
});

describe('deadlines', () => {
  it('a read that gets no answer within its deadline is timeout (retryable)', async () => {
    const { sessionId } = await createOne();
    proxy.mode = 'hold'; // the proxy never answers: only the deadline can end the read
    const error = await failure(proxied.sessions.read(sessionId, {}, { timeoutMs: 300 }));
    expect(error).toMatchObject({ kind: 'timeout', retryable: true, sent: true, operation: 'readSession' });
  });

  it("a held wait's deadline is its wait_ms plus the margin, then timeout", async () => {
    const { sessionId } = await createOne();
    proxy.mode = 'hold';
    const error = await failure(proxied.sessions.wait(sessionId, { waitMs: 200, timeoutMs: 200 }));
    expect(error).toMatchObject({ kind: 'timeout', operation: 'readSession' });
  });

  it('a write that gets no answer within its deadline is unknown_outcome with its idempotency key', async () => {
    proxy.mode = 'hold';
    const error = await failure(
      proxied.sessions.create({ interaction: commitInteraction() }, { timeoutMs: 300, idempotencyKey: 'held-create-1' }),
    );
    expect(error).toMatchObject({ kind: 'unknown_outcome', retryable: true, sent: true, idempotencyKey: 'held-create-1' });
  });
});

describe('a write whose answer is lost after it was sent', () => {
  it('is unknown_outcome with its idempotencyKey; the repeat with that key replays the one session', async () => {
    const own = await h.workspace();
    const through = h.client(own, { origin: proxy.url });
    const input = { interaction: commitInteraction('Lost answer?'), expires_in: 3600 };
    proxy.mode = 'drop-answer';
    const lost = await failure(through.sessions.create(input));
    expect(lost).toMatchObject({ kind: 'unknown_outcome', retryable: true, sent: true, operation: 'createSession' });
    expect(lost.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);

    // The app did create it.
    const straight = h.client(own);
    const listed = await straight.sessions.list();
    expect(listed.data.sessions).toHaveLength(1);

    proxy.mode = 'pass';
    const replay = await through.sessions.create(input, { idempotencyKey: lost.idempotencyKey });
    recordLink(replay.data.humanUrl);
    expect(replay.data.sessionId).toBe(listed.data.sessions[0]!.sessionId);
    expect(replay.idempotencyKey).toBe(lost.idempotencyKey);
    expect((await straight.sessions.list()).data.sessions).toHaveLength(1);
  });

  it('a lost complete repeats with its key and replays the completion', async () => {
    const created = await createOne();
    expect(await answerOnPage(created.humanUrl, {}, 'stop')).toBe(303);
    const answered = await direct.sessions.wait(created.sessionId, { waitMs: 10_000 });
    const input = { expected_revision: 1, response_event_id: answered.data.response!.eventId };
    proxy.mode = 'drop-answer';
    const lost = await failure(proxied.sessions.complete(created.sessionId, input));
    expect(lost).toMatchObject({ kind: 'unknown_outcome', operation: 'completeSession' });
    expect((await direct.sessions.read(created.sessionId)).data.state).toBe('completed');
    proxy.mode = 'pass';
    const replay = await proxied.sessions.complete(created.sessionId, input, { idempotencyKey: lost.idempotencyKey });
    expect(replay.data).toMatchObject({ sessionId: created.sessionId, state: 'completed', revision: 1 });
  });

  it('a lost read is transport (retryable), not unknown_outcome', async () => {
    const { sessionId } = await createOne();
    proxy.mode = 'drop-answer';
    expect(await failure(proxied.sessions.read(sessionId))).toMatchObject({ kind: 'transport', retryable: true, sent: true });
  });
});

describe('AbortSignal', () => {
  it('aborting a read in flight is aborted (not retryable)', async () => {
    const { sessionId } = await createOne();
    proxy.mode = 'hold';
    const controller = new AbortController();
    const arrived = proxy.nextRequest();
    const reading = failure(proxied.sessions.read(sessionId, {}, { signal: controller.signal }));
    await arrived;
    controller.abort();
    expect(await reading).toMatchObject({ kind: 'aborted', retryable: false, sent: true });
  });

  it('aborting a wait held by the app is aborted', async () => {
    const { sessionId } = await createOne();
    const controller = new AbortController();
    const arrived = proxy.nextRequest();
    const waiting = failure(proxied.sessions.wait(sessionId, { waitMs: 30_000, signal: controller.signal }));
    await arrived;
    controller.abort();
    expect(await waiting).toMatchObject({ kind: 'aborted' });
  });

  it('aborting a write in flight is aborted, with its idempotency key (it may have taken effect)', async () => {
    proxy.mode = 'hold';
    const controller = new AbortController();
    const arrived = proxy.nextRequest();
    const writing = failure(
      proxied.sessions.create({ interaction: commitInteraction() }, { signal: controller.signal, idempotencyKey: 'aborted-1' }),
    );
    await arrived;
    controller.abort();
    expect(await writing).toMatchObject({ kind: 'aborted', idempotencyKey: 'aborted-1', sent: true });
  });

  it('a signal aborted before the call sends nothing', async () => {
    const before = proxy.seen.length;
    const error = await failure(proxied.sessions.list({}, { signal: AbortSignal.abort() }));
    expect(error).toMatchObject({ kind: 'aborted', sent: false });
    expect(proxy.seen.length).toBe(before);
  });
});

describe('answers that are not Sess', () => {
  const client = (url: string) => createSessClient({ origin: url, apiKey: mine.apiKey, timeoutMs: 5_000 });

  it('a 200 whose body does not fit the contract is protocol', async () => {
    const server = await startFixedServer({
      status: 200,
      headers: { 'sess-workspace-id': mine.workspaceId },
      body: JSON.stringify({ sessionId: 'ses_x', state: 'maybe' }),
    });
    try {
      const error = await failure(client(server.url).sessions.read('ses_x'));
      expect(error).toMatchObject({ kind: 'protocol', retryable: false, status: 200 });
      const write = await failure(client(server.url).sessions.withdraw('ses_x'));
      expect(write).toMatchObject({ kind: 'protocol', sent: true });
      expect(write.message).toContain('accepted');
    } finally {
      await server.close();
    }
  });

  it('a 200 that is not JSON, or names no workspace, is protocol', async () => {
    for (const answer of [
      { status: 200, headers: { 'sess-workspace-id': mine.workspaceId }, body: '<html>hello</html>' },
      { status: 200, body: JSON.stringify({ sessions: [], nextCursor: null }) },
      {
        status: 200,
        headers: { 'sess-workspace-id': 'not-a-workspace' },
        body: JSON.stringify({ sessions: [], nextCursor: null }),
      },
    ]) {
      const server = await startFixedServer(answer);
      try {
        expect(await failure(client(server.url).sessions.list())).toMatchObject({ kind: 'protocol' });
      } finally {
        await server.close();
      }
    }
  });

  it('a server that names no workspace: VERIFICATION_CONTEXT_MISSING, unless expectedWorkspaceId says which', async () => {
    const server = await startFixedServer({ status: 200, body: JSON.stringify({ sessions: [], nextCursor: null }) });
    try {
      expect(await failure(client(server.url).sessions.list())).toMatchObject({
        kind: 'protocol',
        code: 'VERIFICATION_CONTEXT_MISSING',
      });
      const pinned = createSessClient({
        origin: server.url,
        apiKey: mine.apiKey,
        expectedWorkspaceId: mine.workspaceId,
      });
      expect((await pinned.sessions.list()).workspaceId).toBe(mine.workspaceId);
    } finally {
      await server.close();
    }
  });

  it('a workspace other than expectedWorkspaceId is configuration', async () => {
    const other = await h.workspace();
    const pinned = h.client(mine, { expectedWorkspaceId: other.workspaceId });
    expect(await failure(pinned.sessions.list())).toMatchObject({ kind: 'configuration', status: 200 });
  });

  it('a 4xx that is not a Sess error is protocol; a gateway 502 on a write is unknown_outcome', async () => {
    const notFound = await startFixedServer({ status: 404, headers: { 'content-type': 'text/html' }, body: '<h1>nope</h1>' });
    const gateway = await startFixedServer({ status: 502, headers: { 'content-type': 'text/html' }, body: 'Bad Gateway' });
    try {
      expect(await failure(client(notFound.url).sessions.read('ses_x'))).toMatchObject({ kind: 'protocol', status: 404 });
      const write = await failure(client(gateway.url).sessions.withdraw('ses_x', { idempotencyKey: 'gw-1' }));
      expect(write).toMatchObject({ kind: 'unknown_outcome', status: 502, idempotencyKey: 'gw-1' });
      expect(await failure(client(gateway.url).sessions.read('ses_x'))).toMatchObject({ kind: 'transport', status: 502 });
    } finally {
      await notFound.close();
      await gateway.close();
    }
  });

  it('a redirect is refused (configuration): the key never follows it', async () => {
    const target = await startFixedServer({ status: 200, body: '{}' });
    const redirecting = await startFixedServer({ status: 307, headers: { location: `${target.url}/v1/sessions` } });
    try {
      for (const call of [
        () => client(redirecting.url).sessions.list(),
        () => client(redirecting.url).sessions.withdraw('ses_x'),
      ]) {
        const error = await failure(call());
        expect(error).toMatchObject({ kind: 'configuration', status: 307, retryable: false });
      }
      expect(target.hits).toBe(0);
    } finally {
      await target.close();
      await redirecting.close();
    }
  });

  it('nothing listening is transport, not sent, even for a write', async () => {
    const gone = await startFixedServer({ status: 200 });
    const url = gone.url;
    await gone.close();
    const error = await failure(client(url).sessions.create({ interaction: commitInteraction() }));
    expect(error).toMatchObject({ kind: 'transport', sent: false, reason: 'ECONNREFUSED', retryable: true });
  });
});
