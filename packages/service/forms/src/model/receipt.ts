import { signReceipt } from '@sess/receipts';
import type { FormsRuntime } from '../runtime/forms-runtime.ts';

/**
 * Signs the receipt of one accepted answer with the process's active key (imported once).
 * The issuer is PUBLIC_URL; the claims pin workspace, session, revision, event, the exact
 * Surface and the answer (and the respondent of an Ask).
 */
export async function signAnswerReceipt(
  runtime: FormsRuntime,
  claims: {
    workspaceId: string;
    sessionId: string;
    revision: number;
    eventId: string;
    surfaceSha256: string;
    answerSha256: string;
    respondentId?: string;
    issuedAt: Date;
  },
): Promise<string> {
  const ring = await runtime.keyRing();
  return signReceipt(ring.signer, { issuer: runtime.publicUrl, ...claims });
}
