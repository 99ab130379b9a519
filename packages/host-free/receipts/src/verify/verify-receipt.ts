import type { ReceiptKeySet } from '../key-set/receipt-key-set.ts';
import {
  ACTOR_ASSURANCE,
  assuranceProblem,
  isReceiptId,
  isRevision,
  isSha256Hex,
  meetsAssurance,
  passkeyProblem,
  RECEIPT_TYP,
  type ReceiptAssurance,
  type ReceiptClaims,
  type ReceiptVia,
  viaProblem,
} from '../receipt/receipt-claims.ts';
import { fail, parsePayloadObject, type VerifyFailure, verifySignedJws } from './compact-jws.ts';
import type { ReceiptFailureReason } from './failure-reasons.ts';

/** What the verifier already knows; the receipt must say exactly the same. */
export interface ExpectedReceipt {
  workspaceId: string;
  sessionId: string;
  revision: number;
  eventId: string;
  /** Lower-case hex; compared exactly. */
  surfaceSha256: string;
  /** Lower-case hex of the answer the caller holds. Omit only when the caller holds no answer data. */
  answerSha256?: string;
  /** A string: must match. `null`: the receipt must have none (not an Ask answer). Omitted: not checked (the event id already pins the answer). */
  respondentId?: string | null;
  /** Which way the caller was told the answer came: must match (an older receipt without `via` is `link`). Omitted: not checked. */
  via?: ReceiptVia;
  /** A string: the chat answer's principal must be this one. `null`: the receipt must name none. Omitted: not checked. */
  viaPrincipalId?: string | null;
  /** The assurance the caller was told: must match (an older receipt without `assurance` is `link`). Omitted: not checked. */
  assurance?: ReceiptAssurance;
  /** A string: the receipt's `respondent` must be this one. `null`: it must name none. Omitted: not checked. */
  respondent?: string | null;
  /** The least assurance the caller accepts: an answer below it fails with `ASSURANCE_TOO_LOW`. Omitted: any. */
  minAssurance?: ReceiptAssurance;
}

/** Inputs of `verifyReceipt`. */
export interface VerifyReceiptOptions {
  /** Where public keys come from: `createLocalKeySet` or `createRemoteKeySet`, built once and reused. */
  keys: ReceiptKeySet;
  /** The exact issuer expected in `iss`. */
  issuer: string;
  expected: ExpectedReceipt;
}

/** A failure names one stable reason; `message` is for logs and never carries secrets. */
export type VerifyReceiptResult =
  | { ok: true; claims: ReceiptClaims; kid: string }
  | { ok: false; reason: ReceiptFailureReason; message: string };

/** A receipt is about 700 bytes; anything far larger is refused before any parsing. */
export const MAX_RECEIPT_LENGTH = 8192;

function parseClaims(payload: Uint8Array): ReceiptClaims | VerifyFailure {
  const parsed = parsePayloadObject(payload);
  if (!parsed.ok) return parsed;
  const { value } = parsed;
  const malformed = (claim: string) => fail('MALFORMED', `claim ${claim} is missing or has the wrong type`);
  if (typeof value['iss'] !== 'string') return malformed('iss');
  if (!Number.isSafeInteger(value['iat']) || (value['iat'] as number) < 0) return malformed('iat');
  for (const claim of ['workspace_id', 'session_id', 'event_id'] as const) {
    if (!isReceiptId(value[claim])) return malformed(claim);
  }
  if (!isRevision(value['revision'])) return malformed('revision');
  if (!isSha256Hex(value['surface_sha256'])) return malformed('surface_sha256');
  if (!isSha256Hex(value['answer_sha256'])) return malformed('answer_sha256');
  if (typeof value['actorAssurance'] !== 'string') return malformed('actorAssurance');
  if (value['respondent_id'] !== undefined && !isReceiptId(value['respondent_id'])) return malformed('respondent_id');
  // A receipt signed before `via` existed has none: it came through the link.
  const via = value['via'] === undefined ? 'link' : value['via'];
  const viaFault = viaProblem(via, value['via_principal_id']);
  if (viaFault) return malformed(viaFault);
  // A receipt signed before `assurance` existed has none: whoever held the link answered.
  const assurance = value['assurance'] === undefined ? 'link' : value['assurance'];
  const assuranceFault = assuranceProblem(assurance, value['respondent']);
  if (assuranceFault) return malformed(assuranceFault);
  const passkeyFault = passkeyProblem(assurance as ReceiptAssurance, value['passkey_credential_id'], value['assertion_sha256']);
  if (passkeyFault) return malformed(passkeyFault);
  // Rebuilt field by field: the caller gets exactly the claims that were checked, nothing extra.
  const claims: ReceiptClaims = {
    iss: value['iss'],
    iat: value['iat'] as number,
    workspace_id: value['workspace_id'] as string,
    session_id: value['session_id'] as string,
    revision: value['revision'],
    event_id: value['event_id'] as string,
    surface_sha256: value['surface_sha256'],
    answer_sha256: value['answer_sha256'],
    actorAssurance: value['actorAssurance'] as typeof ACTOR_ASSURANCE,
    via: via as ReceiptVia,
    assurance: assurance as ReceiptAssurance,
  };
  if (value['respondent_id'] !== undefined) claims.respondent_id = value['respondent_id'] as string;
  if (value['via_principal_id'] !== undefined) claims.via_principal_id = value['via_principal_id'] as string;
  if (value['respondent'] !== undefined) claims.respondent = value['respondent'] as string;
  if (value['passkey_credential_id'] !== undefined) claims.passkey_credential_id = value['passkey_credential_id'] as string;
  if (value['assertion_sha256'] !== undefined) claims.assertion_sha256 = value['assertion_sha256'] as string;
  return claims;
}

