import { beforeAll, describe, expect, it } from 'vitest';
import { createSigningKeyRing, type SigningKeyRing } from '../keys/create-signing-key-ring.ts';
import { freshKeys, ISSUER, signRaw } from '../test-fixtures.ts';
import type { ReceiptFailureReason } from '../verify/failure-reasons.ts';
import { verifyReceipt } from '../verify/verify-receipt.ts';
import { DECISION_TYP, type DecisionInput } from './decision-claims.ts';
import { ASK, askAnswer, askAnswers, decisionInput, SURFACE, WORKSPACE } from './decision-fixtures.ts';
import { buildDecisionClaims, signDecision } from './sign-decision.ts';
import { type VerifyDecisionOptions, verifyDecision } from './verify-decision.ts';

let ring: SigningKeyRing;
let stranger: SigningKeyRing;
/** quorum 2 of 3: approve, reject, approve → approved; the decision and its three answer receipts. */
let quorum: { input: DecisionInput; jws: string; receipts: string[] };

beforeAll(async () => {
  const [key, other] = await freshKeys(2);
  ring = await createSigningKeyRing({ active: key! });
  stranger = await createSigningKeyRing({ active: other! });
  const { answers, receipts } = await askAnswers(ring.signer, ['approve', 'reject', 'approve']);
  const input = decisionInput(answers, { rule: 'quorum', quorum: 2 });
  quorum = { input, jws: await signDecision(ring.signer, input), receipts };
});

function options(receipts: readonly string[], overrides: Partial<VerifyDecisionOptions> = {}): VerifyDecisionOptions {
  return {
    keys: ring.keySet,
    issuer: ISSUER,
    expected: { workspaceId: WORKSPACE, askId: ASK },
    answerReceipts: receipts,
    ...overrides,
  };
}

async function reasonOf(
  jws: string,
  receipts: readonly string[] = quorum.receipts,
  overrides: Partial<VerifyDecisionOptions> = {},
): Promise<ReceiptFailureReason | 'OK'> {
  const result = await verifyDecision(jws, options(receipts, overrides));
  return result.ok ? 'OK' : result.reason;
}

/** Signs any claims with the ring's own key under the decision header (to build hostile decisions). */
function signClaims(claims: unknown): Promise<string> {
  return signRaw(ring.signer.privateKey, { alg: 'ES256', kid: ring.signer.kid, typ: DECISION_TYP }, claims);
}

describe('a genuine decision', () => {
  it('quorum 2 of 3 verifies with its answer receipts, in any order', async () => {
    const result = await verifyDecision(quorum.jws, options([...quorum.receipts].reverse()));
    expect(result).toEqual({ ok: true, kid: ring.signer.kid, claims: buildDecisionClaims(quorum.input) });
  });

  it('any: the first answer decides, approved or rejected', async () => {
    for (const intent of ['approve', 'reject'] as const) {
      const { answers, receipts } = await askAnswers(ring.signer, [intent]);
      const outcome = intent === 'approve' ? 'approved' : 'rejected';
      const jws = await signDecision(ring.signer, decisionInput(answers, { outcome }));
      expect(await reasonOf(jws, receipts)).toBe('OK');
    }
  });

  it('all: every place approves, or one reject decides', async () => {
    const approved = await askAnswers(ring.signer, ['approve', 'approve', 'approve']);
    const jws = await signDecision(ring.signer, decisionInput(approved.answers, { rule: 'all' }));
    expect(await reasonOf(jws, approved.receipts)).toBe('OK');
    const rejected = await askAnswers(ring.signer, ['approve', 'reject']);
    const no = await signDecision(ring.signer, decisionInput(rejected.answers, { rule: 'all', outcome: 'rejected' }));
    expect(await reasonOf(no, rejected.receipts)).toBe('OK');
  });

  it('quorum: rejected once the approvals can no longer be reached', async () => {
    const { answers, receipts } = await askAnswers(ring.signer, ['reject', 'approve', 'reject']);
    const jws = await signDecision(ring.signer, decisionInput(answers, { rule: 'quorum', quorum: 2, outcome: 'rejected' }));
    expect(await reasonOf(jws, receipts)).toBe('OK');
  });
});

