import type { AnswerView, SessionView } from '@sess/contract';
import { SessError } from '@sess/core';
import { createSigningKeyRing, generateSigningKey, type SigningKeyRing, signReceipt } from '@sess/receipts';
import { hashAnswer } from '@sess/surface';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ToolCall } from '../call.ts';
import type { HandlePatch, HandleRecord, HandleStore } from '../ports/handle-store.ts';
import type { InWorkspace, SessBackend } from '../ports/sess-backend.ts';
import { readResponse } from './read-response.ts';

/*
 * The wake path of sess_response, on fakes: the confirming read runs beside the receipt check,
 * and nothing is saved or released until both have settled.
 */

const ISSUER = 'https://sess.example';
const WORKSPACE = 'ws_aaaaaaaaaaaaaaaaaaaaaaaaaa';
const SURFACE_SHA = 'a'.repeat(64);
const BINDING = {
  origin: ISSUER,
  workspaceId: WORKSPACE,
  principalId: 'prn_a',
  clientId: 'cli_a',
  grantId: 'grt_a',
  grantGeneration: 1,
};
let ring: SigningKeyRing;

beforeAll(async () => {
  ring = await createSigningKeyRing({ active: await generateSigningKey() });
});

function sessionIdOf(n: number): string {
  return `ses_${String(n).padStart(26, 'b')}`;
}

interface AnswerOverrides {
  sessionId?: string;
  /** The way the receipt signs (default: the signer's, link). */
  signed?:
    | { via?: 'link'; assurance?: 'account'; respondent?: string }
    | { via: 'chat'; viaPrincipalId: string; assurance?: 'account'; respondent?: string };
  /** The way (and level) the backend's view says (default: none, as from a server before `via`). */
  said?: Pick<AnswerView, 'via' | 'viaPrincipalId' | 'assurance' | 'respondent'>;
}

async function answerFor(n: number, overrides: AnswerOverrides = {}): Promise<AnswerView> {
  const values = { message: `answer ${n}` };
  const eventId = `evt_${String(n).padStart(26, 'c')}`;
  const answerSha256 = hashAnswer({ actionId: 'approve', values } as Parameters<typeof hashAnswer>[0]);
  const receipt = await signReceipt(ring.signer, {
    issuer: ISSUER,
    workspaceId: WORKSPACE,
    sessionId: overrides.sessionId ?? sessionIdOf(n),
    revision: 1,
    eventId,
    surfaceSha256: SURFACE_SHA,
    answerSha256,
    ...overrides.signed,
  });
  return {
    eventId,
    revision: 1,
    actionId: 'approve',
    values,
    receipt,
    answeredAt: '2026-03-01T12:00:00.000Z',
    surfaceSha256: SURFACE_SHA,
    answerSha256,
    ...overrides.said,
  };
}

function record(n: number): HandleRecord {
  return {
    ...BINDING,
    handle: `hdl_${'a'.repeat(25)}${String.fromCharCode(97 + n)}`,
    kind: 'interaction',
    state: 'waiting',
    version: 1,
    sessionId: sessionIdOf(n),
    revision: 1,
    surfaceSha256: SURFACE_SHA,
    title: 'Approve?',
    createdAt: '2026-03-01T12:00:00.000Z',
    updatedAt: '2026-03-01T12:00:00.000Z',
  };
}

function memoryStore(records: HandleRecord[]): HandleStore & { records: Map<string, HandleRecord> } {
  const map = new Map(records.map((r) => [r.handle, r]));
  return {
    binding: BINDING,
    records: map,
    async get(handle) {
      return map.get(handle);
    },
    async update(handle, expectedVersion, patch: HandlePatch) {
      const current = map.get(handle);
      if (!current || current.version !== expectedVersion) return undefined;
      const next: HandleRecord = { ...current, version: current.version + 1 };
      if (patch.state) next.state = patch.state;
      if (patch.blockedReason !== undefined) next.blockedReason = patch.blockedReason ?? undefined;
      if (patch.sealed?.response) next.response = patch.sealed.response;
      map.set(handle, next);
      return next;
    },
  } as HandleStore & { records: Map<string, HandleRecord> };
}

/** A backend whose reads answer from `views` (per session: the waiting read, then the confirming reads). */
function fakeBackend(reads: (sessionId: string, nth: number) => Promise<InWorkspace<SessionView>>): SessBackend {
  const counts = new Map<string, number>();
  return {
    origin: ISSUER,
    async readSession(_ctx: unknown, input: { sessionId: string }) {
      const nth = (counts.get(input.sessionId) ?? 0) + 1;
      counts.set(input.sessionId, nth);
      return reads(input.sessionId, nth);
    },
  } as unknown as SessBackend;
}

