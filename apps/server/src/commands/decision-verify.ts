import { countIntents, type DecisionClaims, type ReceiptKeySet, type VerifyDecisionResult, verifyDecision } from '@sess/receipts';

/*
 * `sess receipt verify` given an Ask as JSON (what `GET /v1/asks/:id` returns, or `interaction.ask`
 * of sess_response): its decision receipt checked offline against the answers' receipts beside it.
 * Nothing is expected of it but its issuer (when pinned): the workspace and Ask are the decision's
 * own, read first without trust, and every answer receipt must be that Ask's.
 */

/** An Ask's decision and answers, as far as the check needs them; undefined when the JSON is not one. */
export function decisionOf(document: unknown): { receipt: string; answerReceipts: string[] } | undefined {
  if (typeof document !== 'object' || document === null) return undefined;
  const { decision, answers } = document as { decision?: { receipt?: unknown }; answers?: unknown };
  if (typeof decision?.receipt !== 'string' || !Array.isArray(answers)) return undefined;
  const answerReceipts = answers.map((answer) => (answer as { receipt?: unknown } | null)?.receipt);
  if (!answerReceipts.every((receipt): receipt is string => typeof receipt === 'string')) return undefined;
  return { receipt: decision.receipt, answerReceipts };
}

export async function verifyDecisionStandalone(
  decision: { receipt: string; answerReceipts: string[] },
  keys: ReceiptKeySet,
  issuer?: string,
): Promise<VerifyDecisionResult> {
  const claimed = unverifiedDecisionClaims(decision.receipt);
  return verifyDecision(decision.receipt, {
    keys,
    issuer: issuer ?? String(claimed.iss ?? ''),
    expected: { workspaceId: String(claimed.workspace_id ?? ''), askId: String(claimed.ask_id ?? '') },
    answerReceipts: decision.answerReceipts,
  });
}

function unverifiedDecisionClaims(jws: string): Partial<DecisionClaims> {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(jws.split('.')[1] ?? '', 'base64url').toString('utf8'));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Partial<DecisionClaims>) : {};
  } catch {
    return {};
  }
}

/** The verified decision, one line each, for a person. */
export function describeDecision(claims: DecisionClaims, kid: string): string {
  const { approved, rejected } = countIntents(claims.answers);
  const rule = claims.rule === 'quorum' ? `quorum ${claims.quorum} of ${claims.max}` : `${claims.rule} (${claims.max} places)`;
  const rows: Array<[string, string]> = [
    ['Issuer', claims.iss],
    ['Key id', kid],
    ['Workspace', claims.workspace_id],
    ['Ask', claims.ask_id],
    ['Rule', rule],
    ['Outcome', claims.outcome],
    ['Counted', `${approved} approved (${claims.approve_at} decide), ${rejected} rejected (${claims.reject_at} decide)`],
    ['Decided at', claims.decided_at],
    ['Surface hash', `sha256:${claims.surface_sha256}`],
  ];
  for (const answer of claims.answers) rows.push(['Answer', `${answer.event_id} ${answer.intent} (receipt verified)`]);
  return rows.map(([name, value]) => `  ${name.padEnd(13)}${value}`).join('\n');
}
