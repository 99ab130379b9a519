import { decidedBy, decisionThresholds } from '@sess/core';
import type { ReceiptKeySet } from '../key-set/receipt-key-set.ts';
import { fail, parsePayloadObject, type VerifyFailure, verifySignedJws } from '../verify/compact-jws.ts';
import type { ReceiptFailureReason } from '../verify/failure-reasons.ts';
import { checkAnswerReceipts } from './check-answer-receipts.ts';
import {
  countIntents,
  DECISION_TYP,
  type DecisionAnswer,
  type DecisionClaims,
  decisionShapeProblem,
  MAX_DECISION_LENGTH,
} from './decision-claims.ts';

/** Inputs of `verifyDecision`. */
export interface VerifyDecisionOptions {
  /** Where public keys come from: the same key set as for answer receipts. */
  keys: ReceiptKeySet;
  /** The exact issuer expected in `iss` (of the decision and of every answer receipt). */
  issuer: string;
  /** What the verifier already knows; the decision must say exactly the same. */
  expected: { workspaceId: string; askId: string };
  /** Every answer receipt of the Ask (compact JWS), as given with the decision. */
  answerReceipts: readonly string[];
}

/** A failure names one stable reason; `message` is for logs and never carries secrets. */
export type VerifyDecisionResult =
  | { ok: true; claims: DecisionClaims; kid: string }
  | { ok: false; reason: ReceiptFailureReason; message: string };

function parseDecisionClaims(payload: Uint8Array): DecisionClaims | VerifyFailure {
  const parsed = parsePayloadObject(payload);
  if (!parsed.ok) return parsed;
  const { value } = parsed;
  const fault = decisionShapeProblem(value);
  if (fault) return fail('MALFORMED', `claim ${fault} is missing or has the wrong shape`);
  // Rebuilt field by field: the caller gets exactly the claims that were checked, nothing extra.
  return {
    iss: value['iss'] as string,
    iat: value['iat'] as number,
    workspace_id: value['workspace_id'] as string,
    ask_id: value['ask_id'] as string,
    surface_sha256: value['surface_sha256'] as string,
    rule: value['rule'] as DecisionClaims['rule'],
    quorum: value['quorum'] as number | null,
    max: value['max'] as number,
    approve_at: value['approve_at'] as number,
    reject_at: value['reject_at'] as number,
    outcome: value['outcome'] as DecisionClaims['outcome'],
    decided_at: value['decided_at'] as string,
    answers: (value['answers'] as DecisionAnswer[]).map(({ event_id, answer_sha256, intent }) => ({
      event_id,
      answer_sha256,
      intent,
    })),
  };
}

/** The decision's own claims: who, which Ask, and whether its numbers follow the one rule. */
function checkDecision(claims: DecisionClaims, options: VerifyDecisionOptions): VerifyFailure | undefined {
  if (claims.iss !== options.issuer) return fail('ISSUER_MISMATCH', 'iss is not the expected issuer');
  if (claims.workspace_id !== options.expected.workspaceId) {
    return fail('WORKSPACE_MISMATCH', 'workspace_id is not the expected workspace');
  }
  if (claims.ask_id !== options.expected.askId) return fail('ASK_MISMATCH', 'ask_id is not the expected Ask');
  const at = decisionThresholds(claims.rule, claims.quorum, claims.max);
  if (claims.approve_at !== at.approveAt || claims.reject_at !== at.rejectAt) {
    return fail('DECISION_THRESHOLD_MISMATCH', `approve_at/reject_at are not rule ${claims.rule}'s for these quorum and max`);
  }
  const reached = decidedBy(countIntents(claims.answers), at);
  if (reached !== claims.outcome) {
    return fail('DECISION_COUNT_MISMATCH', `the listed answers reach ${reached}, not ${claims.outcome}`);
  }
  return undefined;
}

/**
 * Verifies a decision receipt offline: compact ES256 JWS with typ `sess-decision+jwt`, a key from
 * `keys` by kid, a valid signature, the expected issuer, workspace and Ask, thresholds and outcome
 * that @sess/core's rule gives for the listed answers, and then the answers themselves: each
 * listed one has exactly one answer receipt that verifies for this Ask, its Surface and the listed
 * hash, and no answer receipt of the Ask is left uncounted. Never throws on input.
 */
export async function verifyDecision(jws: string, options: VerifyDecisionOptions): Promise<VerifyDecisionResult> {
  const signed = await verifySignedJws(jws, { keys: options.keys, typ: DECISION_TYP, maxLength: MAX_DECISION_LENGTH });
  if (!signed.ok) return signed;
  const claims = parseDecisionClaims(signed.payload);
  if ('ok' in claims) return claims;
  const mismatch = checkDecision(claims, options) ?? (await checkAnswerReceipts(claims, options));
  if (mismatch) return mismatch;
  return { ok: true, claims, kid: signed.kid };
}
