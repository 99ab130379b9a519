export { type ApiOriginCheck, type ApiOriginProblem, checkApiOrigin } from './api-origin.ts';
export { type BearerChallengeInput, bearerChallenge, hasBearerCredential, readBearerToken } from './bearer.ts';
export {
  type BodyBytesRead,
  type BodyRead,
  type BodyReadFailure,
  type Expiry,
  NEVER_EXPIRES,
  readNodeBody,
  readWebBody,
  readWebBytes,
} from './bounded-body.ts';
export { canonicalJson, compareCodePoints, sha256CanonicalJson, sha256Hex } from './canonical-json.ts';
export { checkCsrfToken, csrfToken, hmacTag } from './csrf-token.ts';
export {
  DECISION_OUTCOMES,
  DECISION_RULES,
  type DecisionOutcome,
  type DecisionRule,
  decidedBy,
  decisionThresholds,
} from './decision-rule.ts';
export { ERROR_REGISTRY, type ErrorCode, type ErrorDetails, isSessError, SessError, type SessErrorBody } from './errors.ts';
export { type ChainBreak, type ChainCheck, type ChainedEvent, eventHash, GENESIS_HASH, verifyEventChain } from './event-chain.ts';
export { base32, ID_PREFIXES, type IdKind, isId, newId } from './ids.ts';
export { childPointer, escapePointerToken, toPointer } from './json-pointer.ts';
export { createLogger, type Logger, type LogMethod, REDACT_PATHS, type RootLogger } from './logger.ts';
export { isLoopbackHostname } from './loopback-hostname.ts';
export { randomBytesFast } from './random.ts';
export { createRateLimiter, type RateLimiter, type RateLimiterOptions } from './rate-limit.ts';
export {
  type BoundedSource,
  describeByteLimit,
  InputTooLargeError,
  type ReadBoundedOptions,
  readBounded,
} from './read-bounded.ts';
export { createSealer, type OpenFailure, type Sealer, SealOpenError } from './seal.ts';
export { hashSecret, newSecret, safeEqual } from './secrets.ts';
export {
  type DatabaseErrorFacts,
  databaseErrorFacts,
  ERROR_CAUSE_DEPTH,
  errorChain,
  isDatabaseError,
  markDatabaseError,
  summarizeError,
} from './summarize-error.ts';
export { createSweeper, type SweeperOptions } from './sweeper.ts';
export {
  codePointLabel,
  describeTextProblem,
  findTextProblem,
  isAcceptableText,
  type TextProblem,
  type TextProblemKind,
  type TextRuleOptions,
} from './text-rules.ts';
export { REAL_TIMERS, type Timers } from './timers.ts';
export {
  activeTracer,
  installTracer,
  type Tracer,
  type TraceSpan,
  type TraceSpanOptions,
  type TraceValue,
} from './tracing.ts';
export { newWebhookSecret, signWebhook, webhookSignatureHeader, webhookSignatureMatches } from './webhook-signature.ts';
