/*
 * receipts.verifyResponse against the real app's receipts and JWKS: a valid answer, tampered
 * values and receipts, the wrong session, revision, event, Surface, workspace or issuer, and a
 * key rotation right after the client fetched the key set (the answer signed with the new key
 * verifies at once, with no wait for the key-set cooldown).
 */

import { type AnswerView, type SessClient, SessClientError, type VerifyResponseInput } from '@sess/client';
import { rotateSigningKeys } from '@sess/forms';
import { hashAnswer } from '@sess/surface';
import { answerOnPage, TEST_SECRET, type TestWorkspace } from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixedServer } from './support/fault-proxy.ts';
import { type ClientHarness, commitInteraction, recordLink, startClientHarness } from './support/harness.ts';

let h: ClientHarness;
let mine: TestWorkspace;
let client: SessClient;
/** Requests the client made for the key set. */
let jwksFetches = 0;
/** A genuine, verified answer and what the agent knows about it. */
let genuine: VerifyResponseInput & { response: AnswerView };

/** The client's fetch: the real one, counting key-set requests. */
const countingFetch: typeof fetch = (input, init) => {
  if (String(input instanceof Request ? input.url : input).endsWith('/.well-known/jwks.json')) jwksFetches += 1;
  return fetch(input, init);
};

async function answeredSession(c: SessClient, message: string) {
  const created = await c.sessions.create({ interaction: commitInteraction(), expires_in: 3600 });
  recordLink(created.data.humanUrl);
  expect(await answerOnPage(created.data.humanUrl, { message }, 'approve')).toBe(303);
  const read = await c.sessions.wait(created.data.sessionId, { waitMs: 10_000 });
  expect(read.data.state).toBe('answered');
  return {
    response: read.data.response!,
    sessionId: created.data.sessionId,
    revision: 1,
    eventId: read.data.response!.eventId,
    surfaceSha256: created.data.surfaceSha256,
    workspaceId: created.workspaceId,
  };
}

beforeAll(async () => {
  h = await startClientHarness();
  mine = await h.workspace();
  // A cooldown far longer than the test: were an unknown kid held to it, the rotation test would fail.
  client = h.client(mine, { fetch: countingFetch, keySet: { cooldownMs: 600_000 } });
  genuine = await answeredSession(client, 'A genuine answer');
});
afterAll(async () => {
  await h?.close();
});

async function refusal(input: VerifyResponseInput, c: SessClient = client): Promise<SessClientError> {
  try {
    await c.receipts.verifyResponse(input);
  } catch (error) {
    if (error instanceof SessClientError) return error;
    throw error;
  }
  throw new Error('the answer verified');
}

describe('a genuine answer', () => {
  it('verifies for exactly its session, revision, event, Surface and workspace', async () => {
    const verified = await client.receipts.verifyResponse(genuine);
    expect(verified).toMatchObject({
      eventId: genuine.eventId,
      revision: 1,
      actionId: 'approve',
      values: { message: 'A genuine answer' },
    });
    expect(verified.claims).toMatchObject({ session_id: genuine.sessionId, workspace_id: mine.workspaceId, revision: 1 });
    // Answered on the page: the answer and its receipt say link, and name no principal.
    expect(genuine.response.via).toBe('link');
    expect(verified.via).toBe('link');
    expect('viaPrincipalId' in verified).toBe(false);
    // eventId may be left out: the answer's own is used.
    expect((await client.receipts.verifyResponse({ ...genuine, eventId: undefined })).eventId).toBe(genuine.eventId);
  });
});

