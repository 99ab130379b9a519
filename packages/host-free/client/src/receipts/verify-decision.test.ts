/*
 * receipts.verifyDecision at unit level: real keys (generateSigningKey), real answer and decision
 * receipts (@sess/receipts' signers), the client's own remote key set served the ring's JWKS by the
 * client's `fetch`, so the wiring of createSessClient is the one under test. The server's side (the
 * Ask signing its decision) is tested with the server.
 */
import type { AnswerView, AskView } from '@sess/contract';
import { decisionThresholds, newId } from '@sess/core';
import {
  createSigningKeyRing,
  type DecisionInput,
  generateSigningKey,
  type SigningKeyRing,
  signDecision,
  signReceipt,
} from '@sess/receipts';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSessClient, type SessClient } from '../client/create-sess-client.ts';
import { SessClientError } from '../errors/sess-client-error.ts';
import { hashAnswer } from './hash-answer.ts';

const ORIGIN = 'https://sess.example';
const WORKSPACE = `ws_${'a'.repeat(26)}`;
const SURFACE = 'c'.repeat(64);

let ring: SigningKeyRing;
let stranger: SigningKeyRing;
let client: SessClient;

beforeAll(async () => {
  ring = await createSigningKeyRing({ active: await generateSigningKey() });
  stranger = await createSigningKeyRing({ active: await generateSigningKey() });
  const serveJwks: typeof fetch = async () =>
    new Response(JSON.stringify(ring.jwks), { status: 200, headers: { 'content-type': 'application/json' } });
  client = createSessClient({ origin: ORIGIN, apiKey: 'sess_test_key', fetch: serveJwks, expectedWorkspaceId: WORKSPACE });
});

type Intent = 'approve' | 'reject';

async function answerOf(askId: string, actionId: string, message: string): Promise<AnswerView> {
  const eventId = newId('answer');
  const values = { message };
  const answerSha256 = await hashAnswer({ actionId, values });
  const receipt = await signReceipt(ring.signer, {
    issuer: ORIGIN,
    workspaceId: WORKSPACE,
    sessionId: askId,
    revision: 1,
    eventId,
    surfaceSha256: SURFACE,
    answerSha256,
    respondentId: newId('respondent'),
  });
  return {
    eventId,
    revision: 1,
    actionId,
    values,
    answeredAt: '2026-03-01T12:00:00.000Z',
    surfaceSha256: SURFACE,
    answerSha256,
    receipt,
    respondentId: newId('respondent'),
    via: 'link',
    assurance: 'link',
  };
}

/** A decided Ask as GET /v1/asks/:id returns it, its decision receipt signed over its answers. */
async function decidedAsk(
  intents: readonly Intent[],
  rule: DecisionInput['rule'],
  quorum: number | null,
  max: number,
  outcome: 'approved' | 'rejected',
): Promise<AskView> {
  const askId = newId('ask');
  const answers = await Promise.all(intents.map((intent, i) => answerOf(askId, intent, `answer ${i}`)));
  const decidedAt = new Date('2026-03-01T12:05:00.000Z');
  const receipt = await signDecision(ring.signer, {
    issuer: ORIGIN,
    workspaceId: WORKSPACE,
    askId,
    surfaceSha256: SURFACE,
    rule,
    quorum,
    max,
    outcome,
    decidedAt,
    answers: answers.map((a) => ({ eventId: a.eventId, answerSha256: a.answerSha256, intent: a.actionId as Intent })),
  });
  const approved = intents.filter((intent) => intent === 'approve').length;
  const { approveAt, rejectAt } = decisionThresholds(rule, quorum, max);
  return {
    askId,
    kind: 'ask',
    state: 'closed',
    open: false,
    counts: { started: intents.length, answered: intents.length, max },
    createdAt: '2026-03-01T11:00:00.000Z',
    expiresAt: '2026-03-02T11:00:00.000Z',
    surfaceSha256: SURFACE,
    answers,
    decision: {
      rule,
      quorum,
      outcome,
      approved,
      rejected: intents.length - approved,
      approveAt,
      rejectAt,
      decidedAt: decidedAt.toISOString(),
      receipt,
    },
  };
}

