export {
  countIntents,
  DECISION_INTENTS,
  DECISION_RECEIPT_OUTCOMES,
  DECISION_TYP,
  type DecisionAnswer,
  type DecisionClaims,
  type DecisionHeader,
  type DecisionInput,
  type DecisionIntent,
  type DecisionReceiptOutcome,
  MAX_DECISION_LENGTH,
} from './decision/decision-claims.ts';
export { buildDecisionClaims, signDecision } from './decision/sign-decision.ts';
export { type VerifyDecisionOptions, type VerifyDecisionResult, verifyDecision } from './decision/verify-decision.ts';
export { buildJwks, JWKS_CACHE_CONTROL, JWKS_CONTENT_TYPE, type Jwks, type PublishedJwk } from './jwks/build-jwks.ts';
export { createLocalKeySet } from './key-set/create-local-key-set.ts';
export { createRemoteKeySet, type RemoteKeySetOptions } from './key-set/create-remote-key-set.ts';
export type { KeyLookup, ReceiptKeySet } from './key-set/receipt-key-set.ts';
export { createReceiptSigner, type ReceiptSigner } from './keys/create-receipt-signer.ts';
export { createSigningKeyRing, type SigningKeyRing } from './keys/create-signing-key-ring.ts';
export { generateSigningKey, type SigningKey } from './keys/generate-signing-key.ts';
export type { ReceiptPrivateJwk, ReceiptPublicJwk } from './keys/receipt-jwk.ts';
export { MIN_SECRET_BYTES, openPrivateJwk, type SealedKeyFailure, sealPrivateJwk } from './keys/seal-private-jwk.ts';
export {
  ACTOR_ASSURANCE,
  isReceiptAssurance,
  meetsAssurance,
  RECEIPT_ALG,
  RECEIPT_ASSURANCES,
  RECEIPT_TYP,
  RECEIPT_VIAS,
  type ReceiptAssurance,
  type ReceiptClaims,
  type ReceiptHeader,
  type ReceiptInput,
  type ReceiptVia,
} from './receipt/receipt-claims.ts';
export { buildReceiptClaims, signReceipt } from './receipt/sign-receipt.ts';
export { RECEIPT_FAILURE_REASONS, type ReceiptFailureReason } from './verify/failure-reasons.ts';
export { toSessError } from './verify/to-sess-error.ts';
export {
  type ExpectedReceipt,
  type VerifyReceiptOptions,
  type VerifyReceiptResult,
  verifyReceipt,
} from './verify/verify-receipt.ts';