/** A /v1 view of the session as the runtime reads it, with the workspace it named. */
function view(sessionId: string, answer?: AnswerView): InWorkspace<SessionView> {
  return {
    sessionId,
    workspaceId: WORKSPACE,
    kind: 'interaction',
    state: answer ? 'answered' : 'waiting',
    revision: 1,
    createdAt: '2026-03-01T11:00:00.000Z',
    expiresAt: '2026-03-02T12:00:00.000Z',
    deadlineAt: '2026-03-02T12:00:00.000Z',
    horizonAt: null,
    extendable: false,
    surfaceSha256: SURFACE_SHA,
    completedAt: null,
    withdrawnAt: null,
    response: answer ?? null,
  };
}

function callWith(backend: SessBackend, store: HandleStore): ToolCall {
  const principal = { ...BINDING, scopes: [] };
  return {
    deps: { backend, receipts: { keys: ring.keySet, issuer: ISSUER }, now: () => new Date(), maxWaitMs: 1000 },
    scope: { principal, binding: BINDING, store, deadline: new AbortController().signal },
    signal: new AbortController().signal,
  };
}

describe('sess_response wake path', () => {
  it('many concurrent waits each return exactly their own verified answer, saved to their own handle', async () => {
    const n = 20;
    const records = Array.from({ length: n }, (_, i) => record(i));
    const answers = await Promise.all(records.map((_, i) => answerFor(i)));
    const store = memoryStore(records);
    // Reads resolve out of order (a later handle after fewer turns of the event loop), so the
    // confirming reads and checks interleave.
    const backend = fakeBackend(async (sessionId) => {
      const i = records.findIndex((r) => r.sessionId === sessionId);
      for (let turn = 0; turn < (n - i) % 7; turn++) await new Promise(setImmediate);
      return view(sessionId, answers[i]);
    });
    const results = await Promise.all(
      records.map((r) => readResponse(callWith(backend, store), { handle: r.handle, revision: 1, wait_ms: 1000 })),
    );
    results.forEach((result, i) => {
      expect(result.state).toBe('answered');
      expect(result.response).toMatchObject({ eventId: answers[i]!.eventId, values: { message: `answer ${i}` }, verified: true });
      expect(store.records.get(records[i]!.handle)).toMatchObject({
        state: 'answered',
        response: { eventId: answers[i]!.eventId },
      });
    });
  });

  it('a failed confirming read releases nothing and saves nothing (SESS_UNAVAILABLE)', async () => {
    const r = record(0);
    const answer = await answerFor(0);
    const store = memoryStore([r]);
    const backend = fakeBackend(async (sessionId, nth) => {
      if (nth === 2) throw new SessError('SESS_UNAVAILABLE', 'down');
      return view(sessionId, answer);
    });
    await expect(readResponse(callWith(backend, store), { handle: r.handle, revision: 1 })).rejects.toMatchObject({
      code: 'SESS_UNAVAILABLE',
    });
    expect(store.records.get(r.handle)).toMatchObject({ state: 'waiting', version: 1 });
  });

  it('a session that moved on by the confirming read blocks the handle (moved_on)', async () => {
    const r = record(0);
    const answer = await answerFor(0);
    const store = memoryStore([r]);
    const backend = fakeBackend(async (sessionId, nth) =>
      nth === 2 ? { ...view(sessionId), revision: 2 } : view(sessionId, answer),
    );
    await expect(readResponse(callWith(backend, store), { handle: r.handle, revision: 1 })).rejects.toMatchObject({
      code: 'RECOVERY_BLOCKED',
      details: { reason: 'moved_on' },
    });
    expect(store.records.get(r.handle)).toMatchObject({ state: 'blocked', blockedReason: 'moved_on' });
  });

  it('a receipt that does not verify wins over a confirming read that fails: blocked as verification_failed', async () => {
    const r = record(0);
    // Signed for another session: the signature is good, the claims are not this handle's.
    const answer = await answerFor(0, { sessionId: sessionIdOf(9) });
    const store = memoryStore([r]);
    const backend = fakeBackend(async (sessionId, nth) => {
      if (nth === 2) throw new SessError('SESS_UNAVAILABLE', 'down');
      return view(sessionId, answer);
    });
    await expect(readResponse(callWith(backend, store), { handle: r.handle, revision: 1 })).rejects.toMatchObject({
      code: 'VERIFICATION_FAILED',
    });
    expect(store.records.get(r.handle)).toMatchObject({ state: 'blocked', blockedReason: 'verification_failed' });
  });
});