describe('the decision itself', () => {
  it('a tampered payload fails BAD_SIGNATURE', async () => {
    const [header, , signature] = quorum.jws.split('.');
    const claims = { ...buildDecisionClaims(quorum.input), outcome: 'rejected' };
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    expect(await reasonOf(`${header}.${payload}.${signature}`)).toBe('BAD_SIGNATURE');
  });

  it('a key not in the set fails UNKNOWN_KEY_ID; another key under our kid BAD_SIGNATURE', async () => {
    expect(await reasonOf(await signDecision(stranger.signer, quorum.input))).toBe('UNKNOWN_KEY_ID');
    const header = { alg: 'ES256', kid: ring.signer.kid, typ: DECISION_TYP };
    expect(await reasonOf(await signRaw(stranger.signer.privateKey, header, buildDecisionClaims(quorum.input)))).toBe(
      'BAD_SIGNATURE',
    );
  });

  it('an answer receipt is no decision, and a decision is no answer receipt: TYPE_MISMATCH', async () => {
    expect(await reasonOf(quorum.receipts[0]!)).toBe('TYPE_MISMATCH');
    const expected = { workspaceId: WORKSPACE, sessionId: ASK, revision: 1, eventId: 'evt_1', surfaceSha256: SURFACE };
    const result = await verifyReceipt(quorum.jws, { keys: ring.keySet, issuer: ISSUER, expected });
    expect(!result.ok && result.reason).toBe('TYPE_MISMATCH');
  });

  it('another header parameter fails HEADER_NOT_ALLOWED', async () => {
    const header = { alg: 'ES256', kid: ring.signer.kid, typ: DECISION_TYP, jku: 'https://evil.example' };
    expect(await reasonOf(await signRaw(ring.signer.privateKey, header, buildDecisionClaims(quorum.input)))).toBe(
      'HEADER_NOT_ALLOWED',
    );
  });

  it('another issuer, workspace or Ask fails with its reason', async () => {
    expect(await reasonOf(quorum.jws, quorum.receipts, { issuer: 'https://other.example' })).toBe('ISSUER_MISMATCH');
    const elsewhere = { workspaceId: 'ws_zzzzzzzzzzzzzzzzzzzzzzzzzz', askId: ASK };
    expect(await reasonOf(quorum.jws, quorum.receipts, { expected: elsewhere })).toBe('WORKSPACE_MISMATCH');
    const otherAsk = { workspaceId: WORKSPACE, askId: 'ask_zzzzzzzzzzzzzzzzzzzzzzzzzz' };
    expect(await reasonOf(quorum.jws, quorum.receipts, { expected: otherAsk })).toBe('ASK_MISMATCH');
  });

  it('thresholds other than the rule gives fail DECISION_THRESHOLD_MISMATCH', async () => {
    const claims = buildDecisionClaims(quorum.input);
    // quorum 2 of 3 is approve_at 2, reject_at 2; a decision that claims approve_at 1 moves the bar.
    expect(await reasonOf(await signClaims({ ...claims, approve_at: 1 }))).toBe('DECISION_THRESHOLD_MISMATCH');
    expect(await reasonOf(await signClaims({ ...claims, reject_at: 3 }))).toBe('DECISION_THRESHOLD_MISMATCH');
    // Rule all over 3 places needs three approvals, whatever quorum-like numbers it carries.
    expect(await reasonOf(await signClaims({ ...claims, rule: 'all', quorum: null }))).toBe('DECISION_THRESHOLD_MISMATCH');
  });

  it('counts that do not reach the outcome fail DECISION_COUNT_MISMATCH', async () => {
    const claims = buildDecisionClaims(quorum.input);
    expect(await reasonOf(await signClaims({ ...claims, outcome: 'rejected' }))).toBe('DECISION_COUNT_MISMATCH');
    // One approval short of the quorum (its receipt still given, so only the count is at fault).
    const short = { ...claims, answers: claims.answers.slice(0, 2) };
    expect(await reasonOf(await signClaims(short), quorum.receipts.slice(0, 2))).toBe('DECISION_COUNT_MISMATCH');
    // all: two approvals of three places decide nothing.
    const all = { ...claims, rule: 'all', quorum: null, approve_at: 3, reject_at: 1, answers: [claims.answers[0]] };
    expect(await reasonOf(await signClaims(all), quorum.receipts.slice(0, 1))).toBe('DECISION_COUNT_MISMATCH');
  });

  it.each<[string, (claims: Record<string, unknown>) => Record<string, unknown>]>([
    ['answers out of event-id order', (c) => ({ ...c, answers: [...(c['answers'] as unknown[])].reverse() })],
    ['one event listed twice', (c) => ({ ...c, answers: [(c['answers'] as unknown[])[0], ...(c['answers'] as unknown[])] })],
    ['more answers than max', (c) => ({ ...c, max: 2, quorum: 2, reject_at: 1 })],
    ['a quorum with rule any', (c) => ({ ...c, rule: 'any' })],
    ['a quorum above max', (c) => ({ ...c, quorum: 4 })],
    ['an outcome of pending', (c) => ({ ...c, outcome: 'pending' })],
    ['decided_at not in toISOString form', (c) => ({ ...c, decided_at: '2026-03-01T12:00:00Z' })],
    ['an intent other than approve or reject', (c) => ({ ...c, answers: [{ ...(c['answers'] as object[])[0], intent: 'yes' }] })],
    ['no answers', (c) => ({ ...c, answers: [] })],
  ])('%s is MALFORMED', async (_, change) => {
    const claims = buildDecisionClaims(quorum.input) as unknown as Record<string, unknown>;
    expect(await reasonOf(await signClaims(change(claims)))).toBe('MALFORMED');
  });

  it('a string far larger than any decision is MALFORMED before parsing', async () => {
    expect(await reasonOf(`${'a'.repeat(1_048_577)}.b.c`)).toBe('MALFORMED');
  });
});

