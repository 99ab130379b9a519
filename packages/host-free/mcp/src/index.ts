export { VIEW_TOOL_NAMES } from '@sess/contract';
export type { ChatAnswerOutcome, ChatViews, ChatViewTarget, RenderedChatView } from './apps/chat-views.ts';
export { RESOURCE_MIME_TYPE } from './apps/ui-extension.ts';
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
export { createServerFactory, type ScopeResolver, SERVER_INFO, TOOL_NAMES, toolError } from './tools/build-server.ts';
