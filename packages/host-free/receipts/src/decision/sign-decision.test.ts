import { beforeAll, describe, expect, it } from 'vitest';
import { createReceiptSigner, type ReceiptSigner } from '../keys/create-receipt-signer.ts';
import { decodeSegment, freshKeys, ISSUER } from '../test-fixtures.ts';
import type { DecisionInput } from './decision-claims.ts';
import { ASK, askAnswers, type DecisionAnswerInput, decisionInput, SURFACE, WORKSPACE } from './decision-fixtures.ts';
import { buildDecisionClaims, signDecision } from './sign-decision.ts';

let signer: ReceiptSigner;
let approvals: DecisionAnswerInput[];
beforeAll(async () => {
  const [key] = await freshKeys(1);
  signer = await createReceiptSigner(key!);
  approvals = (await askAnswers(signer, ['approve', 'approve', 'approve'])).answers;
});

const hash = (char: string) => char.repeat(64);

describe('buildDecisionClaims', () => {
  it('carries the documented claims, thresholds from the rule and answers in event-id order', () => {
    const answers = [
      { eventId: 'evt_b', answerSha256: hash('b'), intent: 'approve' as const },
      { eventId: 'evt_a', answerSha256: hash('a'), intent: 'reject' as const },
    ];
    expect(buildDecisionClaims(decisionInput(answers, { rule: 'quorum', quorum: 1, max: 2 }))).toEqual({
      iss: ISSUER,
      iat: Date.parse('2026-03-01T12:00:01.000Z') / 1000,
      workspace_id: WORKSPACE,
      ask_id: ASK,
      surface_sha256: SURFACE,
      rule: 'quorum',
      quorum: 1,
      max: 2,
      approve_at: 1,
      reject_at: 2,
      outcome: 'approved',
      decided_at: '2026-03-01T12:00:00.000Z',
      answers: [
        { event_id: 'evt_a', answer_sha256: hash('a'), intent: 'reject' },
        { event_id: 'evt_b', answer_sha256: hash('b'), intent: 'approve' },
      ],
    });
  });

  it.each<[string, (answers: DecisionAnswerInput[]) => Partial<DecisionInput>]>([
    ['approved by all with one approval short', (a) => ({ rule: 'all', answers: a.slice(0, 2) })],
    ['rejected with only approvals', () => ({ outcome: 'rejected' })],
    ['quorum 3 approved with two', (a) => ({ rule: 'quorum', quorum: 3, answers: a.slice(0, 2) })],
  ])('refuses counts that do not reach the outcome: %s', (_, change) => {
    expect(() => buildDecisionClaims(decisionInput(approvals, change(approvals)))).toThrow(/reach/);
  });

  it.each<[string, (answers: DecisionAnswerInput[]) => Partial<DecisionInput>]>([
    ['an issuer that is not a URL', () => ({ issuer: 'sess' })],
    ['an empty ask id', () => ({ askId: '' })],
    ['an upper-case surface hash', () => ({ surfaceSha256: 'A'.repeat(64) })],
    ['an unknown rule', () => ({ rule: 'most' as DecisionInput['rule'] })],
    ['a quorum with rule any', () => ({ quorum: 1 })],
    ['no quorum with rule quorum', () => ({ rule: 'quorum', quorum: null })],
    ['a quorum above max', () => ({ rule: 'quorum', quorum: 4 })],
    ['max 0', () => ({ max: 0 })],
    ['more answers than max', () => ({ max: 2 })],
    ['no answers', () => ({ answers: [] })],
    ['one event twice', (a) => ({ answers: [a[0]!, a[0]!] })],
    ['an intent other than approve or reject', (a) => ({ answers: [{ ...a[0]!, intent: 'maybe' as 'approve' }] })],
    ['an outcome of pending', () => ({ outcome: 'pending' as 'approved' })],
    ['an invalid decidedAt', () => ({ decidedAt: new Date(Number.NaN) })],
  ])('refuses %s with a TypeError', (_, change) => {
    expect(() => buildDecisionClaims(decisionInput(approvals, change(approvals)))).toThrow(TypeError);
  });
});

describe('signDecision', () => {
  it('signs { alg: ES256, kid, typ: sess-decision+jwt } over the built claims', async () => {
    const input = decisionInput(approvals, { rule: 'all' });
    const jws = await signDecision(signer, input);
    expect(decodeSegment(jws, 0)).toEqual({ alg: 'ES256', kid: signer.kid, typ: 'sess-decision+jwt' });
    expect(decodeSegment(jws, 1)).toEqual(buildDecisionClaims(input));
  });
});
