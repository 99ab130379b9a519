import { compareCodePoints, decidedBy, decisionThresholds } from '@sess/core';
import type { ReceiptSigner } from '../keys/create-receipt-signer.ts';
import { signEs256 } from '../receipt/es256.ts';
import { RECEIPT_ALG } from '../receipt/receipt-claims.ts';
import {
  countIntents,
  DECISION_TYP,
  type DecisionClaims,
  type DecisionHeader,
  type DecisionInput,
  decisionShapeProblem,
  MAX_DECISION_LENGTH,
} from './decision-claims.ts';

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * Builds the claims from the caller's input: thresholds from `decisionThresholds`, answers in
 * event-id order. Refuses anything the verifier would refuse, the count included: a decision the
 * listed answers do not reach is a bug in the caller, and signing it would only move the failure
 * to whoever checks it.
 * @throws TypeError on a bad input (a bug in the caller, not a person's mistake).
 */
export function buildDecisionClaims(input: DecisionInput): DecisionClaims {
  if (typeof input.issuer !== 'string' || !URL.canParse(input.issuer)) throw new TypeError('issuer must be an absolute URL');
  if (!(input.decidedAt instanceof Date) || Number.isNaN(input.decidedAt.getTime())) {
    throw new TypeError('decidedAt must be a valid Date');
  }
  if (!Array.isArray(input.answers)) throw new TypeError('answers must be an array');
  const issuedAt = input.issuedAt ?? new Date();
  const answers = input.answers
    .map((answer) => ({ event_id: answer?.eventId, answer_sha256: answer?.answerSha256, intent: answer?.intent }))
    .sort((a, b) => compareCodePoints(String(a.event_id), String(b.event_id)));
  const claims = {
    iss: input.issuer,
    iat: Math.floor(issuedAt.getTime() / 1000),
    workspace_id: input.workspaceId,
    ask_id: input.askId,
    surface_sha256: input.surfaceSha256,
    rule: input.rule,
    quorum: input.quorum,
    max: input.max,
    // Computed, never taken: the one rule is @sess/core's. An unknown rule leaves them undefined,
    // and the shape check below names the rule.
    ...thresholdClaims(input),
    outcome: input.outcome,
    decided_at: input.decidedAt.toISOString(),
    answers,
  };
  const fault = decisionShapeProblem(claims);
  if (fault) throw new TypeError(`${fault}: ${SHAPE_HINTS[fault] ?? 'has the wrong type'}`);
  const valid = claims as DecisionClaims;
  const reached = decidedBy(countIntents(valid.answers), { approveAt: valid.approve_at, rejectAt: valid.reject_at });
  if (reached !== valid.outcome) {
    throw new TypeError(`the answers reach ${reached} under rule ${valid.rule}, not ${valid.outcome}`);
  }
  return valid;
}

function thresholdClaims(input: DecisionInput): { approve_at?: number; reject_at?: number } {
  if (input.rule !== 'any' && input.rule !== 'all' && input.rule !== 'quorum') return {};
  const at = decisionThresholds(input.rule, input.quorum, input.max);
  return { approve_at: at.approveAt, reject_at: at.rejectAt };
}

/** The signer's words for each claim the shape rule can name (the input's names, for the caller). */
const SHAPE_HINTS: Readonly<Record<string, string>> = {
  iat: 'issuedAt must be a valid Date at or after the epoch',
  workspace_id: 'workspaceId must be a non-empty string of at most 200 characters',
  ask_id: 'askId must be a non-empty string of at most 200 characters',
  surface_sha256: 'surfaceSha256 must be 64 lower-case hex characters',
  rule: "rule must be 'any', 'all' or 'quorum'",
  max: 'max must be a positive integer',
  quorum: 'quorum must be an integer from 1 to max with rule quorum, and null otherwise',
  approve_at: 'the thresholds must be positive (check rule, quorum and max)',
  reject_at: 'the thresholds must be positive (check rule, quorum and max)',
  outcome: "outcome must be 'approved' or 'rejected'",
  answers:
    'answers must be 1 to max entries of { eventId (1 to 200 characters), answerSha256 (64 lower-case hex), intent approve|reject }, each event once',
};

/**
 * Signs a decision receipt: a compact JWS (ES256) with the protected header
 * `{ alg: 'ES256', kid, typ: 'sess-decision+jwt' }` over the claims of `buildDecisionClaims`.
 * @throws TypeError on a bad input, or one whose receipt would exceed `MAX_DECISION_LENGTH`.
 */
export async function signDecision(signer: ReceiptSigner, input: DecisionInput): Promise<string> {
  const header: DecisionHeader = { alg: RECEIPT_ALG, kid: signer.kid, typ: DECISION_TYP };
  const signingInput = `${base64url(header)}.${base64url(buildDecisionClaims(input))}`;
  const jws = `${signingInput}.${signEs256(signer.privateKey, signingInput)}`;
  if (jws.length > MAX_DECISION_LENGTH) throw new TypeError(`a decision receipt is at most ${MAX_DECISION_LENGTH} characters`);
  return jws;
}
