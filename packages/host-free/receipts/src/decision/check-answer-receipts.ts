import type { ReceiptKeySet } from '../key-set/receipt-key-set.ts';
import { fail, peekPayload, type VerifyFailure } from '../verify/compact-jws.ts';
import { type ExpectedReceipt, MAX_RECEIPT_LENGTH, verifyReceipt } from '../verify/verify-receipt.ts';
import type { DecisionClaims } from './decision-claims.ts';

interface AnswerReceiptsOptions {
  keys: ReceiptKeySet;
  issuer: string;
  answerReceipts: readonly string[];
}

/** An answer receipt that fails keeps its own reason; the message says which one it was. */
async function verifyAnswer(jws: string, keys: ReceiptKeySet, issuer: string, expected: ExpectedReceipt) {
  const result = await verifyReceipt(jws, { keys, issuer, expected });
  return result.ok ? undefined : fail(result.reason, `the answer receipt of ${expected.eventId}: ${result.message}`);
}

/**
 * The decision against the answer receipts given with it. Each receipt is paired with a listed
 * answer by the event id it claims (read unverified, for pairing only) and then verified in full
 * against what the decision lists: this Ask (revision 1), its Surface, that event and that hash.
 * A receipt the decision does not list is verified as one of this Ask's too: a foreign receipt
 * fails with its own reason (`SESSION_MISMATCH`, …), a genuine one with `DECISION_ANSWER_NOT_COUNTED`.
 */
export async function checkAnswerReceipts(
  claims: DecisionClaims,
  options: AnswerReceiptsOptions,
): Promise<VerifyFailure | undefined> {
  if (!Array.isArray(options.answerReceipts)) return fail('MALFORMED', 'answerReceipts is not an array');
  const byEvent = new Map<string, string>();
  for (const [index, jws] of options.answerReceipts.entries()) {
    const eventId = peekPayload(jws, MAX_RECEIPT_LENGTH)?.['event_id'];
    if (typeof eventId !== 'string') return fail('MALFORMED', `answer receipt ${index} names no event_id`);
    if (byEvent.has(eventId)) return fail('DECISION_ANSWER_DUPLICATE', `two answer receipts name ${eventId}`);
    byEvent.set(eventId, jws);
  }
  const forAsk = (eventId: string, answerSha256?: string): ExpectedReceipt => ({
    workspaceId: claims.workspace_id,
    sessionId: claims.ask_id,
    revision: 1,
    eventId,
    surfaceSha256: claims.surface_sha256,
    ...(answerSha256 !== undefined ? { answerSha256 } : {}),
  });
  for (const answer of claims.answers) {
    const jws = byEvent.get(answer.event_id);
    if (jws === undefined) return fail('DECISION_ANSWER_MISSING', `no answer receipt for ${answer.event_id}`);
    byEvent.delete(answer.event_id);
    const failure = await verifyAnswer(jws, options.keys, options.issuer, forAsk(answer.event_id, answer.answer_sha256));
    if (failure) return failure;
  }
  for (const [eventId, jws] of byEvent) {
    const failure = await verifyAnswer(jws, options.keys, options.issuer, forAsk(eventId));
    if (failure) return failure;
    return fail('DECISION_ANSWER_NOT_COUNTED', `the answer ${eventId} of this Ask is not counted`);
  }
  return undefined;
}
