/**
 * `@sess.si/mcp/http`: the HTTP composition of the Sess MCP server, a library for a hosting
 * runtime (the seed's "HTTP composition"). `createSessMcpHttpHandler(options)` is a stateless
 * Streamable HTTP handler for the same tools as the stdio server, on `createMcpHandler` with the
 * SDK's stateless legacy fallback (2026-07-28 and 2025-era clients on one endpoint). The hosting
 * runtime supplies the authority (`authenticate`, `handleStore`); nothing here starts a listener.
 *
 * apps/server mounts this very function for its `/mcp` (`@sess/stdio/http` in the workspace), so
 * the edge we run is the edge we publish. The implementation is @sess/mcp's edge; this file is
 * the published surface: its option type is written out here so the published declarations name
 * no package a consumer does not install (the edge's own logger type is pino's).
 */
import type { Logger } from '@sess/core';
import type { HandleStoreFactory, ReceiptVerification, SessBackend, SessPrincipal } from '@sess/interactions';
import {
  type AuthenticateRequest,
  createSessMcpHttpHandler as createEdge,
  type SessMcpHttpHandlerOptions as EdgeOptions,
  type RateLimit,
  type RequestAdmission,
  type SessMcpHttpHandler,
} from '@sess/mcp';

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
  UnitOfWork,
} from '@sess/interactions';
export { createHttpBackend, createHttpReceipts, type HttpBackendOptions, type HttpReceiptsOptions } from '@sess/interactions';
export { DEFAULT_MAX_BODY_BYTES, DEFAULT_REQUEST_TIMEOUT_MS } from '@sess/mcp';
export type { AuthenticateRequest, RateLimit, RequestAdmission, SessMcpHttpHandler };

/**
 * Where the handler logs: fixed dotted event names and codes, object first (a pino logger is
 * one). Never a link, a token or an answer.
 */
export interface SessMcpLogger {
  debug(entry: object, message?: string): void;
  info(entry: object, message?: string): void;
  warn(entry: object, message?: string): void;
  error(entry: object, message?: string): void;
}

/** The hosting runtime's authority for one request: its principal, or nothing (answered 401). */
export type SessMcpAuthenticate = (
  request: AuthenticateRequest,
) => Promise<SessPrincipal | null | undefined> | SessPrincipal | null | undefined;

export interface SessMcpHttpHandlerOptions {
  /**
   * Verifies the request's credentials (exactly once per request, before any body byte is read)
   * and returns the principal, or nothing when there is no valid credential (401 with a
   * `WWW-Authenticate: Bearer resource_metadata="…"` challenge).
   */
  authenticate: SessMcpAuthenticate;
  /** Returns a handle store bound to the request's authority; every loaded record is re-checked anyway. */
  handleStore: HandleStoreFactory;
  /** Host header allowlist (DNS-rebinding defence): `host[:port]`; an entry without a port matches any port. */
  allowedHosts: readonly string[];
  /** A sentence added to the `403` a request with another Host gets, after the hosts it names: how to fix it where you host. */
  wrongHostAdvice?: string;
  /** Exact browser origins allowed; a request without `Origin` is always accepted. */
  allowedOrigins?: readonly string[];
  /** Every scope a principal must hold (`403 insufficient_scope` otherwise). */
  requiredScopes?: readonly string[];
  /** The protected resource metadata URL named in every challenge (RFC 9728). */
  resourceMetadataUrl: string;
  /** Largest request body, default 256 KiB (`413` above it). */
  maxBodyBytes?: number;
  /** Absolute per-request deadline from entry, default 60 s (`408` while the body is still arriving). */
  requestTimeoutMs?: number;
  /** The deadlines' timers: the real ones by default (a test passes its own to end a deadline when it chooses). */
  deadlineTimers?: EdgeOptions['deadlineTimers'];
  /** The Sess runtime; without it `tools/list` works and every tool answers `NOT_CONFIGURED`. */
  backend?: SessBackend;
  /** How answer receipts are verified (required with a backend). */
  receipts?: ReceiptVerification;
  /** Lower the 45 000 ms wait ceiling. */
  maxWaitMs?: number;
  /** Answer plain `tools/list` requests from the SDK's own cached answer (default true). */
  cacheToolsList?: boolean;
  /**
   * Answer plain tool calls without the SDK's per-request server, in the SDK's own framing
   * (default true). Off, a `__proto__`, `constructor` or `prototype` key in a tool's arguments is
   * answered as JSON-RPC -32602 naming its pointer, not as an `INVALID_ARGUMENTS` tool error.
   */
  answerPlainCalls?: boolean;
  /** Per-principal and per-IP limits (429 with `Retry-After`); `false` turns one off. */
  rateLimit?: { perPrincipal?: RateLimit | false; perIp?: RateLimit | false };
  logger?: SessMcpLogger;
  now?: () => Date;
}

// The published options are the edge's own, field for field, but the logger: a compile error here
// means one of the two changed without the other. The keys are compared too: an optional field
// present on one side only would pass the two assignability checks alone.
type Same<A, B> = [A] extends [B]
  ? [B] extends [A]
    ? [keyof A] extends [keyof B]
      ? [keyof B] extends [keyof A]
        ? true
        : false
      : false
    : false
  : false;
const optionsMatchTheEdge: Same<Omit<SessMcpHttpHandlerOptions, 'logger'>, Omit<EdgeOptions, 'logger'>> = true;
void optionsMatchTheEdge;

/**
 * `createSessMcpHttpHandler(options)`: the Streamable HTTP edge. On every request, in this order:
 * the header-only preflight (Host, Origin, one `authenticate`, scopes, limits), the bounded body
 * read under the deadline, the unsafe-key guard in the request's protocol era, then the SDK with
 * a fresh server for the request. Every answer carries `Cache-Control: no-store` and
 * `X-Content-Type-Options: nosniff`.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
 */
export function createSessMcpHttpHandler(options: SessMcpHttpHandlerOptions): SessMcpHttpHandler {
  const { logger, ...rest } = options;
  // The edge and the tools log through these four methods only; its parameter names pino's type.
  return createEdge(logger ? { ...rest, logger: logger as Logger } : rest);
}
