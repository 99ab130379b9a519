import { type AnswerValue, type AskView, AskViewSchema } from '@sess/contract';
import { countIntents, type DecisionClaims, type ReceiptKeySet, verifyDecision as verifyDecisionReceipt } from '@sess/receipts';
import { SessClientError } from '../errors/sess-client-error.ts';
import { hashAnswer } from './hash-answer.ts';
import { refused, verificationError } from './receipt-refusal.ts';

/** Who the agent is: the workspace the decision must be of. */
export interface VerifyDecisionOptions {
  /**
   * The workspace the API key acts in (`workspaceId` of the read that returned the Ask). Omitted:
   * the client's `expectedWorkspaceId`, else the workspace the decision receipt names (then the
   * check only holds the decision and every answer to one workspace, not to yours).
   */
  workspaceId?: string | undefined;
}

/** A verified decision: the outcome and counts its receipt signs, and the answers it counts. */
export interface VerifiedDecision {
  askId: string;
  outcome: 'approved' | 'rejected';
  rule: DecisionClaims['rule'];
  quorum: number | null;
  max: number;
  approved: number;
  rejected: number;
  approveAt: number;
  rejectAt: number;
  decidedAt: string;
  /** Every answer the decision counts, in event-id order, each verified against its own receipt. */
  answers: Array<{
    eventId: string;
    actionId: 'approve' | 'reject';
    /** Untrusted human input, though verified to be what the person sent: validate before acting. */
    values: Record<string, AnswerValue>;
    respondentId: string | undefined;
  }>;
  /** The key that signed the decision (`sk_…`). */
  kid: string;
  claims: DecisionClaims;
}

/** How receipts are verified: the key set (one per client), the issuer, and the configured workspace. */
export interface DecisionVerifierConfig {
  keys: ReceiptKeySet;
  issuer: string;
  expectedWorkspaceId?: string | undefined;
}

const OPERATION = 'verifyDecision';
const refuse = (reason: Parameters<typeof refused>[2], message: string) => refused(OPERATION, 'decision', reason, message);

/** Only an Ask that decided has a decision receipt; anything else is the caller's mistake. */
function decided(ask: AskView): { receipt: string; decision: NonNullable<AskView['decision']> } {
  const { decision } = ask;
  if (decision === undefined || decision.outcome === 'pending' || decision.outcome === 'undecided') {
    const why =
      decision === undefined ? 'the Ask does not decide (made without respondents.decide)' : `its outcome is ${decision.outcome}`;
    throw new SessClientError({
      kind: 'configuration',
      operation: OPERATION,
      message: `verifyDecision needs an Ask that decided approved or rejected: ${why}.`,
    });
  }
  if (decision.receipt === undefined) throw refuse('MALFORMED', 'the Ask decided but carries no decision receipt');
  return { receipt: decision.receipt, decision };
}

/** The workspace a receipt names, read unverified: only as the expectation when the caller gave none. */
function namedWorkspace(jws: string): string {
  try {
    const claims = JSON.parse(new TextDecoder().decode(base64urlBytes(jws.split('.')[1] ?? '')));
    return typeof claims?.workspace_id === 'string' ? claims.workspace_id : '';
  } catch {
    return '';
  }
}

