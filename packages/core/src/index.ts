export { canonicalJson, compareCodePoints, sha256CanonicalJson, sha256Hex } from './canonical-json.ts';
export { ERROR_REGISTRY, type ErrorCode, type ErrorDetails, isSessError, SessError, type SessErrorBody } from './errors.ts';
export { base32, ID_PREFIXES, type IdKind, isId, newId } from './ids.ts';
export { childPointer, escapePointerToken, toPointer } from './json-pointer.ts';
export { createLogger, type Logger, REDACT_PATHS } from './logger.ts';
export { createRateLimiter, type RateLimiter, type RateLimiterOptions } from './rate-limit.ts';
export { hashSecret, newSecret, safeEqual } from './secrets.ts';