describe('which way the answer came (via)', () => {
  const PRINCIPAL = 'usr_ffffffffffffffffffffffffff';
  const chat = { via: 'chat', viaPrincipalId: PRINCIPAL } as const;

  it('a chat answer is released with via chat and its principal, from the verified receipt, and again from the saved answer', async () => {
    const r = record(0);
    const answer = await answerFor(0, { signed: chat, said: chat });
    const store = memoryStore([r]);
    const backend = fakeBackend(async (sessionId) => view(sessionId, answer));
    const first = await readResponse(callWith(backend, store), { handle: r.handle, revision: 1 });
    expect(first.response).toMatchObject({ eventId: answer.eventId, verified: true, via: 'chat', viaPrincipalId: PRINCIPAL });
    expect(store.records.get(r.handle)?.response).toMatchObject({ via: 'chat', viaPrincipalId: PRINCIPAL });
    const again = await readResponse(callWith(backend, store), { handle: r.handle, revision: 1 });
    expect(again.response).toEqual(first.response);
  });

  it('a link answer says link and names no principal; so does one from a server that does not say', async () => {
    for (const said of [{ via: 'link' } as const, undefined]) {
      const r = record(0);
      const answer = await answerFor(0, said ? { said } : {});
      const store = memoryStore([r]);
      const result = await readResponse(
        callWith(
          fakeBackend(async (sessionId) => view(sessionId, answer)),
          store,
        ),
        { handle: r.handle, revision: 1 },
      );
      expect(result.response?.via).toBe('link');
      expect(result.response && 'viaPrincipalId' in result.response).toBe(false);
    }
  });

  it.each<[string, AnswerOverrides]>([
    ['the backend says link, the receipt chat', { signed: chat, said: { via: 'link' } }],
    ['the backend says nothing, the receipt chat', { signed: chat }],
    ['the backend says chat, the receipt link', { said: chat }],
    [
      'the backend names another principal',
      { signed: chat, said: { via: 'chat', viaPrincipalId: 'usr_gggggggggggggggggggggggggg' } },
    ],
  ])('%s: nothing is released, the handle is blocked (VIA_MISMATCH)', async (_name, overrides) => {
    const r = record(0);
    const answer = await answerFor(0, overrides);
    const store = memoryStore([r]);
    const backend = fakeBackend(async (sessionId) => view(sessionId, answer));
    await expect(readResponse(callWith(backend, store), { handle: r.handle, revision: 1 })).rejects.toMatchObject({
      code: 'VERIFICATION_FAILED',
      details: { reason: 'VIA_MISMATCH' },
    });
    expect(store.records.get(r.handle)).toMatchObject({ state: 'blocked', blockedReason: 'verification_failed' });
  });
});

describe('who answered (assurance, respondent)', () => {
  const ACCOUNT = { assurance: 'account', respondent: 'r'.repeat(43) } as const;

  it('an account answer is released with its level and respondent, from the verified receipt, and again from the saved answer', async () => {
    const r = record(0);
    const answer = await answerFor(0, { signed: ACCOUNT, said: ACCOUNT });
    const store = memoryStore([r]);
    const backend = fakeBackend(async (sessionId) => view(sessionId, answer));
    const first = await readResponse(callWith(backend, store), { handle: r.handle, revision: 1 });
    expect(first.response).toMatchObject({ verified: true, assurance: 'account', respondent: 'r'.repeat(43) });
    const again = await readResponse(callWith(backend, store), { handle: r.handle, revision: 1 });
    expect(again.response).toEqual(first.response);
  });

  it('a link answer (or one from a server that does not say) is released as link with no respondent', async () => {
    const r = record(0);
    const answer = await answerFor(0);
    const backend = fakeBackend(async (sessionId) => view(sessionId, answer));
    const result = await readResponse(callWith(backend, memoryStore([r])), { handle: r.handle, revision: 1 });
    expect(result.response?.assurance).toBe('link');
    expect(result.response && 'respondent' in result.response).toBe(false);
  });

  it.each<[string, AnswerOverrides]>([
    ['the backend says link, the receipt account', { signed: ACCOUNT }],
    ['the backend says account, the receipt link', { said: ACCOUNT }],
    ['the backend names another respondent', { signed: ACCOUNT, said: { ...ACCOUNT, respondent: 's'.repeat(43) } }],
  ])('%s: nothing is released, the handle is blocked (ASSURANCE_MISMATCH)', async (_name, overrides) => {
    const r = record(0);
    const answer = await answerFor(0, overrides);
    const store = memoryStore([r]);
    const backend = fakeBackend(async (sessionId) => view(sessionId, answer));
    await expect(readResponse(callWith(backend, store), { handle: r.handle, revision: 1 })).rejects.toMatchObject({
      code: 'VERIFICATION_FAILED',
      details: { reason: 'ASSURANCE_MISMATCH' },
    });
    expect(store.records.get(r.handle)).toMatchObject({ state: 'blocked', blockedReason: 'verification_failed' });
  });
});
