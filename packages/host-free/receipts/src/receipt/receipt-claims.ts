/**
 * The receipt's wire format: one protected header and one claims set, both fixed here so the
 * signer and the verifier cannot drift apart.
 */

/** The only signature algorithm Sess signs or accepts. */
export const RECEIPT_ALG = 'ES256';

/**
 * Explicit type of a receipt, so a receipt can never be confused with another JWT signed by the
 * same key and vice versa.
 * @see https://www.rfc-editor.org/rfc/rfc8725#section-3.11
 */
export const RECEIPT_TYP = 'sess-receipt+jwt';

/** What a receipt proves about the person: they held the link. Spelled as in the seed. */
export const ACTOR_ASSURANCE = 'link_holder';

/**
 * Which way an answer came: `link` (the answer page behind the link) or `chat` (the form shown
 * inside the agent's chat, posted through the connector). A receipt signed before `via` existed
 * has none; it came through the link, and the verifier reports it so.
 */
export const RECEIPT_VIAS = ['link', 'chat'] as const;
export type ReceiptVia = (typeof RECEIPT_VIAS)[number];

/** True for one of `RECEIPT_VIAS`. */
export function isReceiptVia(value: unknown): value is ReceiptVia {
  return (RECEIPT_VIAS as readonly unknown[]).includes(value);
}

/**
 * How sure Sess was of who answered: `link` (whoever held the link; nobody is known), `account`
 * (the Sess account the form was for, signed in on that browser or connected in the chat),
 * `passkey` (that account, and a WebAuthn user-verification ceremony bound to this answer).
 * Ordered from least to most. A receipt signed before `assurance` existed has none: it is `link`.
 */
export const RECEIPT_ASSURANCES = ['link', 'account', 'passkey'] as const;
export type ReceiptAssurance = (typeof RECEIPT_ASSURANCES)[number];

/** True for one of `RECEIPT_ASSURANCES`. */
export function isReceiptAssurance(value: unknown): value is ReceiptAssurance {
  return (RECEIPT_ASSURANCES as readonly unknown[]).includes(value);
}

/** True when `level` is at least `min` (`account` meets `link`, `link` does not meet `account`). */
export function meetsAssurance(level: ReceiptAssurance, min: ReceiptAssurance): boolean {
  return RECEIPT_ASSURANCES.indexOf(level) >= RECEIPT_ASSURANCES.indexOf(min);
}

/** The protected header of every receipt: nothing else is allowed in it. (A type alias, so jose's header type accepts it.) */
export type ReceiptHeader = {
  alg: typeof RECEIPT_ALG;
  kid: string;
  typ: typeof RECEIPT_TYP;
};

/**
 * The signed claims. JWT registered names where one exists (`iss`, `iat`), snake_case for the
 * rest (the JWT convention), and `actorAssurance` exactly as the seed spells it.
 */
export interface ReceiptClaims {
  /** Issuer: the Sess public URL that signed the receipt. */
  iss: string;
  /** Issued at, whole seconds since the epoch. */
  iat: number;
  workspace_id: string;
  session_id: string;
  /** The Surface revision the answer was given to (1, 2, …). */
  revision: number;
  /** The answer event id (one per accepted answer). */
  event_id: string;
  /** Lower-case hex SHA-256 of the exact Surface the person was shown. */
  surface_sha256: string;
  /** Lower-case hex SHA-256 of the answer as recorded. */
  answer_sha256: string;
  actorAssurance: typeof ACTOR_ASSURANCE;
  /** Present only on an Ask answer: the respondent who gave it. */
  respondent_id?: string;
  /** Which way the answer came. Signed on every new receipt; the verifier reports an older receipt without it as `link`. */
  via: ReceiptVia;
  /** Present exactly when `via` is `chat`: the OAuth principal whose connector carried the answer. */
  via_principal_id?: string;
  /** How sure Sess was of who answered. Signed on every new receipt; an older receipt without it verifies as `link`. */
  assurance: ReceiptAssurance;
  /**
   * Present exactly when `assurance` is above `link`: an opaque id of the answering account,
   * stable within the workspace and different in every other (an HMAC under the server secret of
   * workspace and user id), never the user id or e-mail.
   */
  respondent?: string;
  /**
   * Present exactly when `assurance` is `passkey`: the WebAuthn credential id (base64url) of the
   * passkey that confirmed this answer, as Sess stores it.
   */
  passkey_credential_id?: string;
  /**
   * Present exactly when `assurance` is `passkey`: lower-case hex SHA-256 of the answer
   * ceremony's assertion (the canonical JSON of its `id`, `authenticatorData`, `clientDataJSON`
   * and `signature`), whose challenge was bound to `"<session_id> <revision> <answer_sha256>"`.
   */
  assertion_sha256?: string;
}

