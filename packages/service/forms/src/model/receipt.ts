import { type DecisionInput, type ReceiptInput, signDecision, signReceipt } from '@sess/receipts';
import type { FormsRuntime } from '../runtime/forms-runtime.ts';

/**
 * Signs the receipt of one accepted answer with the process's active key (imported once).
 * The issuer is PUBLIC_URL; the claims pin workspace, session, revision, event, the exact
 * Surface and the answer (and the respondent of an Ask).
 */
export async function signAnswerReceipt(
  runtime: FormsRuntime,
  /** The receipt's claims but its issuer (this runtime's PUBLIC_URL), issued at the answer's time. */
  claims: Omit<ReceiptInput, 'issuer' | 'issuedAt'> & { issuedAt: Date },
): Promise<string> {
  const ring = await runtime.keyRing();
  return signReceipt(ring.signer, { issuer: runtime.publicUrl, ...claims });
}

/** Signs an Ask's decision receipt with the process's active key; the issuer is PUBLIC_URL. */
export async function signDecisionReceipt(runtime: FormsRuntime, input: Omit<DecisionInput, 'issuer'>): Promise<string> {
  const ring = await runtime.keyRing();
  return signDecision(ring.signer, { issuer: runtime.publicUrl, ...input });
}