/** Each claim against what the caller expects, in a fixed order so the reason is deterministic. */
function checkClaims(claims: ReceiptClaims, issuer: string, expected: ExpectedReceipt): VerifyFailure | undefined {
  const rules: ReadonlyArray<readonly [holds: boolean, reason: ReceiptFailureReason, message: string]> = [
    [claims.iss === issuer, 'ISSUER_MISMATCH', 'iss is not the expected issuer'],
    [claims.actorAssurance === ACTOR_ASSURANCE, 'ACTOR_ASSURANCE_MISMATCH', `actorAssurance is not ${ACTOR_ASSURANCE}`],
    [claims.workspace_id === expected.workspaceId, 'WORKSPACE_MISMATCH', 'workspace_id is not the expected workspace'],
    [claims.session_id === expected.sessionId, 'SESSION_MISMATCH', 'session_id is not the expected session'],
    [claims.revision === expected.revision, 'REVISION_MISMATCH', 'revision is not the expected revision'],
    [claims.event_id === expected.eventId, 'EVENT_MISMATCH', 'event_id is not the expected answer event'],
    [claims.surface_sha256 === expected.surfaceSha256, 'SURFACE_MISMATCH', 'surface_sha256 is not the Surface shown'],
    [
      expected.answerSha256 === undefined || claims.answer_sha256 === expected.answerSha256,
      'ANSWER_MISMATCH',
      'answer_sha256 is not the answer held',
    ],
    [
      expected.respondentId === undefined || (claims.respondent_id ?? null) === expected.respondentId,
      'RESPONDENT_MISMATCH',
      'respondent_id is not the expected respondent',
    ],
    [expected.via === undefined || claims.via === expected.via, 'VIA_MISMATCH', 'via is not the way the answer was said to come'],
    [
      expected.viaPrincipalId === undefined || (claims.via_principal_id ?? null) === expected.viaPrincipalId,
      'VIA_MISMATCH',
      'via_principal_id is not the expected principal',
    ],
    [
      expected.assurance === undefined || claims.assurance === expected.assurance,
      'ASSURANCE_MISMATCH',
      'assurance is not the level the answer was said to have',
    ],
    [
      expected.respondent === undefined || (claims.respondent ?? null) === expected.respondent,
      'ASSURANCE_MISMATCH',
      'respondent is not the expected account',
    ],
    [
      expected.minAssurance === undefined || meetsAssurance(claims.assurance, expected.minAssurance),
      'ASSURANCE_TOO_LOW',
      `assurance ${claims.assurance} is below the required ${expected.minAssurance}`,
    ],
  ];
  for (const [holds, reason, message] of rules) if (!holds) return fail(reason, message);
  return undefined;
}

/**
 * Verifies an answer receipt: compact ES256 JWS, strict header, a key from `keys` by kid, a
 * valid signature, and then every claim equal to what the caller expects. Never throws on
 * input; every outcome is a result (map a failure with `toSessError`).
 * @see https://www.rfc-editor.org/rfc/rfc7515#section-5.2
 */
export async function verifyReceipt(jws: string, options: VerifyReceiptOptions): Promise<VerifyReceiptResult> {
  const signed = await verifySignedJws(jws, { keys: options.keys, typ: RECEIPT_TYP, maxLength: MAX_RECEIPT_LENGTH });
  if (!signed.ok) return signed;
  const claims = parseClaims(signed.payload);
  if ('ok' in claims) return claims;
  const mismatch = checkClaims(claims, options.issuer, options.expected);
  if (mismatch) return mismatch;
  return { ok: true, claims, kid: signed.kid };
}
