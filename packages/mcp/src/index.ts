export {
  type Authenticate,
  type AuthenticateRequest,
  createSessMcpHttpHandler,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type RateLimit,
  type SessMcpHttpHandler,
  type SessMcpHttpHandlerOptions,
} from './http/create-sess-mcp-http-handler.ts';
export { busyResponse, type RefusalReason, type RequestAdmission, refusalMessage } from './http/request-admission.ts';
export { API_KEY_PRINCIPAL_PREFIX } from './store/api-key-principal.ts';
export {
  findHandleForReview,
  type HandleForReview,
  listHandlesForReview,
  REVIEW_STATES,
  retireHandle,
} from './store/owner-review.ts';
export {
  createPostgresHandleStore,
  HANDLE_COMPANION,
  type HandleCreateExtras,
  type PostgresHandleStoreOptions,
  stageCreateInUnit,
} from './store/postgres-handle-store.ts';
export { createSealer, type Sealer } from './store/seal.ts';
export { createServerFactory, type ScopeResolver, SERVER_INFO, TOOL_NAMES, toolError } from './tools/build-server.ts';