/** What a signer is given: the caller's names for the claims (camelCase, like the rest of the code). */
export interface ReceiptInput {
  issuer: string;
  workspaceId: string;
  sessionId: string;
  revision: number;
  eventId: string;
  surfaceSha256: string;
  answerSha256: string;
  respondentId?: string;
  /** Which way the answer came; default `link`. */
  via?: ReceiptVia;
  /** Required with `via: 'chat'`, refused otherwise: the OAuth principal whose connector carried the answer. */
  viaPrincipalId?: string;
  /** How sure Sess was of who answered; default `link`. */
  assurance?: ReceiptAssurance;
  /** Required above `link`, refused at `link`: the opaque respondent id of the answering account. */
  respondent?: string;
  /** Required at `passkey`, refused below it: the credential id of the passkey that confirmed the answer. */
  passkeyCredentialId?: string;
  /** Required at `passkey`, refused below it: SHA-256 (hex) of the answer ceremony's assertion. */
  assertionSha256?: string;
  /** Defaults to now; injected by tests. */
  issuedAt?: Date;
}

/** Ids are opaque here, but bounded so a receipt stays small. */
export const MAX_ID_LENGTH = 200;

/** True for a lower-case hex SHA-256 digest (64 characters). Exactly one spelling, so equality is exact. */
export function isSha256Hex(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);
}

/** True for a non-empty id within `MAX_ID_LENGTH`. */
export function isReceiptId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_ID_LENGTH;
}

/** Revisions start at 1. */
export function isRevision(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
}

/**
 * The one rule tying `via` and `via_principal_id` together: a chat answer names its principal,
 * a link answer names none. The signer refuses to break it and the verifier calls a receipt
 * that does malformed. Returns the name of the claim at fault, or undefined.
 */
export function viaProblem(via: unknown, principalId: unknown): 'via' | 'via_principal_id' | undefined {
  if (!isReceiptVia(via)) return 'via';
  if (via === 'chat' ? !isReceiptId(principalId) : principalId !== undefined) return 'via_principal_id';
  return undefined;
}

/**
 * The one rule tying `assurance` and `respondent` together: above `link` the receipt names the
 * answering account's opaque id, at `link` it names nobody. The signer refuses to break it and
 * the verifier calls a receipt that does malformed. Returns the claim at fault, or undefined.
 */
export function assuranceProblem(assurance: unknown, respondent: unknown): 'assurance' | 'respondent' | undefined {
  if (!isReceiptAssurance(assurance)) return 'assurance';
  if (assurance === 'link' ? respondent !== undefined : !isReceiptId(respondent)) return 'respondent';
  return undefined;
}

/**
 * The one rule tying `assurance` to its passkey proof: at `passkey` the receipt names the
 * credential and the assertion's hash, below it neither. The signer refuses to break it and the
 * verifier calls a receipt that does malformed. Returns the claim at fault, or undefined.
 */
export function passkeyProblem(
  assurance: ReceiptAssurance,
  credentialId: unknown,
  assertionSha256: unknown,
): 'passkey_credential_id' | 'assertion_sha256' | undefined {
  const passkey = assurance === 'passkey';
  if (passkey ? !isReceiptId(credentialId) : credentialId !== undefined) return 'passkey_credential_id';
  if (passkey ? !isSha256Hex(assertionSha256) : assertionSha256 !== undefined) return 'assertion_sha256';
  return undefined;
}
