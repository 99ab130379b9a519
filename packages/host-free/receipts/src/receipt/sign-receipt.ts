import type { ReceiptSigner } from '../keys/create-receipt-signer.ts';
import { signEs256 } from './es256.ts';
import {
  ACTOR_ASSURANCE,
  assuranceProblem,
  isReceiptId,
  isRevision,
  isSha256Hex,
  passkeyProblem,
  RECEIPT_ALG,
  RECEIPT_TYP,
  type ReceiptClaims,
  type ReceiptHeader,
  type ReceiptInput,
  viaProblem,
} from './receipt-claims.ts';

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * Builds the claims set from the caller's input. Refuses anything the verifier would later call
 * malformed: signing a receipt that can never verify would only move the failure to the agent.
 * @throws TypeError on a bad input (a bug in the caller, not a person's mistake).
 */
export function buildReceiptClaims(input: ReceiptInput): ReceiptClaims {
  if (typeof input.issuer !== 'string' || !URL.canParse(input.issuer)) throw new TypeError('issuer must be an absolute URL');
  for (const name of ['workspaceId', 'sessionId', 'eventId'] as const) {
    if (!isReceiptId(input[name])) throw new TypeError(`${name} must be a non-empty string of at most 200 characters`);
  }
  if (input.respondentId !== undefined && !isReceiptId(input.respondentId)) {
    throw new TypeError('respondentId must be a non-empty string of at most 200 characters');
  }
  const via = input.via ?? 'link';
  const viaFault = viaProblem(via, input.viaPrincipalId);
  if (viaFault === 'via') throw new TypeError("via must be 'link' or 'chat'");
  if (viaFault) {
    throw new TypeError("viaPrincipalId is required with via 'chat' (at most 200 characters) and refused with via 'link'");
  }
  const assurance = input.assurance ?? 'link';
  const assuranceFault = assuranceProblem(assurance, input.respondent);
  if (assuranceFault === 'assurance') throw new TypeError("assurance must be 'link', 'account' or 'passkey'");
  if (assuranceFault) {
    throw new TypeError('respondent is required above assurance link (at most 200 characters) and refused at link');
  }
  if (passkeyProblem(assurance, input.passkeyCredentialId, input.assertionSha256)) {
    throw new TypeError(
      'passkeyCredentialId and assertionSha256 (64 lower-case hex characters) are required at assurance passkey and refused below it',
    );
  }
  if (!isRevision(input.revision)) throw new TypeError('revision must be a positive integer');
  if (!isSha256Hex(input.surfaceSha256)) throw new TypeError('surfaceSha256 must be 64 lower-case hex characters');
  if (!isSha256Hex(input.answerSha256)) throw new TypeError('answerSha256 must be 64 lower-case hex characters');
  const issuedAt = input.issuedAt ?? new Date();
  const claims: ReceiptClaims = {
    iss: input.issuer,
    iat: Math.floor(issuedAt.getTime() / 1000),
    workspace_id: input.workspaceId,
    session_id: input.sessionId,
    revision: input.revision,
    event_id: input.eventId,
    surface_sha256: input.surfaceSha256,
    answer_sha256: input.answerSha256,
    actorAssurance: ACTOR_ASSURANCE,
    via,
    assurance,
  };
  if (input.respondentId !== undefined) claims.respondent_id = input.respondentId;
  if (input.viaPrincipalId !== undefined) claims.via_principal_id = input.viaPrincipalId;
  if (input.respondent !== undefined) claims.respondent = input.respondent;
  if (input.passkeyCredentialId !== undefined) claims.passkey_credential_id = input.passkeyCredentialId;
  if (input.assertionSha256 !== undefined) claims.assertion_sha256 = input.assertionSha256;
  return claims;
}

/**
 * Signs an answer receipt: a compact JWS (ES256) with the protected header
 * `{ alg: 'ES256', kid, typ: 'sess-receipt+jwt' }` over the claims of `buildReceiptClaims`.
 * @see https://www.rfc-editor.org/rfc/rfc7515#section-7.1
 */
export async function signReceipt(signer: ReceiptSigner, input: ReceiptInput): Promise<string> {
  const header: ReceiptHeader = { alg: RECEIPT_ALG, kid: signer.kid, typ: RECEIPT_TYP };
  const signingInput = `${base64url(header)}.${base64url(buildReceiptClaims(input))}`;
  return `${signingInput}.${signEs256(signer.privateKey, signingInput)}`;
}
