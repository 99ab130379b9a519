import { type AnswerValue, type AnswerView, AnswerViewSchema } from '@sess/contract';
import { type ExpectedReceipt, type ReceiptClaims, type ReceiptKeySet, verifyReceipt } from '@sess/receipts';
import { SessClientError } from '../errors/sess-client-error.ts';
import { hashAnswer } from './hash-answer.ts';
import { refused, verificationError } from './receipt-refusal.ts';

/** What `verifyResponse` checks the answer against: what the agent itself knows, never what the answer says. */
export interface VerifyResponseInput {
  /** The answer as a read returned it (`session.response`, or one of an Ask's `answers`). */
  response: AnswerView;
  /** The session (or Ask) the agent created. */
  sessionId: string;
  /** The revision the agent is waiting on. */
  revision: number;
  /** The answer event the agent acts on; default the response's own `eventId`. */
  eventId?: string | undefined;
  /** SHA-256 of the Surface the agent showed, as its create or publish returned it. */
  surfaceSha256: string;
  /** The workspace the API key acts in (`result.workspaceId` of the create). */
  workspaceId: string;
  /**
   * An Ask respondent (`rsp_…`) the answer must be from. Omitted: the receipt must name the
   * respondent the answer shows, and an interaction's answer must name none.
   */
  respondentId?: string | null | undefined;
  /**
   * The least assurance the agent accepts (`link` < `account` < `passkey`): an answer given below
   * it fails with reason `ASSURANCE_TOO_LOW`, however well it verifies otherwise. Omitted: any.
   */
  minAssurance?: 'link' | 'account' | 'passkey' | undefined;
}

/** A verified answer: the values the receipt signs, and the receipt's claims. */
export interface VerifiedResponse {
  eventId: string;
  revision: number;
  actionId: string;
  /** Untrusted human input, though verified to be what the person sent: validate before acting. */
  values: Record<string, AnswerValue>;
  respondentId: string | undefined;
  /**
   * Which way the person answered, as the receipt signs it: `link` (the answer page) or `chat`
   * (the form inside the agent's chat). A receipt from before `via` existed reads `link`.
   */
  via: 'link' | 'chat';
  /** A chat answer only: the OAuth principal whose connector carried it (the receipt's `via_principal_id`). */
  viaPrincipalId?: string;
  /**
   * How sure Sess was of who answered, as the receipt signs it: `link` (whoever held the link),
   * `account` (the signed-in account the form was for), `passkey`. A receipt from before levels reads `link`.
   */
  assurance: 'link' | 'account' | 'passkey';
  /** Above `link`: the receipt's opaque id of the answering account (stable within the workspace). */
  respondent?: string;
  /**
   * Above `link`, when the response was read with one of the workspace's own API keys: the
   * answering account's e-mail, as Sess's records say. The receipt does not sign it (it signs `respondent`).
   */
  respondentEmail?: string;
  /**
   * At `passkey` only: the credential id of the passkey that confirmed this very answer, and the
   * SHA-256 of that WebAuthn assertion (its challenge was bound to session, revision and answer hash).
   */
  passkeyCredentialId?: string;
  assertionSha256?: string;
  /** The key that signed it (`sk_…`). */
  kid: string;
  claims: ReceiptClaims;
}

/** How receipts are verified: the key set (one per client) and the issuer. */
export interface ReceiptVerifierConfig {
  keys: ReceiptKeySet;
  issuer: string;
}

const OPERATION = 'verifyResponse';

/**
 * Verifies an answer before the agent acts on it: the answer is for exactly this session,
 * revision, event, Surface and workspace, its values hash to the `answer_sha256` its receipt
 * signs, and the receipt (compact JWS, ES256) verifies with a key from the server's JWKS.
 * A key set that cannot be fetched is `transport` (retryable: nothing is wrong with the answer
 * yet); every other failure is `protocol` with `code` VERIFICATION_FAILED and the verifier's
 * `reason` (`BAD_SIGNATURE`, `UNKNOWN_KEY_ID`, `SESSION_MISMATCH`, `VIA_MISMATCH`,
 * `ASSURANCE_TOO_LOW` below `minAssurance`, …). The result says which way the person answered
 * (`via`) and how sure Sess was of who they are (`assurance`, `respondent`), from the verified receipt.
 */
