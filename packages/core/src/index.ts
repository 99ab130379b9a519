export { ERROR_REGISTRY, SessError, isSessError, type ErrorCode, type ErrorDetails, type SessErrorBody } from './errors.ts';
export { ID_PREFIXES, base32, isId, newId, type IdKind } from './ids.ts';
export { childPointer, escapePointerToken, toPointer } from './json-pointer.ts';
export { REDACT_PATHS, createLogger, type Logger } from './logger.ts';
export { hashSecret, newSecret, safeEqual } from './secrets.ts';