describe('the answers it names', () => {
  it('one answer receipt removed fails DECISION_ANSWER_MISSING', async () => {
    expect(await reasonOf(quorum.jws, quorum.receipts.slice(1))).toBe('DECISION_ANSWER_MISSING');
    expect(await reasonOf(quorum.jws, [])).toBe('DECISION_ANSWER_MISSING');
  });

  it('an extra answer receipt of this Ask fails DECISION_ANSWER_NOT_COUNTED', async () => {
    const extra = await askAnswer(ring.signer, 'evt_9', 'reject');
    expect(await reasonOf(quorum.jws, [...quorum.receipts, extra.receipt])).toBe('DECISION_ANSWER_NOT_COUNTED');
  });

  it('the same answer receipt twice fails DECISION_ANSWER_DUPLICATE', async () => {
    expect(await reasonOf(quorum.jws, [...quorum.receipts, quorum.receipts[0]!])).toBe('DECISION_ANSWER_DUPLICATE');
  });

  it('an answer receipt for another answer than the one listed fails ANSWER_MISMATCH', async () => {
    const listed = quorum.input.answers[1]!;
    const swapped = await askAnswer(ring.signer, listed.eventId, 'approve', { answerSha256: 'f'.repeat(64) });
    const receipts = [quorum.receipts[0]!, swapped.receipt, quorum.receipts[2]!];
    expect(await reasonOf(quorum.jws, receipts)).toBe('ANSWER_MISMATCH');
  });

  it('an answer receipt from another Ask fails SESSION_MISMATCH, listed or not', async () => {
    const otherAsk = 'ask_zzzzzzzzzzzzzzzzzzzzzzzzzz';
    const listed = quorum.input.answers[0]!;
    const foreign = await askAnswer(ring.signer, listed.eventId, 'approve', {
      askId: otherAsk,
      answerSha256: listed.answerSha256,
    });
    expect(await reasonOf(quorum.jws, [foreign.receipt, ...quorum.receipts.slice(1)])).toBe('SESSION_MISMATCH');
    const added = await askAnswer(ring.signer, 'evt_9', 'approve', { askId: otherAsk });
    expect(await reasonOf(quorum.jws, [...quorum.receipts, added.receipt])).toBe('SESSION_MISMATCH');
  });

  it('an answer receipt to another Surface fails SURFACE_MISMATCH', async () => {
    const listed = quorum.input.answers[0]!;
    const other = await askAnswer(ring.signer, listed.eventId, 'approve', {
      surfaceSha256: 'e'.repeat(64),
      answerSha256: listed.answerSha256,
    });
    expect(await reasonOf(quorum.jws, [other.receipt, ...quorum.receipts.slice(1)])).toBe('SURFACE_MISMATCH');
  });

  it('an answer receipt signed by a key not in the set fails UNKNOWN_KEY_ID', async () => {
    const listed = quorum.input.answers[0]!;
    const forged = await askAnswer(stranger.signer, listed.eventId, 'approve', { answerSha256: listed.answerSha256 });
    expect(await reasonOf(quorum.jws, [forged.receipt, ...quorum.receipts.slice(1)])).toBe('UNKNOWN_KEY_ID');
  });

  it('a string that is no receipt among them is MALFORMED', async () => {
    expect(await reasonOf(quorum.jws, [...quorum.receipts, 'not.a.receipt'])).toBe('MALFORMED');
  });
});