async function refusal(ask: AskView, c: SessClient = client): Promise<SessClientError> {
  try {
    await c.receipts.verifyDecision(ask);
  } catch (error) {
    if (error instanceof SessClientError) return error;
    throw error;
  }
  throw new Error('the decision verified');
}

describe('a genuine decision', () => {
  it('quorum 2 of 3 verifies, with the answers it counts', async () => {
    const ask = await decidedAsk(['approve', 'reject', 'approve'], 'quorum', 2, 3, 'approved');
    const verified = await client.receipts.verifyDecision(ask);
    expect(verified).toMatchObject({
      askId: ask.askId,
      outcome: 'approved',
      rule: 'quorum',
      quorum: 2,
      max: 3,
      approved: 2,
      rejected: 1,
      approveAt: 2,
      rejectAt: 2,
      decidedAt: '2026-03-01T12:05:00.000Z',
      kid: ring.signer.kid,
    });
    expect(verified.answers.map((a) => a.eventId)).toEqual(ask.answers.map((a) => a.eventId).sort());
    expect(verified.answers.find((a) => a.actionId === 'reject')?.values).toEqual({ message: 'answer 1' });
  });

  it('any and all verify, approved and rejected', async () => {
    await expect(client.receipts.verifyDecision(await decidedAsk(['reject'], 'any', null, 5, 'rejected'))).resolves.toMatchObject(
      {
        outcome: 'rejected',
      },
    );
    const all = await decidedAsk(['approve', 'approve'], 'all', null, 2, 'approved');
    await expect(client.receipts.verifyDecision(all)).resolves.toMatchObject({ outcome: 'approved', approveAt: 2 });
  });

  it('binds to the workspace given, over the configured one', async () => {
    const ask = await decidedAsk(['approve'], 'any', null, 1, 'approved');
    const error = await client.receipts.verifyDecision(ask, { workspaceId: `ws_${'b'.repeat(26)}` }).catch((e) => e);
    expect(error).toMatchObject({ kind: 'protocol', reason: 'WORKSPACE_MISMATCH' });
  });
});

