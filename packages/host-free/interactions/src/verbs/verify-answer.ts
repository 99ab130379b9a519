import type { AnswerView } from '@sess/contract';
import { SessError } from '@sess/core';
import { toSessError, verifyReceipt } from '@sess/receipts';
import { hashAnswer } from '@sess/surface';
import type { ToolDeps } from '../call.ts';
import type { ResponseResult } from '../results.ts';

/** What the receipt must say, from what this adapter itself knows (never from the runtime's view). */
export interface ExpectedAnswer {
  workspaceId: string;
  sessionId: string;
  revision: number;
  surfaceSha256: string;
  /** `null`: not an Ask answer; a string: that respondent. */
  respondentId: string | null;
}

/**
 * Verifies an answer's receipt for exactly this session, revision, event, Surface and workspace,
 * and that it signs the very values about to be released and the way the runtime says it came
 * (`via`, and a chat answer's principal) and who answered (`assurance`, `respondent`). The released
 * `via`, `assurance` and `respondent` are the receipt's. Resolves with the released form of the
 * answer, or throws: `SESS_UNAVAILABLE` when the key set could not be had (nothing changed), or
 * `VERIFICATION_FAILED` (the caller blocks the handle).
 */
export async function verifyAnswer(deps: ToolDeps, answer: AnswerView, expected: ExpectedAnswer): Promise<ResponseResult> {
  if (!deps.receipts) {
    throw new SessError(
      'NOT_CONFIGURED',
      'Answers cannot be verified: no receipt key set is configured. The owner must fix this.',
    );
  }
  const result = await verifyReceipt(answer.receipt, {
    keys: deps.receipts.keys,
    issuer: deps.receipts.issuer,
    expected: {
      workspaceId: expected.workspaceId,
      sessionId: expected.sessionId,
      revision: expected.revision,
      eventId: answer.eventId,
      surfaceSha256: expected.surfaceSha256,
      answerSha256: hashAnswer({ actionId: answer.actionId, values: answer.values } as Parameters<typeof hashAnswer>[0]),
      respondentId: expected.respondentId,
      // What the runtime said of the way must be what the receipt signs (an answer without it is a link answer).
      via: answer.via ?? 'link',
      viaPrincipalId: answer.viaPrincipalId ?? null,
      // Likewise the level and the account (an answer from a server without levels is a link answer).
      assurance: answer.assurance ?? 'link',
      respondent: answer.respondent ?? null,
    },
  });
  if (!result.ok) {
    deps.logger?.warn({ event: 'mcp.receipt.rejected', reason: result.reason, detail: result.message }, 'receipt did not verify');
    throw toSessError(result.reason);
  }
  const { via, via_principal_id: viaPrincipalId, assurance, respondent } = result.claims;
  return {
    eventId: answer.eventId,
    actionId: answer.actionId,
    values: answer.values,
    verified: true,
    actorAssurance: 'link_holder',
    answeredAt: answer.answeredAt,
    receipt: answer.receipt,
    via,
    ...(viaPrincipalId !== undefined ? { viaPrincipalId } : {}),
    assurance,
    ...(respondent !== undefined ? { respondent } : {}),
    // Not signed: Sess's word, for the workspace's own keys, beside the respondent the receipt signs.
    ...(respondent !== undefined && answer.respondentEmail !== undefined ? { respondentEmail: answer.respondentEmail } : {}),
  };
}