export async function verifyResponse(config: ReceiptVerifierConfig, input: VerifyResponseInput): Promise<VerifiedResponse> {
  // What the agent must know for itself; without it there is nothing to verify against.
  for (const name of ['sessionId', 'surfaceSha256', 'workspaceId'] as const) {
    if (typeof input?.[name] !== 'string' || input[name] === '') {
      throw new SessClientError({ kind: 'configuration', operation: OPERATION, message: `verifyResponse needs ${name}.` });
    }
  }
  if (!Number.isSafeInteger(input.revision) || input.revision < 1) {
    throw new SessClientError({
      kind: 'configuration',
      operation: OPERATION,
      message: 'verifyResponse needs revision (from 1).',
    });
  }
  const parsed = AnswerViewSchema.safeParse(input?.response);
  if (!parsed.success) throw refused(OPERATION, 'answer', 'MALFORMED', 'response is not an answer as /v1 returns it');
  const response = parsed.data;
  // The answer's own fields first: a mismatch here needs no key set.
  if (response.revision !== input.revision)
    throw refused(OPERATION, 'answer', 'REVISION_MISMATCH', 'the answer is for another revision');
  if (input.eventId !== undefined && response.eventId !== input.eventId) {
    throw refused(OPERATION, 'answer', 'EVENT_MISMATCH', 'the answer is another event');
  }
  if (response.surfaceSha256 !== input.surfaceSha256)
    throw refused(OPERATION, 'answer', 'SURFACE_MISMATCH', 'the answer is to another Surface');
  const answerSha256 = await hashAnswer({ actionId: response.actionId, values: response.values });
  if (response.answerSha256 !== answerSha256)
    throw refused(OPERATION, 'answer', 'ANSWER_MISMATCH', 'the values do not hash to answerSha256');
  const shownRespondent = response.respondentId ?? null;
  if (input.respondentId !== undefined && shownRespondent !== input.respondentId) {
    throw refused(OPERATION, 'answer', 'RESPONDENT_MISMATCH', 'the answer is from another respondent');
  }

  const expected: ExpectedReceipt = {
    workspaceId: input.workspaceId,
    sessionId: input.sessionId,
    revision: input.revision,
    eventId: input.eventId ?? response.eventId,
    surfaceSha256: input.surfaceSha256,
    answerSha256,
    respondentId: input.respondentId ?? shownRespondent,
    // The way the answer says it came must be the way its receipt signs (none said: the link).
    via: response.via ?? 'link',
    viaPrincipalId: response.viaPrincipalId ?? null,
    // Likewise the level and the account it names (none said: link, nobody).
    assurance: response.assurance ?? 'link',
    respondent: response.respondent ?? null,
    ...(input.minAssurance !== undefined ? { minAssurance: input.minAssurance } : {}),
  };
  const result = await verifyReceipt(response.receipt, { keys: config.keys, issuer: config.issuer, expected });
  if (!result.ok) throw verificationError(OPERATION, 'answer', result);
  return {
    eventId: response.eventId,
    revision: response.revision,
    actionId: response.actionId,
    values: response.values,
    respondentId: response.respondentId,
    via: result.claims.via,
    ...(result.claims.via_principal_id !== undefined ? { viaPrincipalId: result.claims.via_principal_id } : {}),
    assurance: result.claims.assurance,
    ...(result.claims.respondent !== undefined ? { respondent: result.claims.respondent } : {}),
    ...(result.claims.respondent !== undefined && response.respondentEmail !== undefined
      ? { respondentEmail: response.respondentEmail }
      : {}),
    ...(result.claims.passkey_credential_id !== undefined ? { passkeyCredentialId: result.claims.passkey_credential_id } : {}),
    ...(result.claims.assertion_sha256 !== undefined ? { assertionSha256: result.claims.assertion_sha256 } : {}),
    kid: result.kid,
    claims: result.claims,
  };
}
