/**
 * Test-only builders for decision receipts: an Ask's answers with their real, signed answer
 * receipts. Not exported from `index.ts`.
 */
import { createHash } from 'node:crypto';
import type { ReceiptSigner } from '../keys/create-receipt-signer.ts';
import { signReceipt } from '../receipt/sign-receipt.ts';
import { ISSUER, receiptInput } from '../test-fixtures.ts';
import type { DecisionInput } from './decision-claims.ts';

export const WORKSPACE = 'ws_aaaaaaaaaaaaaaaaaaaaaaaaaa';
export const ASK = 'ask_bbbbbbbbbbbbbbbbbbbbbbbbbb';
export const SURFACE = 'a'.repeat(64);

type Intent = 'approve' | 'reject';
export type DecisionAnswerInput = DecisionInput['answers'][number];

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** One answer of `askId` and its answer receipt, as the Ask would have signed it. */
export async function askAnswer(
  signer: ReceiptSigner,
  eventId: string,
  intent: Intent,
  overrides: { askId?: string; answerSha256?: string; surfaceSha256?: string } = {},
): Promise<{ answer: DecisionAnswerInput; receipt: string }> {
  const answerSha256 = overrides.answerSha256 ?? sha256(`${eventId} ${intent}`);
  const receipt = await signReceipt(
    signer,
    receiptInput({
      workspaceId: WORKSPACE,
      sessionId: overrides.askId ?? ASK,
      revision: 1,
      eventId,
      surfaceSha256: overrides.surfaceSha256 ?? SURFACE,
      answerSha256,
      respondentId: `rsp_${eventId.slice(4)}`,
    }),
  );
  return { answer: { eventId, answerSha256, intent }, receipt };
}

/** The answers of an Ask in this order (event ids evt_…1, evt_…2, …), with their receipts. */
export async function askAnswers(signer: ReceiptSigner, intents: readonly Intent[]) {
  const made = await Promise.all(intents.map((intent, i) => askAnswer(signer, `evt_${String(i + 1).padStart(26, '0')}`, intent)));
  return { answers: made.map((m) => m.answer), receipts: made.map((m) => m.receipt) };
}

/** A decision input for `answers` with valid values in every other field. */
export function decisionInput(answers: DecisionInput['answers'], overrides: Partial<DecisionInput> = {}): DecisionInput {
  return {
    issuer: ISSUER,
    workspaceId: WORKSPACE,
    askId: ASK,
    surfaceSha256: SURFACE,
    rule: 'any',
    quorum: null,
    max: 3,
    outcome: 'approved',
    decidedAt: new Date('2026-03-01T12:00:00.000Z'),
    answers,
    issuedAt: new Date('2026-03-01T12:00:01.000Z'),
    ...overrides,
  };
}
