export type {
  AnswerView,
  AskView,
  BackendContext,
  CreatedAsk,
  CreatedSession,
  CreateOptions,
  SessBackend,
  SessionSummary,
  SessionView,
  WithdrawnView,
} from './backend/sess-backend.ts';
export {
  type AuthenticateRequest,
  createSessMcpHttpHandler,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type RateLimit,
  type SessMcpHttpHandler,
  type SessMcpHttpHandlerOptions,
} from './http/create-sess-mcp-http-handler.ts';
export { bearerChallenge } from './http/preflight.ts';
export {
  type CreateIntent,
  HANDLE_STATES,
  type HandleBinding,
  type HandlePatch,
  type HandleRecord,
  type HandleState,
  type HandleStore,
  type HandleStoreFactory,
  LIST_STATUSES,
  type ListStatus,
  MAX_UNFINISHED_PER_PRINCIPAL,
  type SavedMutation,
  type SavedResponse,
  type SealedData,
  UNFINISHED_STATES,
} from './store/handle-store.ts';
export {
  findHandleForReview,
  type HandleForReview,
  listHandlesForReview,
  REVIEW_STATES,
  retireHandle,
} from './store/owner-review.ts';
export { createPostgresHandleStore, type PostgresHandleStoreOptions } from './store/postgres-handle-store.ts';
export { createSealer, type Sealer } from './store/seal.ts';
export { createServerFactory, SCOPE_KEY, SERVER_INFO, TOOL_NAMES } from './tools/build-server.ts';
export type { ReceiptVerification, RequestScope, SessPrincipal, ToolDeps } from './tools/context.ts';
export { ASK_OPEN_LINE, REWAIT_LINE, SERVER_INSTRUCTIONS } from './tools/descriptions.ts';
