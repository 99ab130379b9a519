import type { AskDecision } from '@sess/contract';
import { SessError } from '@sess/core';
import { countIntents, toSessError, verifyDecision } from '@sess/receipts';
import type { ToolDeps } from '../call.ts';
import type { AskResult } from '../results.ts';

/**
 * An Ask's decision as the tools release it, held against the answers whose receipts already
 * verified: the counts must be theirs (a vote lost or added on the way is refused), and once
 * decided the decision receipt must verify for this workspace and Ask against exactly those
 * answers' receipts, and sign the outcome and counts the read says. Throws `VERIFICATION_FAILED`
 * (the caller blocks the handle) or `NOT_CONFIGURED`.
 */
export async function verifyAskDecision(
  deps: ToolDeps,
  decision: AskDecision,
  answers: ReadonlyArray<NonNullable<AskResult['answers']>[number] & { receipt: string }>,
  expected: { workspaceId: string; askId: string },
): Promise<AskDecision> {
  const approved = answers.filter((answer) => answer.actionId === 'approve').length;
  const rejected = answers.filter((answer) => answer.actionId === 'reject').length;
  if (decision.approved !== approved || decision.rejected !== rejected || approved + rejected !== answers.length)
    throw mismatch(deps, 'the decision counts answers that are not its verified answers');
  const decided = decision.outcome === 'approved' || decision.outcome === 'rejected';
  if (!decided) {
    if (decision.receipt !== undefined) throw mismatch(deps, 'an undecided Ask with a decision receipt');
    return decision;
  }
  if (decision.receipt === undefined) throw mismatch(deps, 'a decided Ask without its decision receipt');
  if (!deps.receipts)
    throw new SessError(
      'NOT_CONFIGURED',
      'Decisions cannot be verified: no receipt key set is configured. The owner must fix this.',
    );
  const result = await verifyDecision(decision.receipt, {
    keys: deps.receipts.keys,
    issuer: deps.receipts.issuer,
    expected,
    answerReceipts: answers.map((answer) => answer.receipt),
  });
  if (!result.ok) {
    deps.logger?.warn(
      { event: 'mcp.decision.rejected', reason: result.reason, detail: result.message },
      'decision did not verify',
    );
    throw toSessError(result.reason);
  }
  const { claims } = result;
  if (
    claims.outcome !== decision.outcome ||
    countIntents(claims.answers).approved !== approved ||
    claims.answers.length !== answers.length
  )
    throw mismatch(deps, 'the decision read is not the one its receipt signs');
  return decision;
}

function mismatch(deps: ToolDeps, detail: string): SessError {
  deps.logger?.warn({ event: 'mcp.decision.rejected', reason: 'DECISION_COUNT_MISMATCH', detail }, 'decision did not verify');
  return toSessError('DECISION_COUNT_MISMATCH');
}