describe('refused', () => {
  it('an Ask whose decision shows other counts than its receipt signs: DECISION_COUNT_MISMATCH', async () => {
    const ask = await decidedAsk(['approve', 'reject', 'approve'], 'quorum', 2, 3, 'approved');
    const error = await refusal({ ...ask, decision: { ...ask.decision!, approved: 3, rejected: 0 } });
    expect(error).toMatchObject({
      kind: 'protocol',
      code: 'VERIFICATION_FAILED',
      reason: 'DECISION_COUNT_MISMATCH',
      retryable: false,
    });
    expect(error.operation).toBe('verifyDecision');
  });

  it('an Ask that shows another outcome: DECISION_COUNT_MISMATCH; other thresholds: DECISION_THRESHOLD_MISMATCH', async () => {
    const ask = await decidedAsk(['reject'], 'any', null, 3, 'rejected');
    expect((await refusal({ ...ask, decision: { ...ask.decision!, outcome: 'approved' } })).reason).toBe(
      'DECISION_COUNT_MISMATCH',
    );
    expect((await refusal({ ...ask, decision: { ...ask.decision!, approveAt: 2 } })).reason).toBe('DECISION_THRESHOLD_MISMATCH');
  });

  it('an answer counted as approve whose button was reject: DECISION_COUNT_MISMATCH', async () => {
    const askId = newId('ask');
    const answer = await answerOf(askId, 'reject', 'no');
    const base = await decidedAsk(['approve'], 'any', null, 1, 'approved');
    const receipt = await signDecision(ring.signer, {
      issuer: ORIGIN,
      workspaceId: WORKSPACE,
      askId,
      surfaceSha256: SURFACE,
      rule: 'any',
      quorum: null,
      max: 1,
      outcome: 'approved',
      decidedAt: new Date(base.decision!.decidedAt!),
      answers: [{ eventId: answer.eventId, answerSha256: answer.answerSha256, intent: 'approve' }],
    });
    const error = await refusal({ ...base, askId, answers: [answer], decision: { ...base.decision!, receipt } });
    expect(error.reason).toBe('DECISION_COUNT_MISMATCH');
  });

  it('values that do not hash to the answer: ANSWER_MISMATCH', async () => {
    const ask = await decidedAsk(['approve'], 'any', null, 1, 'approved');
    const tampered = { ...ask, answers: [{ ...ask.answers[0]!, values: { message: 'edited' } }] };
    expect((await refusal(tampered)).reason).toBe('ANSWER_MISMATCH');
  });

  it('an answer left out of the Ask: DECISION_ANSWER_MISSING; one the decision does not count: DECISION_ANSWER_NOT_COUNTED', async () => {
    const ask = await decidedAsk(['approve', 'approve'], 'all', null, 2, 'approved');
    expect((await refusal({ ...ask, answers: ask.answers.slice(1) })).reason).toBe('DECISION_ANSWER_MISSING');
    const extra = await answerOf(ask.askId, 'reject', 'late');
    expect((await refusal({ ...ask, answers: [...ask.answers, extra] })).reason).toBe('DECISION_ANSWER_NOT_COUNTED');
  });

  it("another Ask's decision: ASK_MISMATCH", async () => {
    const ask = await decidedAsk(['approve'], 'any', null, 1, 'approved');
    const other = await decidedAsk(['approve'], 'any', null, 1, 'approved');
    expect((await refusal({ ...ask, decision: other.decision! })).reason).toBe('ASK_MISMATCH');
  });

  it('a decision signed by a key the JWKS does not hold: UNKNOWN_KEY_ID', async () => {
    const ask = await decidedAsk(['approve'], 'any', null, 1, 'approved');
    const answers = ask.answers.map((a) => ({ eventId: a.eventId, answerSha256: a.answerSha256, intent: 'approve' as const }));
    const forged = await signDecision(stranger.signer, {
      issuer: ORIGIN,
      workspaceId: WORKSPACE,
      askId: ask.askId,
      surfaceSha256: SURFACE,
      rule: 'any',
      quorum: null,
      max: 1,
      outcome: 'approved',
      decidedAt: new Date(ask.decision!.decidedAt!),
      answers,
    });
    expect((await refusal({ ...ask, decision: { ...ask.decision!, receipt: forged } })).reason).toBe('UNKNOWN_KEY_ID');
  });

  it('an answer receipt passed as the decision: TYPE_MISMATCH', async () => {
    const ask = await decidedAsk(['approve'], 'any', null, 1, 'approved');
    expect((await refusal({ ...ask, decision: { ...ask.decision!, receipt: ask.answers[0]!.receipt } })).reason).toBe(
      'TYPE_MISMATCH',
    );
  });

  it('a decided Ask without a decision receipt: MALFORMED', async () => {
    const ask = await decidedAsk(['approve'], 'any', null, 1, 'approved');
    const { receipt: _, ...withoutReceipt } = ask.decision!;
    expect((await refusal({ ...ask, decision: withoutReceipt })).reason).toBe('MALFORMED');
  });

  it('an Ask that does not decide, or has not decided yet, is configuration', async () => {
    const ask = await decidedAsk(['approve'], 'any', null, 1, 'approved');
    const { decision: _, ...plain } = ask;
    expect(await refusal(plain)).toMatchObject({ kind: 'configuration' });
    const pending = { ...ask.decision!, outcome: 'pending' as const, decidedAt: null };
    expect(await refusal({ ...ask, decision: pending })).toMatchObject({ kind: 'configuration' });
  });

  it('a key set that cannot be fetched is transport, retryable', async () => {
    const ask = await decidedAsk(['approve'], 'any', null, 1, 'approved');
    const down = createSessClient({
      origin: ORIGIN,
      apiKey: 'sess_test_key',
      fetch: async () => new Response('unavailable', { status: 503 }),
      expectedWorkspaceId: WORKSPACE,
    });
    expect(await refusal(ask, down)).toMatchObject({ kind: 'transport', reason: 'KEY_SET_UNAVAILABLE', retryable: true });
  });
});
