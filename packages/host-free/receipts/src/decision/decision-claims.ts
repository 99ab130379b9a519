/**
 * The decision receipt's wire format: the signed outcome of an Ask that decides, naming every
 * answer it was counted from. Fixed here, with its shape rule, so the signer and the verifier
 * cannot drift apart. The counting rule itself is @sess/core's (`decisionThresholds`, `decidedBy`).
 */
import { compareCodePoints, DECISION_RULES, type DecisionRule } from '@sess/core';
import { isReceiptId, isSha256Hex, type RECEIPT_ALG } from '../receipt/receipt-claims.ts';

/**
 * Explicit type of a decision receipt: signed by the same keys as answer receipts, so neither may
 * ever pass for the other.
 * @see https://www.rfc-editor.org/rfc/rfc8725#section-3.11
 */
export const DECISION_TYP = 'sess-decision+jwt';

/** The outcomes a decision receipt can state: only a decided Ask gets one. */
export const DECISION_RECEIPT_OUTCOMES = ['approved', 'rejected'] as const;
export type DecisionReceiptOutcome = (typeof DECISION_RECEIPT_OUTCOMES)[number];

/** What a counted answer says: the Approve button (action `approve`) or Reject (`reject`). */
export const DECISION_INTENTS = ['approve', 'reject'] as const;
export type DecisionIntent = (typeof DECISION_INTENTS)[number];

/** The protected header of every decision receipt: nothing else is allowed in it. */
export type DecisionHeader = {
  alg: typeof RECEIPT_ALG;
  kid: string;
  typ: typeof DECISION_TYP;
};

/** One counted answer, as its own answer receipt names it. */
export interface DecisionAnswer {
  event_id: string;
  answer_sha256: string;
  intent: DecisionIntent;
}

/** The signed claims, snake_case like the answer receipt's. */
export interface DecisionClaims {
  /** Issuer: the Sess public URL that signed it. */
  iss: string;
  /** Issued at, whole seconds since the epoch. */
  iat: number;
  workspace_id: string;
  ask_id: string;
  /** Lower-case hex SHA-256 of the Ask's Surface: every counted answer's receipt names the same. */
  surface_sha256: string;
  rule: DecisionRule;
  /** With `quorum` only: how many approvals decide (1 to `max`); null for `any` and `all`. */
  quorum: number | null;
  /** How many people may answer the Ask. */
  max: number;
  /** `decisionThresholds(rule, quorum, max)`, signed so a reader sees the numbers counted against. */
  approve_at: number;
  reject_at: number;
  outcome: DecisionReceiptOutcome;
  /** When the deciding answer was accepted: ISO 8601, as `Date.prototype.toISOString` spells it. */
  decided_at: string;
  /** Every answer the Ask accepted, in event-id order (code points), each once; at most `max`. */
  answers: DecisionAnswer[];
}

/** What a signer is given: the caller's names (camelCase, like the rest of the code). */
export interface DecisionInput {
  issuer: string;
  workspaceId: string;
  askId: string;
  surfaceSha256: string;
  rule: DecisionRule;
  quorum: number | null;
  max: number;
  outcome: 'approved' | 'rejected';
  decidedAt: Date;
  /** Every answer the Ask accepted, in any order: the signer sorts them. */
  answers: ReadonlyArray<{ eventId: string; answerSha256: string; intent: 'approve' | 'reject' }>;
  /** Defaults to now; injected by tests. */
  issuedAt?: Date;
}

/**
 * A decision names at most `max` answers, so its size grows with the Ask; this bound keeps a
 * hostile string from being parsed at all. It holds about 5,000 answers with Sess's own event ids
 * (≈ 190 bytes each, encoded), 2,500 with the longest ids allowed; the signer refuses more.
 */
export const MAX_DECISION_LENGTH = 1_048_576;

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
}

/** True for the one spelling `toISOString` gives, so a timestamp compares exactly. */
export function isIsoTimestamp(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const time = Date.parse(value);
  return Number.isFinite(time) && new Date(time).toISOString() === value;
}

function isAnswer(value: unknown): value is DecisionAnswer {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const answer = value as Record<string, unknown>;
  return (
    isReceiptId(answer['event_id']) &&
    isSha256Hex(answer['answer_sha256']) &&
    (DECISION_INTENTS as readonly unknown[]).includes(answer['intent'])
  );
}

/**
 * The one shape rule of the claims (not the count, which is `decidedBy`'s): the signer refuses to
 * break it and the verifier calls a decision that does malformed. Returns the claim at fault.
 */
export function decisionShapeProblem(claims: Record<string, unknown>): string | undefined {
  if (typeof claims['iss'] !== 'string') return 'iss';
  if (!Number.isSafeInteger(claims['iat']) || (claims['iat'] as number) < 0) return 'iat';
  if (!isReceiptId(claims['workspace_id'])) return 'workspace_id';
  if (!isReceiptId(claims['ask_id'])) return 'ask_id';
  if (!isSha256Hex(claims['surface_sha256'])) return 'surface_sha256';
  if (!(DECISION_RULES as readonly unknown[]).includes(claims['rule'])) return 'rule';
  const max = claims['max'];
  if (!isCount(max)) return 'max';
  // A quorum above max could never be met (its reject threshold would be zero or less).
  const quorum = claims['quorum'];
  if (claims['rule'] === 'quorum' ? !isCount(quorum) || quorum > max : quorum !== null) return 'quorum';
  if (!isCount(claims['approve_at'])) return 'approve_at';
  if (!isCount(claims['reject_at'])) return 'reject_at';
  if (!(DECISION_RECEIPT_OUTCOMES as readonly unknown[]).includes(claims['outcome'])) return 'outcome';
  if (!isIsoTimestamp(claims['decided_at'])) return 'decided_at';
  const answers = claims['answers'];
  if (!Array.isArray(answers) || answers.length === 0 || answers.length > max || !answers.every(isAnswer)) return 'answers';
  // Strictly ascending: one order, so one decision has one encoding, and no event is counted twice.
  const ids = answers.map((answer: DecisionAnswer) => answer.event_id);
  if (ids.some((id, i) => i > 0 && compareCodePoints(ids[i - 1] as string, id) >= 0)) return 'answers';
  return undefined;
}

/** How many of the listed answers approve and how many reject: the counts `decidedBy` takes. */
export function countIntents(answers: ReadonlyArray<{ intent: DecisionIntent }>): { approved: number; rejected: number } {
  let approved = 0;
  for (const answer of answers) if (answer.intent === 'approve') approved += 1;
  return { approved, rejected: answers.length - approved };
}