function base64urlBytes(segment: string): Uint8Array {
  const binary = atob(segment.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/**
 * Verifies an Ask's decision before the agent acts on it: the decision receipt (compact JWS,
 * ES256, typ `sess-decision+jwt`) verifies with a key from the server's JWKS for this Ask and
 * workspace; it counts exactly the Ask's answers, each of whose receipts verifies and whose
 * `{ actionId, values }` hash to what the decision lists, with the intent of its button; its
 * rule, thresholds, counts and outcome are @sess/core's and are the ones `ask.decision` shows.
 * A key set that cannot be fetched is `transport` (retryable); every other failure is `protocol`
 * with `code` VERIFICATION_FAILED and the verifier's `reason` (`DECISION_COUNT_MISMATCH`,
 * `DECISION_ANSWER_MISSING`, `ANSWER_MISMATCH`, …). An Ask that does not decide, or has not
 * decided, is `configuration`: there is nothing to verify yet.
 */
export async function verifyDecision(
  config: DecisionVerifierConfig,
  ask: AskView,
  options: VerifyDecisionOptions = {},
): Promise<VerifiedDecision> {
  const parsed = AskViewSchema.safeParse(ask);
  if (!parsed.success) throw refuse('MALFORMED', 'ask is not an Ask as GET /v1/asks/:id returns it');
  const view = parsed.data;
  const { receipt, decision } = decided(view);
  // The answers' own fields first: a mismatch here needs no key set.
  const byEvent = new Map<string, AskView['answers'][number] & { answerSha256: string }>();
  for (const answer of view.answers) {
    if (byEvent.has(answer.eventId)) throw refuse('DECISION_ANSWER_DUPLICATE', `the Ask shows ${answer.eventId} twice`);
    if (answer.surfaceSha256 !== view.surfaceSha256)
      throw refuse('SURFACE_MISMATCH', `${answer.eventId} answers another Surface`);
    const answerSha256 = await hashAnswer({ actionId: answer.actionId, values: answer.values });
    if (answer.answerSha256 !== answerSha256)
      throw refuse('ANSWER_MISMATCH', `the values of ${answer.eventId} do not hash to answerSha256`);
    byEvent.set(answer.eventId, answer);
  }

  const workspaceId = options.workspaceId ?? config.expectedWorkspaceId ?? namedWorkspace(receipt);
  const result = await verifyDecisionReceipt(receipt, {
    keys: config.keys,
    issuer: config.issuer,
    expected: { workspaceId, askId: view.askId },
    answerReceipts: view.answers.map((answer) => answer.receipt),
  });
  if (!result.ok) throw verificationError(OPERATION, 'decision', result);
  const { claims } = result;

  // The decision the Ask shows must be the one its receipt signs.
  if (claims.surface_sha256 !== view.surfaceSha256) throw refuse('SURFACE_MISMATCH', 'the decision is about another Surface');
  const sameRule =
    claims.rule === decision.rule &&
    claims.quorum === decision.quorum &&
    claims.max === view.counts.max &&
    claims.approve_at === decision.approveAt &&
    claims.reject_at === decision.rejectAt;
  if (!sameRule) throw refuse('DECISION_THRESHOLD_MISMATCH', 'the Ask shows another rule or thresholds than its receipt signs');
  const counts = countIntents(claims.answers);
  const sameCount =
    claims.outcome === decision.outcome &&
    counts.approved === decision.approved &&
    counts.rejected === decision.rejected &&
    decision.decidedAt !== null &&
    Date.parse(claims.decided_at) === Date.parse(decision.decidedAt);
  if (!sameCount) throw refuse('DECISION_COUNT_MISMATCH', 'the Ask shows another outcome, count or time than its receipt signs');

  const answers: VerifiedDecision['answers'] = [];
  for (const listed of claims.answers) {
    const answer = byEvent.get(listed.event_id);
    if (answer === undefined) throw refuse('DECISION_ANSWER_MISSING', `the Ask does not show ${listed.event_id}`);
    byEvent.delete(listed.event_id);
    if (answer.answerSha256 !== listed.answer_sha256)
      throw refuse('ANSWER_MISMATCH', `${listed.event_id} is not the answer counted`);
    // The intent counted is the button pressed: Approve is action `approve`, Reject `reject`.
    if (answer.actionId !== listed.intent) {
      throw refuse(
        'DECISION_COUNT_MISMATCH',
        `${listed.event_id} is counted as ${listed.intent} but its action is ${answer.actionId}`,
      );
    }
    answers.push({ eventId: listed.event_id, actionId: listed.intent, values: answer.values, respondentId: answer.respondentId });
  }
  const [uncounted] = byEvent.keys();
  if (uncounted !== undefined) throw refuse('DECISION_ANSWER_NOT_COUNTED', `the decision does not count ${uncounted}`);

  return {
    askId: claims.ask_id,
    outcome: claims.outcome,
    rule: claims.rule,
    quorum: claims.quorum,
    max: claims.max,
    approved: counts.approved,
    rejected: counts.rejected,
    approveAt: claims.approve_at,
    rejectAt: claims.reject_at,
    decidedAt: claims.decided_at,
    answers,
    kid: result.kid,
    claims,
  };
}
