/**
 * `@sess.si/mcp/http`: the HTTP composition of the Sess MCP server, a library for a hosting
 * runtime (the seed's "HTTP composition"). `createSessMcpHttpHandler(options)` is a stateless
 * Streamable HTTP handler for the same tools as the stdio server, on `createMcpHandler` with the
 * SDK's stateless legacy fallback (2026-07-28 and 2025-era clients on one endpoint). The hosting
 * runtime supplies the authority (`authenticate`, `handleStore`); nothing here starts a listener.
 *
 * A re-export of @sess/mcp's edge, as it is: apps/server mounts the same function for its `/mcp`,
 * so the edge we run is the edge we publish.
 */
export type { Logger as SessMcpLogger } from '@sess/core';
export type {
  HandleBinding,
  HandlePatch,
  HandleRecord,
  HandleStore,
  HandleStoreFactory,
  ListStatus,
  ReceiptVerification,
  SessBackend,
  SessPrincipal,
  TaskOwner,
  TaskRecord,
  TaskStore,
} from '@sess/interactions';
export { createHttpBackend, createHttpReceipts, type HttpBackendOptions, type HttpReceiptsOptions } from '@sess/interactions';
export {
  type Authenticate as SessMcpAuthenticate,
  type AuthenticateRequest,
  createSessMcpHttpHandler,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type RateLimit,
  type RequestAdmission,
  type SessMcpHttpHandler,
  type SessMcpHttpHandlerOptions,
} from '@sess/mcp';