describe('refused: protocol VERIFICATION_FAILED, not retryable', () => {
  const tampered = () => structuredClone(genuine);

  it.each<[string, () => VerifyResponseInput, string]>([
    [
      'values changed',
      () => {
        const input = tampered();
        input.response.values = { message: 'Something else' };
        return input;
      },
      'ANSWER_MISMATCH',
    ],
    [
      'values changed with a matching answerSha256',
      () => {
        const input = tampered();
        input.response.values = { message: 'Something else' };
        input.response.answerSha256 = hashAnswer({ actionId: input.response.actionId, values: input.response.values });
        return input;
      },
      'ANSWER_MISMATCH',
    ],
    [
      'another button',
      () => {
        const input = tampered();
        input.response.actionId = 'stop';
        input.response.answerSha256 = hashAnswer({ actionId: 'stop', values: input.response.values });
        return input;
      },
      'ANSWER_MISMATCH',
    ],
    [
      'a receipt signature changed',
      () => {
        const input = tampered();
        const [header, payload, signature] = input.response.receipt.split('.') as [string, string, string];
        const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
        input.response.receipt = `${header}.${payload}.${flipped}`;
        return input;
      },
      'BAD_SIGNATURE',
    ],
    ['another session', () => ({ ...tampered(), sessionId: 'ses_aaaaaaaaaaaaaaaaaaaaaaaaaa' }), 'SESSION_MISMATCH'],
    ['another revision', () => ({ ...tampered(), revision: 2 }), 'REVISION_MISMATCH'],
    ['another event', () => ({ ...tampered(), eventId: 'evt_aaaaaaaaaaaaaaaaaaaaaaaaaa' }), 'EVENT_MISMATCH'],
    ['another Surface', () => ({ ...tampered(), surfaceSha256: 'a'.repeat(64) }), 'SURFACE_MISMATCH'],
    [
      'another Surface claimed by the answer too',
      () => {
        const input = tampered();
        input.response.surfaceSha256 = 'b'.repeat(64);
        return { ...input, surfaceSha256: 'b'.repeat(64) };
      },
      'SURFACE_MISMATCH',
    ],
    ['another workspace', () => ({ ...tampered(), workspaceId: 'ws_aaaaaaaaaaaaaaaaaaaaaaaaaa' }), 'WORKSPACE_MISMATCH'],
    [
      'a respondent on an interaction',
      () => ({ ...tampered(), respondentId: 'rsp_aaaaaaaaaaaaaaaaaaaaaaaaaa' }),
      'RESPONDENT_MISMATCH',
    ],
    [
      'a link answer that says it came through the chat',
      () => {
        const input = tampered();
        input.response.via = 'chat';
        input.response.viaPrincipalId = 'usr_ffffffffffffffffffffffffff';
        return input;
      },
      'VIA_MISMATCH',
    ],
    [
      'a response with a way of neither kind',
      () => {
        const input = tampered();
        (input.response as { via: string }).via = 'sms';
        return input;
      },
      'MALFORMED',
    ],
    [
      'a response that is not an answer',
      () => ({ ...tampered(), response: { receipt: 'x' } as unknown as AnswerView }),
      'MALFORMED',
    ],
  ])('%s', async (_name, make, reason) => {
    const error = await refusal(make());
    expect(error).toMatchObject({ kind: 'protocol', code: 'VERIFICATION_FAILED', reason, retryable: false });
  });

  it('another issuer', async () => {
    const elsewhere = h.client(mine, { receiptIssuer: 'https://sess.example.com' });
    expect(await refusal(genuine, elsewhere)).toMatchObject({ kind: 'protocol', reason: 'ISSUER_MISMATCH' });
  });
});

describe('not refused', () => {
  it('a key set that cannot be fetched is transport (retryable): verify again later', async () => {
    const broken = await startFixedServer({ status: 500, body: 'boom' });
    try {
      const c = h.client(mine, { origin: broken.url, receiptIssuer: h.server.url });
      const error = await refusal(genuine, c);
      expect(error).toMatchObject({ kind: 'transport', reason: 'KEY_SET_UNAVAILABLE', retryable: true });
    } finally {
      await broken.close();
    }
  });

  it('missing facts the agent must know are configuration', async () => {
    for (const input of [
      { ...genuine, sessionId: '' },
      { ...genuine, surfaceSha256: undefined as unknown as string },
      { ...genuine, workspaceId: '' },
      { ...genuine, revision: 0 },
    ]) {
      expect(await refusal(input)).toMatchObject({ kind: 'configuration' });
    }
  });
});

describe('key rotation', () => {
  it('an answer signed with a key rotated in right after the client fetched the JWKS verifies at once', async () => {
    // The client has the key set (the genuine answer verified above) and has fetched it once.
    const first = await client.receipts.verifyResponse(genuine);
    const fetchesBefore = jwksFetches;
    expect(fetchesBefore).toBe(1);

    // `sess keys rotate`: a new active key; the server's ring reloads on the notification.
    const rotated = await rotateSigningKeys(h.server.database.db, { secret: TEST_SECRET, now: new Date() });
    expect(rotated.previousKid).toBe(first.kid);
    await expect
      .poll(
        async () =>
          ((await (await fetch(`${h.server.url}/.well-known/jwks.json`)).json()) as { keys: Array<{ kid: string }> }).keys[0]
            ?.kid,
        { timeout: 5_000, interval: 20 },
      )
      .toBe(rotated.kid);

    const fresh = await answeredSession(client, 'Signed with the new key');
    const verified = await client.receipts.verifyResponse(fresh);
    expect(verified.kid).toBe(rotated.kid);
    expect(verified.values).toEqual({ message: 'Signed with the new key' });
    // One refetch for the unknown kid, well inside the cooldown; the old key's answer still verifies from the cache.
    expect(jwksFetches).toBe(fetchesBefore + 1);
    expect((await client.receipts.verifyResponse(genuine)).kid).toBe(first.kid);
    expect(jwksFetches).toBe(fetchesBefore + 1);
  });
});
